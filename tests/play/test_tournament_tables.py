"""Tournaments played at the tables: a called match's table opens by itself, both players told, the next
game's when a game ends, and an event with `advance_automatically` runs from registration to its final
standings with nobody acting but the players (and a no-show forfeited by the referee's clock).

The players are the bots' one brain driven through the referee's services (`tournament_players`); the
deck of every table is drawn from a seeded generator, so each run deals and plays the same games.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from matches.models import Game, Match, OutboxEmail
from matches.services.notifications import Kind
from play.messages import Intent
from play.models import Table
from play.services import table_intent
from play.services import tables as table_services
from speedrules import PRESETS
from tests.factories import make_players, make_tournament, make_user
from tournaments.models import Entrant, Tournament, TournamentMatch
from tournaments.services import tournament_start, tournaments_start_due
from tournaments.services.registration import registration_create, tournament_registration_set
from tournaments.services.running import match_score_enter, pairing_call
from tournaments.services.schedule import tournament_starts_at_set

from .tournament_players import TablePlayers

pytestmark = pytest.mark.django_db

#: Short clocks: a quick countdown and stall, and heartbeats that never lapse while time is driven ahead.
SHORT = {"collision_ms": 250, "stall_ms": 100, "abandon_ms": 60_000, "claim_ms": 30_000, "countdown_ms": 100}


@pytest.fixture(autouse=True)
def _short_clocks_and_seeded_decks(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.SPEED_TABLE_SETTINGS = SHORT
    settings.SPEED_TABLE_HEARTBEAT_MS = 3_600_000
    dealer = random.Random(2026)
    # The deal's only source of chance (and a reshuffle's), seeded: every run plays the same games.
    monkeypatch.setattr(table_services.secrets, "SystemRandom", lambda: dealer)


def _table_emails(user_id: int) -> list[str]:
    return list(
        OutboxEmail.objects.filter(user_id=user_id, kind=Kind.MATCH_CALLED, subject__contains="your table is open")
        .order_by("pk")
        .values_list("subject", flat=True)
    )


def test_a_called_matchs_table_opens_by_itself_and_both_players_are_told(capture: Any) -> None:
    organiser = make_user("orga", organiser=True)
    people = make_players(2, prefix="c")
    tournament = make_tournament(organiser, people, format="single_elimination", played_at_tables=True)
    (final,) = TournamentMatch.objects.filter(tournament=tournament)
    game = Game.objects.get(match_id=final.match_id, number=1)
    assert not Table.objects.filter(game=game).exists()  # not called yet: nobody is expected at a table
    with capture(execute=True):
        pairing_call(tournament_id=tournament.pk, key=final.key, user=organiser, station="Table 1")
    table = Table.objects.get(game=game)
    assert table.status == Table.Status.WAITING and table.players == [person.handle for person in people]
    for person in people:
        (subject,) = _table_emails(person.user_id)
        assert subject == f"Speed: your table is open: game 1 of c01 v c02 in {tournament.name}"
    # Called again (the organiser steps in): the same table, told again.
    with capture(execute=True):
        pairing_call(tournament_id=tournament.pk, key=final.key, user=organiser)
    assert Table.objects.filter(game=game).count() == 1


def test_a_call_opens_no_table_when_the_tournament_is_not_played_at_the_tables(capture: Any) -> None:
    organiser = make_user("orga", organiser=True)
    tournament = make_tournament(organiser, make_players(2, prefix="c"), format="single_elimination")
    (final,) = TournamentMatch.objects.filter(tournament=tournament)
    with capture(execute=True):
        pairing_call(tournament_id=tournament.pk, key=final.key, user=organiser)
    assert not Table.objects.exists()
    assert OutboxEmail.objects.filter(kind=Kind.MATCH_CALLED, subject__contains="is called").count() == 2


def test_the_next_games_table_opens_when_a_game_ends(capture: Any) -> None:
    organiser = make_user("orga", organiser=True)
    people = make_players(2, prefix="n")
    with capture(execute=True):
        tournament = make_tournament(
            organiser,
            people,
            format="single_elimination",
            best_of=3,
            confirmation="none",
            played_at_tables=True,
            advance_automatically=True,
        )
    (final,) = TournamentMatch.objects.filter(tournament=tournament)
    first = Table.objects.get(game__match_id=final.match_id)  # called as it was paired: its table is open
    assert first.game is not None and first.game.number == 1
    players = TablePlayers(capture)
    while Table.objects.get(pk=first.pk).status != Table.Status.PLAYING:
        players.act(first.pk)
    with capture(execute=True):
        table_intent(table_id=first.pk, seat=1, intent=Intent("resign", None))  # n02 gives game 1 up
    game_one = Game.objects.get(pk=first.game_id)
    assert game_one.decided_by == Game.DecidedBy.FORFEIT and game_one.winner_id == people[0].pk
    second = Table.objects.get(game__match_id=final.match_id, game__number=2)
    assert second.status == Table.Status.WAITING
    for person in people:
        assert [subject.split(":")[2].split(" of ")[0] for subject in _table_emails(person.user_id)] == [
            " game 1",
            " game 2",
        ]
    players.play_until_quiet()  # the rest played out at the tables, each game opening the next one's
    match = Match.objects.get(pk=final.match_id)
    assert match.status == Match.Status.FINISHED
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert [game.decided_by for game in games[1:]] == [Game.DecidedBy.TABLE] * (len(games) - 1)
    assert Table.objects.filter(game__match=match, status=Table.Status.OVER).count() == len(games)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


NO_SHOWS = ("s05", "s12")


def _stays_away(no_shows: tuple[str, ...]) -> Any:
    """No-shows never sit down; when two are drawn together, the first named comes (else nobody would)."""

    def absent(table: Table, handle: str) -> bool:
        if handle not in no_shows:
            return False
        drawn = [named for named in no_shows if named in table.players]
        return not (len(drawn) == len(table.players) and handle == drawn[0])

    return absent


def _run_at_the_tables(capture: Any, format: str, count: int, no_shows: tuple[str, ...]) -> Tournament:
    """An event played at the tables from registration to its end: the organiser sets it up with a start
    time, the players register, it starts itself at that time; then only the players act."""
    organiser = make_user("orga", organiser=True)
    players = make_players(count, prefix="s")
    with capture(execute=True):
        tournament = make_tournament(
            organiser,
            [],
            format=format,
            start=False,
            confirmation="none",
            auto_approve=True,
            played_at_tables=True,
            advance_automatically=True,
            table_settings={"no_show_seconds": 30},
        )
        tournament_registration_set(tournament_id=tournament.pk, user=organiser, open=True)
        starts_at = timezone.now() + timedelta(hours=1)
        tournament_starts_at_set(tournament_id=tournament.pk, user=organiser, starts_at=starts_at)
        for player in players:
            registration_create(tournament_id=tournament.pk, user=player.user)
        assert tournaments_start_due(now=starts_at - timedelta(seconds=1)) == []  # not yet
        # The beat's sweep starts it at its time: from here on only the players act.
        assert tournaments_start_due(now=starts_at) == [tournament.pk]
        assert tournaments_start_due(now=starts_at) == []  # started once
    TablePlayers(capture, absent=_stays_away(no_shows)).play_until_quiet()
    return Tournament.objects.get(pk=tournament.pk)


def _check_every_game_decided_at_its_table(tournament: Tournament) -> Counter[str]:
    """Every game of the event was decided by its table's log or a forfeit at its table; the no-shows' count."""
    games = list(Game.objects.filter(match__tournament_match__tournament=tournament).select_related("winner"))
    assert games
    no_shows: Counter[str] = Counter()
    for game in games:
        (table,) = Table.objects.filter(game=game)
        assert table.status == Table.Status.OVER and table.log_id is not None
        assert game.status == Game.Status.DECIDED
        if table.result.get("by") == "no_show":
            assert game.decided_by == Game.DecidedBy.FORFEIT
            (absent,) = table.out
            no_shows[table.players[absent]] += 1
            assert game.winner is not None and game.winner.handle != table.players[absent]
        elif table.result.get("by"):
            raise AssertionError(f"game {game.pk} ended by {table.result['by']}: nobody resigned or claimed")
        else:
            assert game.decided_by == Game.DecidedBy.TABLE
    assert not Table.objects.exclude(status=Table.Status.OVER).exists()  # none aborted, none abandoned
    return no_shows


def test_a_sixteen_player_swiss_at_the_tables_runs_itself_to_its_final_standings(capture: Any) -> None:
    tournament = _run_at_the_tables(capture, "swiss", 16, NO_SHOWS)
    assert tournament.status == Tournament.Status.FINISHED
    pairings = list(TournamentMatch.objects.filter(tournament=tournament).select_related("match"))
    assert len(pairings) == 4 * 8 and {pairing.round for pairing in pairings} == {1, 2, 3, 4}
    assert all(
        pairing.status == TournamentMatch.Status.DECIDED and pairing.result_source == TournamentMatch.Source.MATCH
        for pairing in pairings
    )
    no_shows = _check_every_game_decided_at_its_table(tournament)
    met = sum(1 for pairing in pairings if {p.handle for p in pairing.seats} == set(NO_SHOWS))
    for handle in NO_SHOWS:
        # Every match a no-show was drawn in was forfeited, but the one the two no-shows played each other.
        drawn = sum(1 for pairing in pairings if handle in {p.handle for p in pairing.seats})
        assert no_shows[handle] == drawn - met if handle == NO_SHOWS[0] else drawn
    # The final standings: every entrant placed, by match wins first (Swiss's first tie-break).
    wins = Counter(pairing.winner.handle for pairing in pairings if pairing.winner is not None)
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("player").order_by("place", "seed"))
    assert all(entrant.place is not None for entrant in entrants)
    by_place = [wins[entrant.player.handle] for entrant in entrants]
    assert by_place == sorted(by_place, reverse=True)
    assert wins[NO_SHOWS[1]] == 0
    # Each player was told of each of their tables.
    for entrant in entrants:
        tables = Table.objects.filter(seat_users__contains=[entrant.player.user_id]).count()
        assert len(_table_emails(entrant.player.user_id)) == tables >= 4


@pytest.mark.parametrize(("format", "count", "rounds"), [("round_robin", 4, 3), ("single_elimination", 4, 2)])
def test_round_robin_and_elimination_at_the_tables_run_themselves(
    capture: Any, format: str, count: int, rounds: int
) -> None:
    tournament = _run_at_the_tables(capture, format, count, ("s04",))
    assert tournament.status == Tournament.Status.FINISHED
    pairings = list(TournamentMatch.objects.filter(tournament=tournament).exclude(status=TournamentMatch.Status.VOID))
    assert {pairing.round for pairing in pairings} == set(range(1, rounds + 1))
    assert all(pairing.status == TournamentMatch.Status.DECIDED for pairing in pairings)
    no_shows = _check_every_game_decided_at_its_table(tournament)
    assert set(no_shows) == {"s04"}
    assert all(entrant.place is not None for entrant in Entrant.objects.filter(tournament=tournament))


def test_an_organiser_still_steps_in_and_the_next_round_opens_at_its_tables(capture: Any) -> None:
    organiser = make_user("orga", organiser=True)
    people = make_players(4, prefix="e")
    with capture(execute=True):
        tournament = make_tournament(
            organiser,
            people,
            format="single_elimination",
            confirmation="none",
            played_at_tables=True,
            advance_automatically=True,
        )
    semis = list(TournamentMatch.objects.filter(tournament=tournament, round=1).order_by("position"))
    assert Table.objects.filter(game__match_id__in=[semi.match_id for semi in semis]).count() == 2
    for semi in semis:  # the organiser enters both scores at the desk; nobody sat down
        assert semi.match_id is not None
        with capture(execute=True):
            match_score_enter(match_id=semi.match_id, user=organiser, games_one=1, games_two=0)
    final = TournamentMatch.objects.get(tournament=tournament, round=2)
    assert final.underway_at is not None
    table = Table.objects.get(game__match_id=final.match_id)
    assert set(table.players) == {semi.player_one.handle for semi in semis if semi.player_one is not None}
    TablePlayers(capture).play_until_quiet()
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    decided_by = dict(
        Game.objects.filter(match__tournament_match__tournament=tournament).values_list("match_id", "decided_by")
    )
    assert [decided_by[semi.match_id] for semi in semis] == [Game.DecidedBy.ORGANISER] * 2
    assert decided_by[final.match_id] == Game.DecidedBy.TABLE


def test_a_spit_tournament_at_the_tables_opens_spit_tables(capture: Any) -> None:
    organiser = make_user("orga", organiser=True)
    people = make_players(2, prefix="u")
    tournament = make_tournament(
        organiser, people, format="single_elimination", start=False, played_at_tables=True, advance_automatically=True
    )
    Tournament.objects.filter(pk=tournament.pk).update(ruleset=PRESETS["spit"].to_json(), ruleset_name="spit")
    with capture(execute=True):
        tournament_start(tournament_id=tournament.pk, user=organiser)
    (table,) = Table.objects.all()
    assert table.ruleset == PRESETS["spit"].to_json() and table.status == Table.Status.WAITING
    subjects = OutboxEmail.objects.filter(kind=Kind.MATCH_CALLED).values_list("subject", flat=True)
    assert all(subject.startswith("Speed: your table is open") for subject in subjects) and len(subjects) == 2


def test_a_called_game_no_table_can_open_is_still_called_and_its_players_told(capture: Any) -> None:
    from django.db import transaction

    from play.services.called import table_open_for_playable_game

    organiser = make_user("orga", organiser=True)
    people = make_players(2, prefix="u")
    tournament = make_tournament(
        organiser, people, format="single_elimination", start=False, played_at_tables=True, advance_automatically=True
    )
    with capture(execute=True):
        tournament_start(tournament_id=tournament.pk, user=organiser)
    (final,) = TournamentMatch.objects.filter(tournament=tournament)
    game = Game.objects.get(match=final.match, number=1)
    # Decided behind the service's back, its table gone: the call must still stand and tell both players.
    Table.objects.all().delete()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.DECIDED)
    OutboxEmail.objects.all().delete()
    with capture(execute=True), transaction.atomic():
        table_open_for_playable_game(game_id=game.pk)
    assert not Table.objects.exists()
    subjects = OutboxEmail.objects.filter(kind=Kind.MATCH_CALLED).values_list("subject", flat=True)
    assert list(subjects) == [f"Speed: your match in {tournament.name} is called"] * 2
