"""Tournament services against PostgreSQL: creation, entrants, start, advancement per format, ratings."""

from __future__ import annotations

import random
import threading
from collections import Counter

import pytest
from django.db import connection

from core.errors import ApplicationError, Conflict, NotAllowed
from matches.models import Game, Match
from matches.services import game_set_result
from tests.factories import make_player, make_players, make_tournament, make_user, play, ready
from tests.locks import wait_for_a_lock_waiter
from tests.queries import database_queries
from tournaments import services
from tournaments.models import Entrant, PlayerRating, RatingChange, Tournament, TournamentMatch
from tournaments.selectors import tournament_standings
from tournaments.services import advancement, entrant_add, entrant_remove, tournament_create, tournament_start

pytestmark = pytest.mark.django_db


def play_to_the_end(organiser, tournament: Tournament, rng: random.Random, limit: int = 500) -> Tournament:
    for _ in range(limit):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return tournament
        pairings = ready(tournament)
        assert pairings, "a running tournament always has a match to play"
        pairing = rng.choice(pairings)
        play(organiser, pairing, rng.choice([pairing.player_one, pairing.player_two]))
    raise AssertionError("the tournament did not finish")


class TestCreate:
    def test_unknown_tie_break_lists_the_known_ones(self, organiser):
        with pytest.raises(ApplicationError, match="unknown tie-break 'elo'; known: buchholz, card_margin"):
            tournament_create(name="x", format="swiss", best_of=1, tie_breaks=["match_wins", "elo"], user=organiser)

    @pytest.mark.parametrize(
        ("options", "message"),
        [
            ({"format": "knockout", "best_of": 1}, "Unknown format"),
            ({"format": "swiss", "best_of": 2}, "best_of must be odd"),
            ({"format": "swiss"}, "exactly one of best_of"),
            ({"format": "swiss", "first_to": 3, "ruleset": "nope"}, "Unknown ruleset preset"),
            ({"format": "single_elimination", "best_of": 1, "options": {"seeding": "random"}}, "rng_seed"),
            ({"format": "swiss", "best_of": 1, "options": {"third_place": True}}, "Swiss has no option 'third_place'"),
            ({"format": "swiss", "best_of": 1, "options": {"swiss_rounds": 0}}, "from 1 to 32767, not 0"),
            ({"format": "swiss", "best_of": 1, "options": {"swiss_rounds": "3"}}, "a whole number or null"),
            ({"format": "tables", "best_of": 1, "options": {"points_four": [1, 2, 3, 4]}}, "never rising"),
            ({"format": "tables", "best_of": 1, "options": {"ruleset_three": "speed"}}, "but 3 play here"),
        ],
    )
    def test_rejects_bad_settings(self, organiser, options, message):
        with pytest.raises(ApplicationError, match=message):
            tournament_create(name="x", user=organiser, **options)

    @pytest.mark.parametrize(
        ("format", "options", "field"),
        [
            ("swiss", {"rounds": 3}, "options.rounds"),
            ("winner_stays_on", {"table_size": 5}, "options.table_size"),
            ("groups_playoffs", {"advance_per_group": 0}, "options.advance_per_group"),
            ("double_elimination", {"grand_final_reset": "yes"}, "options.grand_final_reset"),
            ("single_elimination", {"seeding": "random"}, "options.rng_seed"),
        ],
    )
    def test_an_option_refused_is_named(self, organiser, format, options, field):
        with pytest.raises(ApplicationError) as error:
            tournament_create(name="x", format=format, best_of=1, user=organiser, options=options)
        assert error.value.extra == {"field": field}

    def test_options_are_stored_with_their_defaults(self, organiser):
        made = tournament_create(
            name="x", format="groups_playoffs", best_of=1, user=organiser, options={"group_count": 3}
        )
        assert made.options == {
            "group_count": 3,
            "advance_per_group": 2,
            "double_round_robin": False,
            "third_place": False,
        }

    def test_only_organisers_run_tournaments(self, alice):
        with pytest.raises(ApplicationError, match="Only organisers") as error:
            tournament_create(name="x", format="swiss", best_of=1, user=alice.user)
        assert isinstance(error.value, NotAllowed)


class TestEntrants:
    def test_seeds_follow_on_and_a_taken_seed_is_refused(self, organiser, alice, ben, carol):
        tournament = tournament_create(name="x", format="round_robin", best_of=1, user=organiser)
        assert entrant_add(tournament_id=tournament.pk, handle="alice", user=organiser).seed == 1
        assert entrant_add(tournament_id=tournament.pk, handle="BEN", seed=5, user=organiser).seed == 5
        assert entrant_add(tournament_id=tournament.pk, handle="carol", user=organiser).seed == 6
        with pytest.raises(ApplicationError, match="already entered"):
            entrant_add(tournament_id=tournament.pk, handle="alice", user=organiser)
        dana = make_player("dana")
        with pytest.raises(ApplicationError, match="Seed 5 is taken by 'ben'"):
            entrant_add(tournament_id=tournament.pk, handle=dana.handle, seed=5, user=organiser)
        entrant_remove(tournament_id=tournament.pk, handle="ben", user=organiser)
        assert list(Entrant.objects.filter(tournament=tournament).values_list("seed", flat=True)) == [1, 6]

    def test_entry_closes_at_the_start(self, organiser):
        players = make_players(3)
        tournament = make_tournament(organiser, players, format="round_robin")
        with pytest.raises(ApplicationError, match="has started") as error:
            entrant_add(tournament_id=tournament.pk, handle=make_player("late").handle, user=organiser)
        assert isinstance(error.value, Conflict)

    def test_start_needs_two_entrants_and_sensible_swiss_rounds(self, organiser):
        lonely = make_tournament(organiser, make_players(1), format="swiss", start=False)
        with pytest.raises(ApplicationError, match="at least 2 entrants"):
            tournament_start(tournament_id=lonely.pk, user=organiser)
        greedy = make_tournament(organiser, make_players(4, "q"), format="swiss", swiss_rounds=4, start=False)
        with pytest.raises(ApplicationError, match="at most 3 Swiss rounds"):
            tournament_start(tournament_id=greedy.pk, user=organiser)


class TestSingleElimination:
    def test_byes_go_through_and_pairings_get_matches_with_the_tournaments_series(self, organiser):
        players = make_players(5)
        tournament = make_tournament(organiser, players, format="single_elimination", best_of=3, ruleset="doubles")
        pairings = {p.key: p for p in TournamentMatch.objects.filter(tournament=tournament)}
        assert pairings["R1-1"].status == TournamentMatch.Status.BYE
        assert pairings["R1-1"].winner == players[0]
        assert pairings["R1-1"].match_id is None
        # Seeds 2 and 3 both had byes: their round-two match is ready at once.
        assert {p.key for p in ready(tournament)} == {"R1-2", "R2-2"}
        match = Match.objects.get(pk=pairings["R2-2"].match_id)
        assert (match.player_one, match.player_two) == (players[1], players[2])
        assert (match.series, match.series_length, match.ruleset_name) == ("best_of", 3, "doubles")
        assert match.games.count() == 1

    def test_a_decided_match_advances_at_once_and_the_final_finishes_the_tournament(self, organiser):
        players = make_players(4)
        tournament = make_tournament(organiser, players, format="single_elimination", third_place=True)
        by_key = {p.key: p for p in ready(tournament)}
        play(organiser, by_key["R1-1"], players[3])  # seed 4 upsets seed 1
        final = TournamentMatch.objects.get(tournament=tournament, key="R2-1")
        assert (final.player_one, final.status, final.match_id) == (players[3], "waiting", None)
        play(organiser, by_key["R1-2"], players[1])
        final.refresh_from_db()
        assert (final.player_one, final.player_two, final.status) == (players[3], players[1], "ready")
        third = TournamentMatch.objects.get(tournament=tournament, key="3P")
        assert (third.player_one, third.player_two) == (players[0], players[2])
        play(organiser, final, players[1])
        play(organiser, third, players[2])
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        places = {e.player.handle: (e.place, e.place_to) for e in Entrant.objects.filter(tournament=tournament)}
        assert places == {"p02": (1, 1), "p04": (2, 2), "p03": (3, 3), "p01": (4, 4)}


class TestDoubleElimination:
    @pytest.mark.parametrize("count", [8, 6])
    def test_plays_out_to_complete_placings(self, organiser, count):
        tournament = make_tournament(organiser, make_players(count), format="double_elimination")
        tournament = play_to_the_end(organiser, tournament, random.Random(count))
        standings = tournament_standings(tournament=tournament)
        assert standings.kind == "placings"
        labels = [row.label for row in standings.rows]
        expected = {8: ["1", "2", "3", "4", "5-6", "5-6", "7-8", "7-8"], 6: ["1", "2", "3", "4", "5-6", "5-6"]}
        assert labels == expected[count]
        played = TournamentMatch.objects.filter(tournament=tournament, status="decided")
        grand_finals = played.filter(bracket="grand_final").count()
        assert grand_finals in (1, 2)
        if count == 8:
            assert played.count() == 7 + 6 + grand_finals
        assert Match.objects.filter(tournament_match__tournament=tournament).count() == played.count()


class TestRoundRobin:
    def test_berger_pairings_and_standings_by_tie_breaks(self, organiser):
        players = make_players(4)
        tournament = make_tournament(
            organiser, players, format="round_robin", tie_breaks=["match_wins", "head_to_head", "game_wins"]
        )
        rounds: dict[int, list[tuple[str, str]]] = {}
        for pairing in TournamentMatch.objects.filter(tournament=tournament).select_related("player_one", "player_two"):
            rounds.setdefault(pairing.round, []).append((pairing.player_one.handle, pairing.player_two.handle))
        assert rounds == {
            1: [("p01", "p04"), ("p02", "p03")],
            2: [("p04", "p03"), ("p01", "p02")],
            3: [("p02", "p04"), ("p03", "p01")],
        }
        # p01 wins everything; p02 beats p03 and p04; p04 beats p03.
        winners = {("p01", "p04"): "p01", ("p02", "p03"): "p02", ("p04", "p03"): "p04", ("p01", "p02"): "p01"}
        winners |= {("p02", "p04"): "p02", ("p03", "p01"): "p01"}
        handles = {player.handle: player for player in players}
        for pairing in ready(tournament):
            play(organiser, pairing, handles[winners[(pairing.player_one.handle, pairing.player_two.handle)]])
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        rows = tournament_standings(tournament=tournament).rows
        assert [(row.rank, row.player.handle, row.values["match_wins"]) for row in rows] == [
            (1, "p01", 3),
            (2, "p02", 2),
            (3, "p04", 1),
            (4, "p03", 0),
        ]


class TestSwiss:
    def test_odd_field_byes_count_as_wins_and_no_rematches(self, organiser):
        players = make_players(7)
        tournament = make_tournament(organiser, players, format="swiss", swiss_rounds=3)
        tournament = play_to_the_end(organiser, tournament, random.Random(3))
        pairings = list(TournamentMatch.objects.filter(tournament=tournament))
        assert sorted({p.round for p in pairings}) == [1, 2, 3]
        byes = [p.player_one_id for p in pairings if p.status == TournamentMatch.Status.BYE]
        assert len(byes) == 3 and len(set(byes)) == 3, "one bye a round, never twice to one player"
        meetings = Counter(frozenset((p.player_one_id, p.player_two_id)) for p in pairings if p.player_two_id)
        assert set(meetings.values()) == {1}
        appearances = Counter(pid for p in pairings for pid in (p.player_one_id, p.player_two_id) if pid)
        assert set(appearances.values()) == {3}
        rows = tournament_standings(tournament=tournament).rows
        wins = {row.player.pk: row.values["match_wins"] for row in rows}
        decided_wins = Counter(p.winner_id for p in pairings)
        assert wins == {player.pk: decided_wins.get(player.pk, 0) for player in players}


class TestWinnerStaysOn:
    def test_the_winner_stays_and_the_event_stops_after_max_matches(self, organiser):
        a, b, c = make_players(3)
        tournament = make_tournament(organiser, [a, b, c], format="winner_stays_on", max_matches=3)
        (first,) = ready(tournament)
        assert (first.player_one, first.player_two) == (a, b)
        play(organiser, first, a)
        (second,) = ready(tournament)
        assert (second.player_one, second.player_two) == (a, c)
        play(organiser, second, c)
        (third,) = ready(tournament)
        assert (third.player_one, third.player_two) == (c, b)
        play(organiser, third, c)
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED
        rows = tournament_standings(tournament=tournament).rows
        assert [(row.label, row.player, row.values["match_wins"]) for row in rows] == [
            ("1", c, 2),
            ("2", a, 1),
            ("3", b, 0),
        ]


class TestRatings:
    def test_every_decided_match_rates_both_players_once_with_history(self, organiser, alice, ben):
        tournament = make_tournament(organiser, [alice, ben], format="single_elimination", best_of=3)
        (final,) = ready(tournament)
        play(organiser, final, alice)
        alice_rating, ben_rating = (PlayerRating.objects.get(player=player) for player in (alice, ben))
        assert alice_rating.rating > 1500 > ben_rating.rating
        assert alice_rating.deviation < 350 and alice_rating.games == 2
        change = RatingChange.objects.get(player=alice)
        assert (change.rating_before, change.rating_after, change.games) == (1500, alice_rating.rating, 2)
        services.ratings_record_match(match_id=final.match_id)
        assert RatingChange.objects.count() == 2, "recording a match again changes nothing"


def test_standings_load_in_a_constant_number_of_queries(organiser):
    counts = []
    for size, prefix in ((4, "s"), (12, "l")):
        tournament = make_tournament(organiser, make_players(size, prefix), format="swiss", swiss_rounds=2)
        play_to_the_end(organiser, tournament, random.Random(size))
        fresh = Tournament.objects.get(pk=tournament.pk)
        with database_queries() as queries:
            tournament_standings(tournament=fresh)
        counts.append(len(queries))
    assert counts[0] == counts[1] == 2


@pytest.mark.django_db(transaction=True)
class TestConcurrency:
    """Results arriving together are applied one after the other: nothing advances twice or gets lost."""

    def _in_threads(self, *actions):
        errors: list[BaseException] = []
        barrier = threading.Barrier(len(actions))

        def run(action):
            try:
                barrier.wait()
                action()
            except BaseException as exc:  # collected for the assertion in the main thread
                errors.append(exc)
            finally:
                connection.close()

        threads = [threading.Thread(target=run, args=(action,)) for action in actions]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        return errors

    @pytest.fixture
    def slow_advance(self, monkeypatch):
        # Make the race certain: the first advancement holds the tournament lock
        # until the other request is blocked on a lock behind it.
        real = advancement.pairings_advance
        first = threading.Lock()

        def held(tournament):
            if first.acquire(blocking=False):
                wait_for_a_lock_waiter()
            real(tournament)

        monkeypatch.setattr(advancement, "pairings_advance", held)

    def test_both_semi_finals_decided_at_once_fill_the_final(self, slow_advance):
        organiser = make_user("orga-threads", organiser=True)
        players = make_players(4, "c")
        tournament = make_tournament(organiser, players, format="single_elimination")
        semis = {p.key: p for p in ready(tournament)}
        game_ids = {key: Game.objects.get(match_id=p.match_id).pk for key, p in semis.items()}
        errors = self._in_threads(
            lambda: game_set_result(game_id=game_ids["R1-1"], user=organiser, winner="c01"),
            lambda: game_set_result(game_id=game_ids["R1-2"], user=organiser, winner="c02"),
        )
        assert errors == []
        final = TournamentMatch.objects.get(tournament=tournament, key="R2-1")
        assert (final.player_one_id, final.player_two_id, final.status) == (players[0].pk, players[1].pk, "ready")
        assert Match.objects.filter(tournament_match__tournament=tournament).count() == 3

    def test_one_match_decided_twice_at_once_advances_once(self, slow_advance):
        organiser = make_user("orga-twice", organiser=True)
        players = make_players(4, "d")
        tournament = make_tournament(organiser, players, format="single_elimination")
        semi = next(p for p in ready(tournament) if p.key == "R1-1")
        game_id = Game.objects.get(match_id=semi.match_id).pk
        # Each request loads its own copy of the game, as two API calls would.
        errors = self._in_threads(
            lambda: game_set_result(game_id=game_id, user=organiser, winner="d01"),
            lambda: game_set_result(game_id=game_id, user=organiser, winner="d04"),
        )
        # Refusing the second result is the matches app's business; whatever it
        # does, the tournament takes the match's one result, once.
        assert len(errors) <= 1
        semi.refresh_from_db()
        match = Match.objects.get(pk=semi.match_id)
        assert match.winner_id in (players[0].pk, players[3].pk)
        assert semi.winner_id == match.winner_id
        final = TournamentMatch.objects.get(tournament=tournament, key="R2-1")
        assert final.player_one_id == match.winner_id
        assert final.match_id is None, "the final waits for the other semi-final"
        assert RatingChange.objects.filter(match_id=semi.match_id).count() == 2
