"""Creating matches (rulesets and series resolved here for tournaments too) and finishing them."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from replays.engine import PRESETS, LogError, Ruleset, ruleset_from_json
from speedsite.errors import Invalid, NotAllowed

from ..listeners import match_finished_notify
from ..models import Game, Match, Player
from ..selectors import AnyUser, players_by_handles, user_is_organiser, user_player
from ..series import series_step

MAX_SERIES_LENGTH = 99


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
    confirmation: str = Match.Confirmation.OPPONENT,
    confirm_within: int | None = None,
) -> Match:
    """A match between two players, with its first game open.

    Organisers create any match; a player creates matches they play in. A
    match made on its own always needs the opponent's word and never lapses:
    one player alone can never finish it. A tournament passes its own
    `confirmation` and `confirm_within` (seconds before an unconfirmed result stands).
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
        confirmation=confirmation,
        confirm_within=confirm_within,
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


def match_progress(*, match: Match) -> None:
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
