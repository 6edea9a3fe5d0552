"""Reads of the organiser and player pages (names, submission groups, registrations, live versions).

Kept apart from `web.selectors`; each function is a fixed number of queries.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.db.models import Count, F, Func, Max, Q, QuerySet, Subquery, TextField, Value
from django.db.models.functions import Cast

from matches.models import Game, Match, Player, ResultChange
from matches.selectors import MATCH_PLAYERS
from replays.models import MatchLog
from tournaments.models import CorrectionRecord, Entrant, Registration, Tournament, TournamentMatch

from .names import SectionShape, pairing_name
from .seats import players_title


def section_shapes_for(*, tournament_ids: Iterable[int]) -> dict[tuple[int, str], SectionShape]:
    """The shape of every section of these tournaments (one query, a row per round)."""
    ids = set(tournament_ids)
    if not ids:
        return {}
    rows = (
        TournamentMatch.objects.filter(tournament_id__in=ids)
        .values("tournament_id", "bracket", "round")
        .annotate(size=Count("id", filter=~Q(status=TournamentMatch.Status.BYE)))
        .order_by()
    )
    sizes: dict[tuple[int, str], dict[int, int]] = defaultdict(dict)
    for row in rows:
        sizes[(row["tournament_id"], row["bracket"])][row["round"]] = row["size"]
    return {key: SectionShape(max(rounds), rounds) for key, rounds in sizes.items()}


def names_of(pairings: Iterable[TournamentMatch]) -> dict[int, str]:
    """Names in words of pairings from any tournaments, by pairing id (one query for the shapes)."""
    rows = list(pairings)
    shapes = section_shapes_for(tournament_ids={pairing.tournament_id for pairing in rows})
    return {pairing.pk: pairing_name(pairing, shapes.get((pairing.tournament_id, pairing.bracket))) for pairing in rows}


def name_of(pairing: TournamentMatch | None) -> str:
    """One pairing's name (one query), or "" for none."""
    if pairing is None:
        return ""
    return names_of([pairing])[pairing.pk]


@dataclass(frozen=True)
class SubmissionGroup:
    """Games of one tournament round and ruleset (or of matches outside tournaments), for the submit page."""

    label: str
    games: list[tuple[Game, str]]  # each game with its label


def games_grouped(*, games: QuerySet[Game]) -> list[SubmissionGroup]:
    """The games a user may submit for, grouped by tournament, round and ruleset (three queries)."""
    rows = list(games.select_related(*(f"match__{seat}" for seat in MATCH_PLAYERS))[:200])
    pairings = {
        pairing.match_id: pairing
        for pairing in TournamentMatch.objects.filter(match_id__in=[game.match_id for game in rows]).select_related(
            "tournament"
        )
    }
    names = names_of(pairings.values())
    groups: dict[tuple[str, ...], list[tuple[Game, str]]] = defaultdict(list)
    for game in rows:
        match = game.match
        pairing = pairings.get(game.match_id)
        ruleset = (match.ruleset_name or "custom").replace("-", " ").capitalize()
        state = " (disputed)" if game.status == Game.Status.DISPUTED else ""
        players = f"{players_title([p.handle for p in match.players])}, game {game.number}{state}"
        if pairing is not None:
            round_label = names[pairing.pk].split(",")[0] if pairing.bracket in ("round_robin", "swiss") else ""
            key = (pairing.tournament.name, round_label or "", ruleset)
            label = f"{names[pairing.pk]}: {players}"
        else:
            key = ("Matches outside tournaments", "", ruleset)
            label = f"Match {match.pk}: {players}"
        groups[key].append((game, label))
    return [SubmissionGroup(" · ".join(part for part in key if part), items) for key, items in groups.items()]


#: Handles the new-match page suggests at most (typing any other handle still works).
HANDLE_SUGGESTIONS = 500


def player_handles(*, limit: int = HANDLE_SUGGESTIONS) -> list[str]:
    """Handles to suggest in the new-match page's seats, alphabetical (one query, bounded)."""
    return list(Player.objects.order_by("handle").values_list("handle", flat=True)[:limit])


def players_without_login(*, player_ids: Iterable[int]) -> set[int]:
    """Which of these players cannot log in yet (no password chosen): they claim their account by invite (one query)."""
    return set(
        Player.objects.filter(pk__in=list(player_ids), user__password__startswith=UNUSABLE_PASSWORD_PREFIX).values_list(
            "pk", flat=True
        )
    )


def registrations_pending(*, tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=tournament, status=Registration.Status.PENDING)
        .select_related("player")
        .order_by("created_at", "id")[:200]
    )


def registration_of(*, tournament: Tournament, player_id: int | None) -> Registration | None:
    if player_id is None:
        return None
    return Registration.objects.filter(tournament=tournament, player_id=player_id).first()


def entrant_of(*, tournament: Tournament, player_id: int | None) -> Entrant | None:
    if player_id is None:
        return None
    return Entrant.objects.filter(tournament=tournament, player_id=player_id).first()


# --- Live versions ------------------------------------------------------------------
# A page polls a version; when it changes, the page fetches itself and swaps its live regions.


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def _aggregates(queryset: QuerySet[Any], *parts: tuple[str, str]) -> Subquery:
    """Aggregates (function, column) of `queryset` as one text, a scalar subquery for the caller's statement.

    `Func`, not Django's aggregates, so that no GROUP BY is added: the subquery
    reads its rows once and answers one value, whatever the number of parts.
    """
    values = [Cast(Func(F(column), function=function), output_field=TextField()) for function, column in parts]
    text = Func(Value(":"), *values, function="CONCAT_WS", output_field=TextField())
    return Subquery(queryset.order_by().values(v=text))


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
    logs = MatchLog.objects.aggregate(last=Max("id"), judged=Max("verified_at"))
    tournaments = Tournament.objects.aggregate(last=Max("id"), started=Max("started_at"), finished=Max("finished_at"))
    called = TournamentMatch.objects.aggregate(last=Max("underway_at"))
    return _digest(changes, logs, tournaments, called)
