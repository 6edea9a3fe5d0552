"""Correcting results at tables of three and four, and timed two-player results, against PostgreSQL.

A table is corrected by the places of its games; the series, the pairing's
places and points, the standings, the ratings and the final table follow,
and `manage.py audit_records` (which recomputes all of them) finds nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import ApplicationError, Conflict
from matches.models import Game, Match, Player, ResultChange
from matches.services import game_set_result
from tests.factories import make_players, make_tournament, play, play_table, ready
from tests.web.test_audit import audit
from tournaments.models import CorrectionRecord, PlayerRating, Tournament, TournamentMatch
from tournaments.selectors import tournament_standings
from tournaments.services import pairing_correct

pytestmark = pytest.mark.django_db


def pairing(tournament: Tournament, key: str) -> TournamentMatch:
    return TournamentMatch.objects.get(tournament=tournament, key=key)


def points(tournament: Tournament) -> dict[str, int]:
    return {row.player.handle: row.values["table_points"] for row in tournament_standings(tournament=tournament).rows}


def ranking(tournament: Tournament) -> list[str]:
    return [row.player.handle for row in tournament_standings(tournament=tournament).rows]


@pytest.fixture
def six(organiser: Any) -> tuple[Tournament, dict[str, Player]]:
    """Six players at two tables of three (snake: p01 p04 p05, p02 p03 p06), one round, then a final of three."""
    players = make_players(6)
    tournament = make_tournament(organiser, players, format="tables", table_rounds=1, final_table_size=3)
    by_handle = {player.handle: player for player in players}
    one, two = ready(tournament)
    play_table(organiser, one, [by_handle[h] for h in ("p01", "p04", "p05")])
    play_table(organiser, two, [by_handle[h] for h in ("p02", "p03", "p06")])
    return tournament, by_handle


def test_a_corrected_table_re_derives_its_series_standings_and_ratings(organiser):
    players = make_players(6)
    tournament = make_tournament(organiser, players, format="tables", table_rounds=2, final_table_size=3, best_of=3)
    by_handle = {player.handle: player for player in players}
    one, two = ready(tournament)
    play_table(organiser, one, [by_handle[h] for h in ("p01", "p04", "p05")])  # three games: 6, 3, 0 points
    play_table(organiser, two, [by_handle[h] for h in ("p02", "p03", "p06")])
    second_round = [(p.key, p.seat_ids) for p in ready(tournament)]
    assert [key for key, _ in second_round] == ["T2-1", "T2-2"]
    assert points(tournament)["p01"] == 6 and points(tournament)["p05"] == 0
    rating_before = PlayerRating.objects.get(player=by_handle["p05"]).rating
    assert audit()[0] == 0

    # Games 1 and 2 of T1-1 really ended p05, p01, p04: 4 points each to p05 and p01, p05 with more firsts.
    corrected = {"p05": 1, "p01": 2, "p04": 3}
    preview = pairing_correct(
        tournament_id=tournament.pk,
        key="T1-1",
        games=[{"game": 1, "places": corrected}, {"game": 2, "places": corrected}],
        user=organiser,
        reason="the scorer swapped the sheets",
        dry_run=True,
    )
    assert (preview.old_winner, preview.new_winner, preview.applied) == ("p01", "p05", False)
    recorded = {"p01": 1, "p04": 2, "p05": 3}
    assert preview.games == [
        {"game": number, "before": recorded, "after": corrected, "before_status": "decided", "after_status": "decided"}
        for number in (1, 2)
    ]
    assert preview.standing["after"]["p05"] == {"points": 4, "firsts": 2}
    assert preview.changes == [], "the second round, already seated, stays as it was (as Swiss rounds do)"
    assert Match.objects.get(pk=one.match_id).winner == by_handle["p01"], "a dry run changes nothing"

    done = pairing_correct(
        tournament_id=tournament.pk,
        key="T1-1",
        games=[{"game": 1, "places": corrected}, {"game": 2, "places": corrected}],
        user=organiser,
        reason="the scorer swapped the sheets",
    )
    assert done.applied
    match = Match.objects.get(pk=one.match_id)
    assert match.winner == by_handle["p05"] and match.status == Match.Status.FINISHED
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert [(g.places, g.winner_id, g.decided_by) for g in games] == [
        ([2, 3, 1], by_handle["p05"].pk, "correction"),
        ([2, 3, 1], by_handle["p05"].pk, "correction"),
        ([1, 2, 3], by_handle["p01"].pk, "organiser"),
    ]
    record = CorrectionRecord.objects.get(tournament=tournament)
    changes = ResultChange.objects.filter(match=match, kind=ResultChange.Kind.CORRECTION)
    assert changes.count() == 2 and {c.source["correction"] for c in changes} == {record.pk}
    assert changes.first().after["places"] == corrected  # type: ignore[union-attr]
    assert record.before["games"]["1"] == {"places": recorded, "status": "decided"}
    assert record.after["games"]["2"] == {"places": corrected, "status": "decided"}

    row = pairing(tournament, "T1-1")
    assert (row.winner_id, row.result_source) == (by_handle["p05"].pk, "correction")
    assert (row.places, row.points) == ([2, 3, 1], [4, 1, 4])
    assert points(tournament)["p05"] == 4 and points(tournament)["p01"] == 4
    assert [(p.key, p.seat_ids) for p in ready(tournament)] == second_round
    assert PlayerRating.objects.get(player=by_handle["p05"]).rating > rating_before
    status, out = audit()
    assert status == 0, out


def test_a_correction_that_changes_the_finalists_resets_a_played_final(organiser, six):
    tournament, players = six
    final = pairing(tournament, "F")
    assert final.seat_ids == tuple(players[h].pk for h in ("p01", "p02", "p03"))
    play_table(organiser, final, [players[h] for h in ("p03", "p01", "p02")])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    old_final = final.match_id

    # T1-2 really went p06, p03, p02: p02 no longer reaches the final, p06 does.
    games = [{"game": 1, "places": {"p06": 1, "p03": 2, "p02": 3}}]
    preview = pairing_correct(tournament_id=tournament.pk, key="T1-2", games=games, user=organiser, dry_run=True)
    assert [(c.key, c.action) for c in preview.changes] == [("F", "reset")]
    assert preview.changes[0].before["players"] == ["p01", "p02", "p03"]
    assert preview.changes[0].after == {"players": ["p01", "p06", "p03"], "status": "ready", "winner": None}
    with pytest.raises(Conflict, match="confirm"):
        pairing_correct(tournament_id=tournament.pk, key="T1-2", games=games, user=organiser)

    pairing_correct(tournament_id=tournament.pk, key="T1-2", games=games, user=organiser, confirm=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    final = pairing(tournament, "F")
    assert final.status == TournamentMatch.Status.READY and final.match_id != old_final
    assert final.seat_ids == tuple(players[h].pk for h in ("p01", "p06", "p03"))
    assert Match.objects.get(pk=old_final).status == Match.Status.ANNULLED
    assert audit()[0] == 0

    play_table(organiser, final, [players[h] for h in ("p06", "p01", "p03")])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert ranking(tournament)[:3] == ["p06", "p01", "p03"]
    status, out = audit()
    assert status == 0, out


def test_a_final_not_yet_started_is_seated_again_at_once(organiser, six):
    tournament, players = six
    old_final = pairing(tournament, "F").match_id
    games = [{"game": 1, "places": {"p06": 1, "p03": 2, "p02": 3}}]
    done = pairing_correct(tournament_id=tournament.pk, key="T1-2", games=games, user=organiser)
    assert [(c.key, c.action) for c in done.changes] == [("F", "refill")]
    final = pairing(tournament, "F")
    assert final.seat_ids == tuple(players[h].pk for h in ("p01", "p06", "p03"))
    assert not Match.objects.filter(pk=old_final).exists(), "a final never played is dropped"
    assert audit()[0] == 0


def test_places_that_keep_the_finalists_leave_the_final_alone(organiser, six):
    tournament, _players = six
    final = pairing(tournament, "F").match_id
    done = pairing_correct(
        tournament_id=tournament.pk,
        key="T1-1",
        games=[{"game": 1, "places": {"p01": 1, "p05": 2, "p04": 3}}],
        user=organiser,
    )
    # p05 now level with p03 on one point, behind on seed: the finalists stay p01, p02, p03.
    assert done.applied and done.changes == [] and done.new_winner == "p01"
    assert pairing(tournament, "F").match_id == final
    assert pairing(tournament, "T1-1").points == [2, 0, 1]
    assert audit()[0] == 0


def test_the_same_places_change_nothing(organiser, six):
    tournament, _players = six
    same = pairing_correct(
        tournament_id=tournament.pk,
        key="T1-1",
        games=[{"game": 1, "places": {"p01": 1, "p04": 2, "p05": 3}}],
        user=organiser,
    )
    assert not same.applied and same.games == []
    assert not CorrectionRecord.objects.exists()


def test_table_corrections_refuse_what_cannot_be(organiser, six):
    tournament, _players = six

    def correct(**given: Any) -> None:
        pairing_correct(tournament_id=tournament.pk, key="T1-1", user=organiser, dry_run=True, **given)

    with pytest.raises(ApplicationError, match=r"is a table .* give the corrected places"):
        correct(winner="p04")
    with pytest.raises(ApplicationError, match="at least one game"):
        correct(games=[])
    with pytest.raises(ApplicationError, match=r"series is over after game 1 \(2.1.0 points\), but game 2 counts"):
        correct(games=[{"game": 2, "places": {"p01": 1, "p04": 2, "p05": 3}}])
    with pytest.raises(ApplicationError, match="Game 3 cannot be added without game 2"):
        correct(games=[{"game": 3, "places": {"p01": 1, "p04": 2, "p05": 3}}])
    with pytest.raises(ApplicationError, match=r"Game 2 .* never played .* nothing to void"):
        correct(games=[{"game": 2, "void": True}])
    with pytest.raises(ApplicationError, match="give its places or say it was void, not both"):
        correct(games=[{"game": 1, "void": True, "places": {"p01": 1, "p04": 2, "p05": 3}}])
    with pytest.raises(ApplicationError, match="missing: p05"):
        correct(games=[{"game": 1, "places": {"p01": 1, "p04": 2}}])
    with pytest.raises(ApplicationError, match="not a finishing order"):
        correct(games=[{"game": 1, "places": {"p01": 1, "p04": 3, "p05": 3}}])
    with pytest.raises(ApplicationError, match="no one wins the series"):
        correct(games=[{"game": 1, "places": {"p01": 1, "p04": 1, "p05": 3}}])
    with pytest.raises(ApplicationError, match="given twice"):
        correct(games=[{"game": 1, "places": {"p01": 1, "p04": 2, "p05": 3}}] * 2)
    with pytest.raises(ApplicationError, match=r"no one wins the series \(0.0.0 points\): it is not over"):
        correct(games=[{"game": 1, "void": True}])  # the only game of a best of 1 did not count


def test_a_pair_in_a_tables_round_is_corrected_by_its_winner_and_scores_its_points(organiser):
    players = make_players(5)
    tournament = make_tournament(organiser, players, format="tables", table_rounds=1, final_table_size=3)
    three, pair = ready(tournament)
    play_table(organiser, three, [players[0], players[3], players[4]])
    play(organiser, pair, players[1])
    assert pairing(tournament, pair.key).points == [2, 0]
    with pytest.raises(ApplicationError, match=r"two players: give each game.s winner"):
        pairing_correct(tournament_id=tournament.pk, key=pair.key, games=[{"game": 1, "places": {}}], user=organiser)
    pairing_correct(tournament_id=tournament.pk, key=pair.key, winner=players[2].handle, user=organiser)
    row = pairing(tournament, pair.key)
    assert (row.places, row.points) == ([2, 1], [0, 2])
    status, out = audit()
    assert status == 0, out


def test_a_timed_two_player_correction_turns_each_games_places_round(organiser):
    a, b = make_players(2)
    tournament = make_tournament(organiser, [a, b], format="round_robin", best_of=3, time_limit_ms=60_000)
    (only,) = ready(tournament)
    match = Match.objects.get(pk=only.match_id)
    for winner in (a, b, a):
        game_set_result(game_id=match.games.get(status=Game.Status.OPEN).pk, user=organiser, winner=winner.handle)
    match.refresh_from_db()
    assert match.winner == a
    assert list(match.games.order_by("number").values_list("places", flat=True)) == [[1, 2], [2, 1], [1, 2]]
    pairing_correct(tournament_id=tournament.pk, key=only.key, winner=b.handle, user=organiser)
    match.refresh_from_db()
    assert match.winner == b
    games = list(match.games.order_by("number").values_list("places", "winner_id"))
    assert games == [([2, 1], b.pk), ([1, 2], a.pk), ([2, 1], b.pk)], "each game's places name its new winner"
    status, out = audit()
    assert status == 0, out


@pytest.fixture
def best_of_three(organiser: Any) -> tuple[Tournament, dict[str, Player], TournamentMatch]:
    """Two rounds of tables of three, best of 3; T1-1 (p01 p04 p05) went p01, p04, p05 in each of its three games."""
    players = make_players(6)
    tournament = make_tournament(organiser, players, format="tables", table_rounds=2, final_table_size=3, best_of=3)
    by_handle = {player.handle: player for player in players}
    one, two = ready(tournament)
    play_table(organiser, one, [by_handle[h] for h in ("p01", "p04", "p05")])
    play_table(organiser, two, [by_handle[h] for h in ("p02", "p03", "p06")])
    return tournament, by_handle, one


#: T1-1 really went: game 2 to p04, game 3 did not count, and a game 4 the table never recorded, to p04 again.
VOID_AND_ADD = [
    {"game": 2, "places": {"p04": 1, "p01": 2, "p05": 3}},
    {"game": 3, "void": True},
    {"game": 4, "places": {"p04": 1, "p01": 2, "p05": 3}},
]


def test_a_table_correction_voids_a_game_and_adds_one_as_two_players_do(organiser, best_of_three):
    tournament, players, one = best_of_three

    def correct(games: list[dict[str, Any]], **given: Any) -> Any:
        return pairing_correct(tournament_id=tournament.pk, key="T1-1", games=games, user=organiser, **given)

    with pytest.raises(ApplicationError, match=r"no one wins the series \(4.2.0 points\): it is not over"):
        correct([{"game": 3, "void": True}], dry_run=True)  # two games, and p04 could still catch up
    preview = correct(VOID_AND_ADD, dry_run=True)
    assert (preview.old_winner, preview.new_winner) == ("p01", "p04")
    assert [(g["game"], g["before_status"], g["after_status"]) for g in preview.games] == [
        (2, "decided", "decided"),
        (3, "decided", "void"),
        (4, "not_played", "decided"),
    ]
    assert preview.games[1]["after"] is None and preview.games[2]["before"] is None
    assert preview.standing["after"]["p04"] == {"points": 5, "firsts": 2}
    assert Game.objects.filter(match_id=one.match_id).count() == 3, "a dry run adds nothing"

    done = correct(VOID_AND_ADD, reason="game 3 was a misdeal; game 4 was not written down")
    assert done.applied
    match = Match.objects.get(pk=one.match_id)
    assert match.winner == players["p04"]
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert [(g.status, g.places, g.winner_id, g.decided_by) for g in games] == [
        ("decided", [1, 2, 3], players["p01"].pk, "organiser"),
        ("decided", [2, 1, 3], players["p04"].pk, "correction"),
        ("void", None, None, "correction"),
        ("decided", [2, 1, 3], players["p04"].pk, "correction"),
    ]
    record = CorrectionRecord.objects.get(tournament=tournament)
    assert record.before["games"]["4"] == {"places": None, "status": "not_played"}
    assert record.after["games"]["3"] == {"places": None, "status": "void"}
    added = ResultChange.objects.get(game=games[3], kind=ResultChange.Kind.CORRECTION)
    assert added.source == {"correction": record.pk}
    row = pairing(tournament, "T1-1")
    assert (row.winner_id, row.places, row.points) == (players["p04"].pk, [2, 1, 3], [4, 5, 0])
    status, out = audit()
    assert status == 0, out


def test_the_api_voids_and_adds_a_tables_games(client_for, organiser, best_of_three):
    tournament, _players, _one = best_of_three
    url = f"/api/tournaments/{tournament.pk}/matches/T1-1/correct/"
    previewed = client_for(organiser).post(url, {"games": VOID_AND_ADD, "dry_run": True}, format="json")
    assert previewed.status_code == 200, previewed.json()
    body = previewed.json()
    assert body["new_winner"] == "p04" and not body["applied"]
    assert [(g["game"], g["after_status"]) for g in body["games"]] == [(2, "decided"), (3, "void"), (4, "decided")]
    refused = client_for(organiser).post(url, {"games": [{"game": 3, "void": True, "winner": "p04"}]}, format="json")
    assert refused.status_code == 400
    applied = client_for(organiser).post(url, {"games": VOID_AND_ADD, "reason": "misdeal"}, format="json")
    assert applied.status_code == 200 and applied.json()["applied"], applied.json()
