"""Live versions: a page polls one; when it changes, the page fetches itself and swaps its live regions."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, F, Func, Max, QuerySet, Subquery, Sum, TextField, Value
from django.db.models.functions import Cast, Coalesce, Concat

from matches.models import Match, ResultChange
from play.models import Seek, Table
from play.selectors import WaitingTable
from replays.models import MatchLog
from tournaments.models import CorrectionRecord, Entrant, Tournament, TournamentMatch


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def _aggregates(queryset: QuerySet[Any], *parts: tuple[str, str]) -> Subquery:
    """Aggregates (function, column) of `queryset` as one text, a scalar subquery for the caller's statement.

    `Func`, not Django's aggregates, so that no GROUP BY is added: the subquery
    reads its rows once and answers one value, whatever the number of parts.
    Joined with the ORM's `Concat` rather than SQL's CONCAT_WS, which SQLite (the
    demo's database) has only since 3.44.
    """
    joined: list[Any] = []
    for function, column in parts:
        value = Cast(Func(F(column), function=function), output_field=TextField())
        joined += [Value(":"), Coalesce(value, Value(""), output_field=TextField())]
    text = joined[1] if len(joined) == 2 else Concat(*joined[1:], output_field=TextField())
    return Subquery(queryset.order_by().values(aggregated=text))  # a name no model's field has (a Table has `v`)


def live_version_tournament(*, tournament_id: int) -> str:
    """Changes when anything the tournament's page shows changes (one statement: a subquery per table).

    One statement rather than five: a poller asks every few seconds, and each
    round trip to PostgreSQL costs a busy server more than the small scans do.
    """
    pairings = TournamentMatch.objects.filter(tournament_id=tournament_id)
    row = (
        Tournament.objects.filter(pk=tournament_id)
        .order_by()
        .values_list(
            "status",
            "registration_open",
            "checkin_open",
            _aggregates(pairings, ("COUNT", "id"), ("MAX", "decided_at"), ("MAX", "underway_at")),
            _aggregates(
                ResultChange.objects.filter(match__tournament_match__tournament_id=tournament_id), ("MAX", "id")
            ),
            _aggregates(
                MatchLog.objects.filter(game__match__tournament_match__tournament_id=tournament_id),
                ("MAX", "id"),
                ("MAX", "verified_at"),
            ),
            _aggregates(
                Entrant.objects.filter(tournament_id=tournament_id), ("COUNT", "id"), ("COUNT", "checked_in_at")
            ),
            _aggregates(CorrectionRecord.objects.filter(tournament_id=tournament_id), ("MAX", "id")),
            # "At the tables now": a table opening or ending. Not each move (the lobby's version counts those):
            # every viewer would fetch a big event's page at every poll while it plays.
            _aggregates(
                Table.objects.filter(game__match__tournament_match__tournament_id=tournament_id, status__in=Table.LIVE),
                ("COUNT", "id"),
                ("MAX", "id"),
            ),
        )
        .first()
    )
    return _digest(row)


def live_version_match(*, match_id: int) -> str:
    """Changes with the match's results, its logs' verdicts, and its call to a station (three queries)."""
    row = Match.objects.filter(pk=match_id).values_list("status", "tournament_match__underway_at").first()
    changes = ResultChange.objects.filter(match_id=match_id).aggregate(last=Max("id"))
    logs = MatchLog.objects.filter(game__match_id=match_id).aggregate(last=Max("id"), judged=Max("verified_at"))
    return _digest(row, changes, logs)


def live_version_site() -> str:
    """Changes with any result, log verdict, call or tournament anywhere (for the home page and "My matches")."""
    changes = ResultChange.objects.aggregate(last=Max("id"))
    # A practice log is on no page these serve: it changes nothing here.
    logs = MatchLog.objects.filter(game__isnull=False).aggregate(last=Max("id"), judged=Max("verified_at"))
    tournaments = Tournament.objects.aggregate(last=Max("id"), started=Max("started_at"), finished=Max("finished_at"))
    called = TournamentMatch.objects.aggregate(last=Max("underway_at"))
    return _digest(changes, logs, tournaments, called)


def live_version_lobby() -> str:
    """Changes when a seek is posted or closed, and with every live table's moves (two queries)."""
    seeks = Seek.objects.aggregate(last=Max("id"), closed=Max("closed_at"))
    tables = Table.objects.filter(status__in=Table.LIVE).aggregate(
        count=Count("id"), last=Max("id"), events=Sum("event_count"), started=Max("countdown_at")
    )
    return _digest(seeks, tables)


def live_version_waiting(waiting: list[WaitingTable]) -> str:
    """Changes when the tables where someone waits for the reader change (read by the caller: no query)."""
    return _digest(tuple((row.table_id, row.handle) for row in waiting))
