"""Bring a tournament's pairings up to date: load its rows once and hand them to its format.

Called by the services with the tournament row locked. Each format
(`tournaments.formats`) opens its first pairings at the start and, after
every result or correction, recomputes what follows from all results so
far; `tournaments.pairings` turns what it decides into rows.
"""

from __future__ import annotations

from .formats import format_for
from .models import Tournament, TournamentMatch
from .pairings import Run
from .selectors import entrant_list


def pairings_open(tournament: Tournament) -> None:
    """Create the first pairings of a tournament that has just started, then advance as after a result.

    The advance is handed the entrants and the rows `open` created (all the
    tournament's pairings, in creation order) rather than reading them back:
    with 4,096 entrants that read was a fifth of the start.
    """
    tournament_format = format_for(tournament.format)
    entrants = entrant_list(tournament=tournament)
    created = tournament_format.open(Run(tournament, entrants, []))
    if tournament.status == Tournament.Status.RUNNING:
        tournament_format.advance(Run(tournament, entrants, created))


def pairings_advance(tournament: Tournament) -> None:
    """After a result or a correction: open what is now ready, and finish the tournament when done."""
    if tournament.status != Tournament.Status.RUNNING:
        return
    pairings = list(TournamentMatch.objects.filter(tournament=tournament).order_by("id"))
    format_for(tournament.format).advance(Run(tournament, entrant_list(tournament=tournament), pairings))
