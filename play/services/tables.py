"""Opening tables: one for an open game of a match, or a practice table against bots (speed-table/1 section 1).

The deck is shuffled and salted from `secrets` when the table is created;
`deck_sha256` (the hex SHA-256 of `salt:deck`) is shown from the start and
the salt revealed when the game is over, so any player can check the deal
was fixed before the game began.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from core.errors import Invalid, NotAllowed
from matches.models import Game
from matches.selectors import AnyUser, signed_in, user_is_organiser, user_player
from matches.services import game_lock
from speedrules import PRESETS, Ruleset, ruleset_from_json
from speedrules.cards import build_pack
from tournaments.selectors import tournament_table_settings

from ..bots import BOT_LEVELS, bot_name
from ..models import Table, TableBotLease, TableSeat
from .live import now_ms
from .referee import due_set

_LIVE = Table.LIVE


def deck_proof(salt: str, deck: list[str]) -> str:
    """`deck_sha256`: the hex SHA-256 of the UTF-8 bytes of `salt + ":" + ",".join(deck)`."""
    return hashlib.sha256(f"{salt}:{','.join(deck)}".encode()).hexdigest()


def _table_settings() -> dict[str, int | None]:
    return dict(settings.SPEED_TABLE_SETTINGS)


def _new_table(
    *,
    ruleset: Ruleset,
    ruleset_name: str,
    players: list[str],
    seat_users: list[int | None],
    bots: list[str | None],
    game: Game | None,
    user: User | None,
    deck: list[str] | None,
    settings_override: dict[str, int | None] | None = None,
) -> Table:
    if deck is None:
        deck = build_pack(decks=ruleset.decks, jokers=ruleset.jokers)
        secrets.SystemRandom().shuffle(deck)
    salt = secrets.token_hex(16)
    opened = now_ms()
    table = Table.objects.create(
        game=game,
        ruleset=ruleset.to_json(),
        ruleset_name=ruleset_name,
        players=players,
        seat_users=seat_users,
        bots=bots,
        deck=deck,
        salt=salt,
        deck_sha256=deck_proof(salt, deck),
        settings=settings_override or _table_settings(),
        ready=[level is not None for level in bots],  # bots are always ready
        away=[None if level is not None else opened for level in bots],  # nobody has sat down yet
        created_by=user,
    )
    TableSeat.objects.bulk_create([TableSeat(table=table, seat=seat) for seat in range(ruleset.players)])
    if any(bots):
        TableBotLease.objects.create(table=table)
    due_set(table)  # its first timer: the abort, if nobody readies it
    table.save(update_fields=["due_at"])
    return table


@transaction.atomic
def table_open_for_game(*, game_id: int, user: AnyUser, deck: list[str] | None = None) -> tuple[Table, bool]:
    """The table of an open game (a player of its match, or an organiser): (table, created).

    `deck` fixes the deal (tests only); everything else takes the same path.
    """
    game = game_lock(game_id=game_id)  # the match row's lock: two requests open one table
    if not user_is_organiser(user=user):
        me = user_player(user=user)
        if me is None or me.pk not in game.match.player_ids:
            raise NotAllowed("Only the match's players or an organiser can open its table.")
    return game_table_open_locked(game=game, user=signed_in(user), deck=deck)


def game_table_open_locked(*, game: Game, user: User | None, deck: list[str] | None = None) -> tuple[Table, bool]:
    """The open game's table, opened by `user` (None: the site, for a called match): (table, created).

    Takes the game `game_lock` returned, its match row locked by the caller's transaction.
    """
    match = game.match
    live = Table.objects.filter(game=game, status__in=_LIVE).first()
    if live is not None:
        return live, False
    if game.status != Game.Status.OPEN or Table.objects.filter(game=game, status=Table.Status.OVER).exists():
        raise Invalid(
            f"Game {game.number} of match {match.pk} is not open (it is {game.status}): a table plays open games only.",
            extra={"game_status": game.status},
        )
    ruleset = ruleset_from_json(match.ruleset)
    players = match.players
    table = _new_table(
        ruleset=ruleset,
        ruleset_name=match.ruleset_name,
        players=[player.handle for player in players],
        seat_users=[player.user_id for player in players],
        bots=[None] * len(players),
        game=game,
        user=user,
        deck=deck,
        # A tournament's own times (amendment L5) over the site's; a casual match keeps the site's.
        # A timed match's limit (matches.Match.time_limit_ms): the table ends its games there.
        settings_override={
            **_table_settings(),
            **tournament_table_settings(match_id=match.pk),
            **({} if match.time_limit_ms is None else {"time_limit_ms": match.time_limit_ms}),
        },
    )
    return table, True


def practice_rulesets() -> list[str]:
    """The presets a practice table offers: every one, the extension's games too (docs/table-protocol.md)."""
    return list(PRESETS)


@transaction.atomic
def table_practice_create(*, user: AnyUser, ruleset: str, bots: list[Any], deck: list[str] | None = None) -> Table:
    """A practice table: the caller at seat 0, one bot of the given level at each other seat."""
    author = signed_in(user)
    if author is None:
        raise NotAllowed("Sign in to play a practice game.")
    if ruleset not in practice_rulesets():
        raise Invalid(
            f"Unknown or unplayable ruleset {ruleset!r}; use one of {', '.join(practice_rulesets())}.",
            extra={"field": "ruleset"},
        )
    rules = PRESETS[ruleset]
    if len(bots) != rules.players - 1 or any(level not in BOT_LEVELS for level in bots):
        raise Invalid(
            f"The {ruleset!r} ruleset seats {rules.players}: give {rules.players - 1} bot levels, each one of "
            f"{', '.join(BOT_LEVELS)}.",
            extra={"field": "bots"},
        )
    me = user_player(user=author)
    handle = me.handle if me is not None else author.get_username()
    return _new_table(
        ruleset=rules,
        ruleset_name=ruleset,
        players=[handle, *(bot_name(seat, level) for seat, level in enumerate(bots, start=1))],
        seat_users=[author.pk, *([None] * len(bots))],
        bots=[None, *bots],
        game=None,
        user=author,
        deck=deck,
    )
