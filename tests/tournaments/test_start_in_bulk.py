"""tournament_start makes a whole round's matches at once: statements that do not grow with the field,
and each pairing's match the one match_create would have made."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.forms.models import model_to_dict

from matches.models import Game, Match, Player
from matches.services import match_create
from tests.factories import make_tournament
from tests.queries import database_queries
from tournaments.models import Entrant, Tournament, TournamentMatch
from tournaments.services import tournament_start
from tournaments.services.pairings import pairings_advance

pytestmark = pytest.mark.django_db

FORMATS = [
    ("single_elimination", {}),
    ("double_elimination", {}),
    ("swiss", {"swiss_rounds": 3}),
    ("round_robin", {}),
    ("groups_playoffs", {"group_count": 4}),
    ("winner_stays_on", {}),
]


def _players(count: int, prefix: str) -> list[Player]:
    return Player.objects.bulk_create(Player(handle=f"{prefix}{n:03d}", display_name=f"P {n}") for n in range(count))


def _start_statements(organiser: Any, fmt: str, options: dict[str, Any], count: int, prefix: str) -> int:
    tournament = make_tournament(organiser, [], format=fmt, start=False, best_of=3, **options)
    players = _players(count, prefix)
    Entrant.objects.bulk_create(Entrant(tournament=tournament, player=p, seed=s) for s, p in enumerate(players, 1))
    with database_queries() as queries:
        tournament_start(tournament_id=tournament.pk, user=organiser)
    ready = TournamentMatch.objects.filter(tournament=tournament, status=TournamentMatch.Status.READY)
    assert ready.exists() and not ready.filter(match__isnull=True).exists()
    return len(queries)


@pytest.mark.parametrize(("fmt", "options"), FORMATS)
def test_start_statements_do_not_grow_with_the_field(organiser: Any, fmt: str, options: dict[str, Any]) -> None:
    small = _start_statements(organiser, fmt, options, 16, "s")
    large = _start_statements(organiser, fmt, options, 48, "l")
    assert small == large


def _as_made(match: Match) -> dict[str, Any]:
    return model_to_dict(match, exclude=("id", "created_at", "player_one", "player_two"))


@pytest.mark.parametrize(("fmt", "options"), FORMATS)
def test_each_ready_pairing_has_the_match_match_create_would_make(
    organiser: Any, fmt: str, options: dict[str, Any]
) -> None:
    players = _players(12, "m")
    tournament = make_tournament(
        organiser, players, format=fmt, best_of=None, first_to=2, ruleset="spit", confirm_within=120, **options
    )
    pairings = list(
        TournamentMatch.objects.filter(tournament=tournament)
        .select_related("match", "player_one", "player_two")
        .order_by("id")
    )
    ready = [p for p in pairings if p.status == TournamentMatch.Status.READY]
    assert ready
    assert all(p.match is None for p in pairings if p.status != TournamentMatch.Status.READY)
    # Made in the order of the pairings, as one match_create after another made them.
    made = [p.match for p in ready]
    assert [p.match_id for p in ready] == sorted(p.match_id for p in ready if p.match_id is not None)
    reference = match_create(
        players=[ready[0].player_one.handle, ready[0].player_two.handle],
        ruleset=tournament.ruleset,
        first_to=2,
        confirmation=tournament.confirmation,
        confirm_within=tournament.confirm_within,
    )
    for pairing, match in zip(ready, made, strict=True):
        assert match is not None
        assert (match.player_one_id, match.player_two_id) == (pairing.player_one_id, pairing.player_two_id)
        assert _as_made(match) == _as_made(reference)
        assert list(match.games.values_list("number", "status")) == [(1, Game.Status.OPEN)]
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING


@pytest.mark.parametrize(("fmt", "options"), FORMATS)
def test_start_reads_the_entrants_once_and_no_pairing_back(organiser: Any, fmt: str, options: dict[str, Any]) -> None:
    """The advance after `open` is handed the rows it created: with 4,096 entrants the read-back was a fifth
    of the start. Starting and then advancing again changes nothing, so the hand-over lost nothing."""
    tournament = make_tournament(organiser, [], format=fmt, start=False, best_of=3, **options)
    players = _players(16, "r")
    Entrant.objects.bulk_create(Entrant(tournament=tournament, player=p, seed=s) for s, p in enumerate(players, 1))
    with database_queries() as queries:
        tournament_start(tournament_id=tournament.pk, user=organiser)
    reads = [  # rows read (the entry's count aside)
        sql for sql in queries if sql.startswith("SELECT") and "COUNT(" not in sql
    ]
    entrant_table, pairing_table = Entrant._meta.db_table, TournamentMatch._meta.db_table
    assert sum(f'FROM "{entrant_table}"' in sql for sql in reads) == 1
    assert not [sql for sql in reads if f'FROM "{pairing_table}"' in sql]

    rows = _pairing_rows(tournament)
    with transaction.atomic():
        pairings_advance(Tournament.objects.select_for_update().get(pk=tournament.pk))
    assert _pairing_rows(tournament) == rows


def _pairing_rows(tournament: Tournament) -> list[dict[str, Any]]:
    return list(TournamentMatch.objects.filter(tournament=tournament).order_by("id").values())
