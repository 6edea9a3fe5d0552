"""The pairing manager: the one writer of pairing rows, as Tabbycat's draw manager is of its draws.

The services call it with the tournament row locked. It loads a tournament's
rows once, asks the tournament's format what follows (`TournamentFormat.open`
at the start, `advance` after every result or correction: a `PairingPlan`,
nothing saved), and writes the plan: new rows, with a matches.Match for each
ready one (two-player matches a round at a time through
`matches.services.match_create_bulk`, tables one at a time), the rows the
format changed, and the final places when the tournament is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils import timezone

from matches.models import Match, Player
from matches.services import match_create, match_create_bulk
from tournaments.formats import format_for
from tournaments.formats.options import TableSeatOptions
from tournaments.generators import EntrantId, Placing

from ..models import Entrant, Tournament, TournamentMatch
from ..plans import BRACKET_FIELDS, PairingPlan, Run
from ..selectors import entrant_list
from .running import pairings_call_ready


def pairings_open(tournament: Tournament, *, entrants: list[Entrant] | None = None) -> None:
    """Create the first pairings of a tournament that has just started, then advance as after a result.

    The advance is handed the entrants (read here, or given by the start, which
    has just seeded them: with their players, by seed) and the rows `open`
    created (all the tournament's pairings, in creation order) rather than
    reading them back.
    """
    tournament_format = format_for(tournament.format)
    entrants = entrant_list(tournament=tournament) if entrants is None else entrants
    players = {entrant.player_id: entrant.player for entrant in entrants}
    created = plan_apply(tournament, tournament_format.open(Run(tournament, entrants, [])), entrants, players)
    if tournament.status == Tournament.Status.RUNNING:
        plan_apply(tournament, tournament_format.advance(Run(tournament, entrants, created)), entrants, players)


def pairings_advance(tournament: Tournament) -> None:
    """After a result or a correction: open what is now ready, and finish the tournament when done."""
    if tournament.status != Tournament.Status.RUNNING:
        return
    pairings = list(TournamentMatch.objects.filter(tournament=tournament).order_by("id"))
    entrants = entrant_list(tournament=tournament)
    run = Run(tournament, entrants, pairings)
    plan_apply(tournament, format_for(tournament.format).advance(run), entrants, run.players)


def plan_apply(
    tournament: Tournament, plan: PairingPlan, entrants: list[Entrant], players: Mapping[int, Player]
) -> list[TournamentMatch]:
    """Write a format's plan: its new rows (returned, saved), its changed rows, its final places."""
    matches_attach(tournament, [*plan.create, *plan.update], players)
    created = TournamentMatch.objects.bulk_create(plan.create) if plan.create else []
    if plan.update:
        TournamentMatch.objects.bulk_update(plan.update, BRACKET_FIELDS)
    pairings_call_ready(tournament, [*created, *plan.update])  # with `advance_automatically` only
    if plan.finish is not None:
        tournament_finish(tournament, entrants, plan.finish)
    return created


def matches_attach(tournament: Tournament, pairings: Iterable[TournamentMatch], players: Mapping[int, Player]) -> None:
    """Give every ready pairing without a match its matches.Match, with the tournament's series and ruleset.

    Two-player pairings all at once (`match_create_bulk`): a round of 2,048
    pairings costs the statements of one. A table of three or four through
    `match_create`, one at a time (a round has a quarter as many tables as players).
    """
    due = [
        pairing for pairing in pairings if pairing.status == TournamentMatch.Status.READY and pairing.match_id is None
    ]
    series = {"best_of" if tournament.series == Match.Series.BEST_OF else "first_to": tournament.series_length}
    pairs: list[TournamentMatch] = []
    for pairing in due:
        if len(pairing.seat_ids) > 2:
            pairing.match = _table_match(tournament, [players[pk] for pk in pairing.seat_ids], series)
        else:
            pairs.append(pairing)
    if not pairs:
        return
    matches = match_create_bulk(
        pairs=[(players[pairing.seat_ids[0]], players[pairing.seat_ids[1]]) for pairing in pairs],
        ruleset=tournament.ruleset,
        created_by=None,
        confirmation=tournament.confirmation,
        confirm_within=tournament.confirm_within,
        time_limit_ms=tournament.time_limit_ms,
        best_of=series.get("best_of"),
        first_to=series.get("first_to"),
    )
    for pairing, match in zip(pairs, matches, strict=True):
        pairing.match = match


def _table_match(tournament: Tournament, players: list[Player], series: dict[str, int]) -> Match:
    """A table's matches.Match (three or four players) with its size's ruleset and points per place."""
    ruleset, points = TableSeatOptions.of(tournament).table_setup(len(players))
    return match_create(
        players=[player.handle for player in players],
        ruleset=ruleset,
        created_by=None,
        confirmation=tournament.confirmation,
        confirm_within=tournament.confirm_within,
        points_per_place=points,
        time_limit_ms=tournament.time_limit_ms,
        best_of=series.get("best_of"),
        first_to=series.get("first_to"),
    )


def tournament_finish(tournament: Tournament, entrants: list[Entrant], placings: Mapping[EntrantId, Placing]) -> None:
    """Give every entrant their final place and mark the tournament finished."""
    for entrant in entrants:
        placing = placings[entrant.player_id]
        entrant.place, entrant.place_to = placing.place, placing.shared_to
    Entrant.objects.bulk_update(entrants, ["place", "place_to"])
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
