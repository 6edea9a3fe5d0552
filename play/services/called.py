"""A tournament played at the tables: a called match's game gets its table from the site, both players told.

`table_open_for_playable_game` is the listener `PlayConfig.ready()` registers with
`matches.listeners.on_game_playable` (play sits above tournaments and matches, which
never import it). It is called in the transaction that made the game playable: a
pairing called (by an organiser, or by `advance_automatically` as a round is paired)
or the game before it decided (a table's verified log, a forfeit, an organiser's
result). A casual match, or a tournament's not played at the tables or not called
yet, is left to its players.
"""

from __future__ import annotations

import logging

from django.urls import reverse

from core.errors import Invalid
from matches.models import Match
from matches.services import game_lock
from matches.services.notifications import Kind, notify
from tournaments.selectors import game_called_to_tables

from ..models import Table
from .tables import game_table_open_locked

logger = logging.getLogger(__name__)


def table_open_for_playable_game(*, game_id: int) -> None:
    """Open the game's table if its match is a called one of a tournament played at the tables, and tell both."""
    tournament_name = game_called_to_tables(game_id=game_id)  # first: a casual game costs this one query
    if tournament_name is None:
        return
    game = game_lock(game_id=game_id)  # the caller's transaction holds the match's lock already
    try:
        table, _created = game_table_open_locked(game=game, user=None)
    except Invalid:
        # A game no table can play (its ruleset, or decided meanwhile): its players are told it is called. The
        # change that made it playable (a result, a call) must stand all the same, so nothing is raised.
        logger.warning("game %s: its called match's table could not open", game_id, exc_info=True)
        table = None
    _notify_table_open(game.match, game.number, table, tournament_name)


def _notify_table_open(match: Match, number: int, table: Table | None, tournament_name: str) -> None:
    players = match.players
    title = " v ".join(player.handle for player in players)
    if table is None:
        subject = f"your match in {tournament_name} is called"
        lines = [f"Game {number} of {title} in {tournament_name} is called: play it and report its result."]
        path = reverse("web:match_detail", args=[match.pk])
    else:
        subject = f"your table is open: game {number} of {title} in {tournament_name}"
        lines = [
            f"Game {number} of {title} in {tournament_name} is called to its table, which is open now.",
            "Sit down and press ready: a player who does not come in time may lose the game.",
        ]
        path = reverse("web:table", args=[table.pk])
    # The call's own kind: this is the call, and a player turns both off as one.
    notify(
        kind=Kind.MATCH_CALLED, user_ids=[player.user_id for player in players], subject=subject, lines=lines, path=path
    )
