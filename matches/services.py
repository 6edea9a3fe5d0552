"""Every change to players, matches and games (HackSoft services: `<entity>_<action>`).

The one place where a match becomes decided is `match_finish`; it then calls
the listeners the apps above registered (`matches.listeners`): ratings and
tournament advancement.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group
from django.db import IntegrityError, transaction
from django.utils import timezone

from replays.engine import PRESETS, LogError, Ruleset, ruleset_from_json
from speedsite.errors import Invalid, NotAllowed

from .listeners import match_finished_notify
from .models import Game, Match, Player
from .selectors import (
    ORGANISERS_GROUP,
    player_get,
    players_by_handles,
    user_is_organiser,
    user_player,
)
from .series import series_step

HANDLE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
MAX_SERIES_LENGTH = 99

User = get_user_model()
AnyUser = AbstractBaseUser | AnonymousUser | None


# --- Players -----------------------------------------------------------------


@transaction.atomic
def player_create(*, handle: str, display_name: str, password: str | None = None) -> Player:
    """A player, with a Django user of the same username to log in as (created or linked)."""
    handle = handle.strip()
    display_name = display_name.strip() or handle
    if not HANDLE_PATTERN.match(handle):
        raise Invalid(
            f"The handle {handle!r} is not allowed: use 1 to 40 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit.",
            extra={"field": "handle"},
        )
    if player_get(handle=handle) is not None:
        raise Invalid(
            f"The handle {handle!r} is taken (handles are unique regardless of case); choose another.",
            extra={"field": "handle"},
        )
    user = User.objects.filter(username__iexact=handle).first()
    if user is None:
        user = User(username=handle)
        if password:
            user.set_password(password)
        else:
            user.set_unusable_password()
        user.save()
    elif Player.objects.filter(user=user).exists():
        raise Invalid(f"The user {user.get_username()!r} already plays as another player.")
    elif password:
        user.set_password(password)
        user.save(update_fields=["password"])
    try:
        with transaction.atomic():
            return Player.objects.create(handle=handle, display_name=display_name, user=user)
    except IntegrityError as exc:  # a concurrent request took the handle first
        raise Invalid(f"The handle {handle!r} is taken; choose another.") from exc


def organiser_grant(*, user: AbstractBaseUser) -> None:
    """Make the user an organiser (a member of the "organisers" group)."""
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    user.groups.add(group)  # type: ignore[attr-defined]


# --- Matches -----------------------------------------------------------------


def ruleset_resolve(ruleset: object) -> tuple[Ruleset, str]:
    """A two-player ruleset from a preset name or a speed-log/1 ruleset object, and the preset's name if any.

    Matches and tournaments both take their rulesets through here."""
    if ruleset is None:
        ruleset = "speed"
    if isinstance(ruleset, str):
        preset = PRESETS.get(ruleset)
        if preset is None:
            raise Invalid(
                f"Unknown ruleset preset {ruleset!r}; use one of {', '.join(PRESETS)} "
                "or a ruleset object as in speed-log/1.",
                extra={"field": "ruleset"},
            )
        resolved = preset
    else:
        try:
            resolved = ruleset_from_json(ruleset)
        except LogError as exc:
            raise Invalid(f"The ruleset is not valid: {exc.message}", extra={"field": "ruleset"}) from exc
    name = next((key for key, preset in PRESETS.items() if preset == resolved), "")
    if resolved.players != 2:
        raise Invalid(
            f"A match is between two players, but this ruleset ({name or 'custom'}) has {resolved.players} seats; "
            "use a two-player ruleset.",
            extra={"field": "ruleset"},
        )
    return resolved, name


def series_resolve(*, best_of: int | None, first_to: int | None) -> tuple[str, int]:
    """The series kind and length from exactly one of best_of (odd) and first_to, for matches and tournaments."""
    if (best_of is None) == (first_to is None):
        raise Invalid("Give exactly one of best_of (e.g. 3) or first_to (e.g. 2).")
    length = best_of if best_of is not None else first_to
    assert length is not None
    if not 1 <= length <= MAX_SERIES_LENGTH:
        raise Invalid(f"The series length must be from 1 to {MAX_SERIES_LENGTH}, not {length}.")
    if best_of is not None:
        if best_of % 2 == 0:
            raise Invalid(
                f"best_of must be odd so that a match always has a winner ({best_of - 1} or {best_of + 1}); "
                "use first_to for other lengths."
            )
        return Match.Series.BEST_OF, best_of
    return Match.Series.FIRST_TO, length


@transaction.atomic
def match_create(
    *,
    players: Sequence[str],
    ruleset: object = "speed",
    best_of: int | None = None,
    first_to: int | None = None,
    created_by: AnyUser = None,
) -> Match:
    """A match between two players, with its first game open.

    Organisers create any match; a player creates matches they play in.
    """
    if len(players) != 2 or len({handle.lower() for handle in players}) != 2:
        raise Invalid("A match needs exactly two different player handles.", extra={"field": "players"})
    found = players_by_handles(handles=players)
    missing = [handle for handle in players if handle.lower() not in found]
    if missing:
        raise Invalid(
            f"No player with handle {', '.join(repr(h) for h in missing)}; an organiser creates players first.",
            extra={"field": "players"},
        )
    one, two = (found[handle.lower()] for handle in players)
    if created_by is not None and not user_is_organiser(user=created_by):
        me = user_player(user=created_by)
        if me is None or me.pk not in (one.pk, two.pk):
            raise NotAllowed(
                "Players can only create matches they play in; ask an organiser for other matches.",
            )
    resolved, name = ruleset_resolve(ruleset)
    series, length = series_resolve(best_of=best_of, first_to=first_to)
    match = Match.objects.create(
        player_one=one,
        player_two=two,
        ruleset=resolved.to_json(),
        ruleset_name=name,
        series=series,
        series_length=length,
        created_by=created_by if created_by is not None and created_by.is_authenticated else None,
    )
    Game.objects.create(match=match, number=1)
    return match


def match_finish(*, match: Match, winner: Player) -> Match:
    """THE place where a match becomes decided. Callers hold the match row's lock."""
    match.status = Match.Status.FINISHED
    match.winner = winner
    match.finished_at = timezone.now()
    Match.objects.filter(pk=match.pk).update(status=match.status, winner=winner, finished_at=match.finished_at)

    # The next step, in the same transaction (no signals): the apps above
    # (ratings, tournament advancement) registered their listeners at start-up.
    match_finished_notify(match=match)
    return match


def _match_progress(*, match: Match) -> None:
    """After a game changed: finish the match if someone has the wins, else open the next game if due."""
    if match.status != Match.Status.IN_PROGRESS:
        return
    step = series_step(
        games=match.games.values_list("number", "status", "winner_id"),
        player_ids=(match.player_one_id, match.player_two_id),
        wins_needed=match.wins_needed,
    )
    if step.winner_id is not None:
        match_finish(
            match=match, winner=match.player_one if step.winner_id == match.player_one_id else match.player_two
        )
    elif step.open_game is not None:
        Game.objects.create(match=match, number=step.open_game)


def game_lock(*, game_id: int) -> Game:
    """Take the game's match row lock, then load the game with its match and players.

    The match row is the one lock every change to a match, its games or their
    logs takes, so those changes run one after the other per match and never
    deadlock. The game is read after the lock is held, in a statement of its
    own, so it shows what the lock's previous holder committed. Call inside a
    transaction; raises Game.DoesNotExist.
    """
    locked = Match.objects.select_for_update(of=("self",)).filter(games__id=game_id).values_list("id", flat=True)
    if not locked:
        raise Game.DoesNotExist(f"no game {game_id}")
    return Game.objects.select_related("match__player_one", "match__player_two").get(pk=game_id)


@transaction.atomic
def game_decide(*, game: Game, winner: Player | None, decided_by: str) -> Game:
    """Record a game's result (winner None: a void game) and move the match on.

    The caller holds the match row's lock: `game` came from `game_lock` in this transaction.
    """
    match = game.match
    if winner is not None and winner.pk not in (match.player_one_id, match.player_two_id):
        raise Invalid(f"{winner.handle!r} does not play in this match.")
    game.winner = winner
    game.status = Game.Status.DECIDED if winner is not None else Game.Status.VOID
    game.decided_by = decided_by
    game.decided_at = timezone.now()
    game.save(update_fields=["winner", "status", "decided_by", "decided_at"])
    _match_progress(match=match)
    return game


@transaction.atomic
def game_dispute(*, game: Game) -> Game:
    """Results disagree: the game waits for an organiser; nothing already recorded is overwritten.

    The caller holds the match row's lock (`game_lock`).
    """
    if game.status != Game.Status.DISPUTED:
        game.status = Game.Status.DISPUTED
        game.save(update_fields=["status"])
    return game


def _winner_from_handle(match: Match, handle: str | None) -> Player | None:
    if handle is None:
        return None
    for player in match.players:
        if player.handle.lower() == handle.lower():
            return player
    raise Invalid(
        f"{handle!r} does not play in this match; the winner is {match.player_one.handle!r} "
        f"or {match.player_two.handle!r}.",
        extra={"field": "winner"},
    )


@transaction.atomic
def game_report_result(*, game: Game, user: AnyUser, winner: str) -> Game:
    """A player reports who won; when both players report the same winner, that decides the game."""
    game = game_lock(game_id=game.pk)
    match = game.match
    me = user_player(user=user)
    if me is None or me.pk not in (match.player_one_id, match.player_two_id):
        raise NotAllowed("Only the two players of this match can report its results.")
    if game.status != Game.Status.OPEN:
        raise Invalid(
            f"Game {game.number} is {game.get_status_display().lower()}, not open; "
            "an organiser can settle it if it is wrong."
        )
    reported = _winner_from_handle(match, winner)
    assert reported is not None
    field = "reported_by_one" if me.pk == match.player_one_id else "reported_by_two"
    setattr(game, field, reported)
    game.save(update_fields=[field])
    if game.reported_by_one_id is not None and game.reported_by_two_id is not None:
        if game.reported_by_one_id == game.reported_by_two_id:
            return game_decide(game=game, winner=reported, decided_by=Game.DecidedBy.PLAYERS)
        return game_dispute(game=game)
    return game


@transaction.atomic
def game_set_result(*, game: Game, user: AnyUser, winner: str | None) -> Game:
    """An organiser sets (or settles) a game's result; `winner` None voids the game."""
    if not user_is_organiser(user=user):
        raise NotAllowed("Only organisers can set a game's result.")
    game = game_lock(game_id=game.pk)
    match = game.match
    if game.status not in (Game.Status.OPEN, Game.Status.DISPUTED):
        raise Invalid(
            f"Game {game.number} is already {game.get_status_display().lower()}; "
            "only open or disputed games can be set."
        )
    return game_decide(game=game, winner=_winner_from_handle(match, winner), decided_by=Game.DecidedBy.ORGANISER)
