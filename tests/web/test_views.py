"""The pages through Django's test client: what they contain, who may use them, and how many queries they cost."""

from __future__ import annotations

import html
from typing import Any

import orjson
import pytest
from django.test import Client

from replays.models import MatchLog
from tests.factories import PASSWORD, load, make_match, make_tournament, match_for, player, submit
from tournaments.services import entrant_add

# Transactional: a log is verified when its submission commits (eager Celery, on_commit), as in production.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def many_matches(organiser: Any) -> list[Any]:
    """Enough matches and logs that a per-row query would show in the counts."""
    logs = [submit(load("valid-speed-1001.json"), user=organiser)]
    logs.append(submit(load("invalid-no_fit-1012.json"), user=organiser))
    logs.append(submit(load("valid-jokers-wild-1005.json"), user=organiser))
    for name in ("ann", "bob", "cid", "dee"):
        make_match(player(name), player("tomas"))
    return logs


def test_home_lists_replays_and_matches_in_a_fixed_number_of_queries(
    client: Client, many_matches: list[Any], django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(12):  # fixed: matches, logs, and the featured-tournament lookups
        response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert f'href="/replays/{many_matches[0].pk}/"' in body
    assert "tomas v quinn, game 1" in body
    assert f'href="/replays/{many_matches[1].pk}/"' not in body  # rejected logs are not "latest verified replays"


def test_player_pages_in_a_fixed_number_of_queries(
    client: Client, many_matches: list[Any], django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(6):
        response = client.get("/players/")
    assert response.status_code == 200
    assert b'href="/players/tomas/"' in response.content
    with django_assert_max_num_queries(10):
        response = client.get("/players/tomas/")
    assert response.status_code == 200
    assert response.context["record"].games_won == 1
    assert len(response.context["matches"]) == 5
    assert client.get("/players/nobody/").status_code == 404


def test_match_page_in_a_fixed_number_of_queries(
    client: Client, many_matches: list[Any], django_assert_max_num_queries: Any, organiser: Any
) -> None:
    rejected = many_matches[1]
    with django_assert_max_num_queries(8):
        response = client.get(f"/matches/{rejected.game.match_id}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "no_fit at event 16" in body
    assert f'href="/replays/{rejected.pk}/#step=16"' in body
    # The game is still open, but only those who may submit see the button.
    assert f'href="/submit/?game={rejected.game_id}"' not in body
    client.force_login(organiser)
    assert (
        f'href="/submit/?game={rejected.game_id}"' in client.get(f"/matches/{rejected.game.match_id}/").content.decode()
    )
    assert client.get("/matches/999999/").status_code == 404


def test_replay_page_embeds_the_steps_and_caches_them(
    client: Client, many_matches: list[Any], django_assert_max_num_queries: Any
) -> None:
    log = many_matches[0]
    response = client.get(f"/replays/{log.pk}/")
    assert response.status_code == 200
    replay = response.context["replay"]
    assert replay.players == ("tomas", "quinn")
    assert replay.data["pack"] == 52
    assert replay.total_steps == len(replay.data["chunk"]["rows"]) == 44
    assert b'id="replay-data"' in response.content
    with django_assert_max_num_queries(6):  # the steps come from the cache now
        assert client.get(f"/replays/{log.pk}/").status_code == 200
    assert client.get("/replays/999999/").status_code == 404


def test_replay_seats_follow_the_log_not_the_match(client: Client, organiser: Any) -> None:
    data = load("valid-speed-1001.json")
    document = orjson.loads(data)
    # The match lists quinn first; the log seats tomas first. The viewer must follow the log.
    match = make_match(player("quinn"), player("tomas"), ruleset=document["ruleset"])
    log = submit(data, user=organiser, match=match)
    response = client.get(f"/replays/{log.pk}/")
    assert response.context["replay"].players == ("tomas", "quinn")
    assert response.context["replay"].winner_name == "tomas"


def test_submit_page_offers_only_the_users_open_games(client: Client) -> None:
    data = load("valid-speed-1001.json")
    mine = match_for(orjson.loads(data))
    other = make_match(player("xena"), player("yuri"))
    client.login(username="tomas", password=PASSWORD)
    response = client.get("/submit/")
    games = list(response.context["form"].fields["game"].queryset)
    assert [game.match_id for game in games] == [mine.pk]
    # A game that is not offered cannot be posted either.
    response = client.post("/submit/", {"game": other.games.get().pk, "text": data.decode()})
    assert response.status_code == 200
    assert "game" in response.context["form"].errors
    assert not MatchLog.objects.exists()


def test_submit_by_paste_redirects_to_the_live_status(client: Client) -> None:
    data = load("valid-speed-1001.json")
    match = match_for(orjson.loads(data))
    client.login(username="quinn", password=PASSWORD)
    response = client.post("/submit/", {"game": match.games.get().pk, "text": data.decode()})
    log = MatchLog.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/logs/{log.pk}/"
    assert bytes(log.data) == data  # stored byte for byte
    page = client.get(response["Location"])
    assert b'data-status="verified"' in page.content
    assert f'data-api-url="/api/logs/{log.pk}/"'.encode() in page.content


def test_the_same_log_twice_is_one_submission(client: Client) -> None:
    data = load("invalid-no_fit-1012.json")  # rejected: the game stays open for another log
    game = match_for(orjson.loads(data)).games.get()
    client.login(username="ben", password=PASSWORD)
    first = client.post("/submit/", {"game": game.pk, "text": data.decode()})
    again = client.post("/submit/", {"game": game.pk, "text": data.decode()}, follow=True)
    log = MatchLog.objects.get()
    assert first["Location"] == f"/logs/{log.pk}/"
    assert again.redirect_chain == [(f"/logs/{log.pk}/", 302)]
    assert b"already submitted" in again.content
    assert b'data-status="rejected"' in again.content


def test_anonymous_visitors_are_sent_to_log_in(client: Client) -> None:
    response = client.get("/submit/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/submit/"


@pytest.fixture
def tournaments(organiser: Any) -> dict[str, Any]:
    """A started elimination and a started round robin, eight players each (no results needed)."""
    players = [player(f"p{n}") for n in range(1, 9)]
    return {
        fmt: make_tournament(organiser, players, format=fmt, name=fmt.replace("_", " ").title(), best_of=3)
        for fmt in ("double_elimination", "round_robin")
    }


def test_tournament_pages_in_a_fixed_number_of_queries(
    client: Client, tournaments: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(4):
        response = client.get("/tournaments/")
    assert response.status_code == 200
    assert [t.entrant_count for t in response.context["tournaments"]] == [8, 8]

    elimination = tournaments["double_elimination"]
    # Eight, and the live tables ("At the tables now"), read afresh on every visit.
    with django_assert_max_num_queries(9):
        response = client.get(f"/tournaments/{elimination.pk}/")
    drawing = response.context["drawing"]
    assert drawing is not None
    keys = {match.box.key for match in drawing.matches}
    assert {"W1-1", "L1-1", "GF1"} <= keys
    body = response.content.decode()
    assert 'data-match="W1-1"' in body and 'href="/matches/' in body  # ready matches link to their page
    assert "Losers bracket" in body

    league = tournaments["round_robin"]
    with django_assert_max_num_queries(9):
        response = client.get(f"/tournaments/{league.pk}/")
    assert response.context["drawing"] is None
    assert len(response.context["rounds"]) == 7  # eight players: seven rounds
    assert [label for _, label in response.context["columns"]][:2] == ["Match wins", "Head to head"]
    assert b'data-role="standings"' in response.content

    with django_assert_max_num_queries(16):  # two featured tournaments: a fixed few queries each
        response = client.get("/")
    assert response.context["featured_bracket"]["tournament"] == elimination
    assert response.context["featured_table"]["tournament"] == league
    assert client.get("/tournaments/999999/").status_code == 404


def test_player_page_lists_tournament_entries(client: Client, tournaments: dict[str, Any]) -> None:
    response = client.get("/players/p3/")
    names = [entry.tournament.name for entry in response.context["entries"]]
    assert sorted(names) == ["Double Elimination", "Round Robin"]
    assert response.context["rating_chart"] is None  # no rated match yet


def test_organiser_pages_through_the_client(client: Client, organiser: Any) -> None:
    for handle in ("ann", "bob", "cid"):
        player(handle)
    client.login(username="orga", password=PASSWORD)
    response = client.post(
        "/organise/tournaments/new/",
        {
            "name": "Cup",
            "format": "single_elimination",
            "series": "first_to",
            "series_length": 2,
            "ruleset": "speed",
            "single_elimination-seeding": "standard",
            "tie_break_1": "match_wins",
        },
    )
    from tournaments.models import Tournament

    cup = Tournament.objects.get(name="Cup")
    assert response["Location"] == f"/organise/tournaments/{cup.pk}/"
    assert (cup.series, cup.series_length, cup.tie_breaks) == ("first_to", 2, ["match_wins"])
    manage = f"/organise/tournaments/{cup.pk}/"
    client.post(manage, {"action": "add", "handle": "bob", "seed": "1"})
    client.post(manage, {"action": "add", "handle": "ann"})
    client.post(manage, {"action": "add", "handle": "cid"})
    client.post(manage, {"action": "remove", "handle": "cid"})
    response = client.get(manage)
    assert [(e.player.handle, e.seed) for e in response.context["entrants"]] == [("bob", 1), ("ann", 2)]
    # A taken seed is the service's error, shown on the form.
    response = client.post(manage, {"action": "add", "handle": "cid", "seed": "1"})
    assert "Seed 1 is taken by 'bob'" in html.unescape(response.content.decode())
    # Starting asks first: the manage page's button leads to the confirmation, whose button starts.
    response = client.post(manage, {"action": "start"})
    assert response["Location"] == f"/organise/tournaments/{cup.pk}/start/"
    confirm = client.get(response["Location"])
    assert "2 players" in confirm.content.decode() and cup.status == "setup"
    response = client.post(f"/organise/tournaments/{cup.pk}/start/")
    assert response["Location"] == f"/tournaments/{cup.pk}/"
    cup.refresh_from_db()
    assert cup.status == "running"
    # Started: entrants can no longer change, and the page says why.
    response = client.post(manage, {"action": "add", "handle": "cid"}, follow=True)
    assert "entrants can only change before the start" in html.unescape(response.content.decode())


def test_organiser_pages_refuse_players(client: Client) -> None:
    player("someone")
    client.login(username="someone", password=PASSWORD)
    assert client.get("/organise/").status_code == 403
    assert client.post("/organise/tournaments/new/", {"name": "x"}).status_code == 403


def test_a_bracket_too_small_so_far_for_its_third_place_match_shows_its_page(client: Client, organiser: Any) -> None:
    """Before the start the page previews the draw; two entrants cannot have semi-finals yet, so there is none."""
    small = make_tournament(
        organiser, [player("p1"), player("p2")], format="single_elimination", start=False, third_place=True
    )
    response = client.get(f"/tournaments/{small.pk}/")
    assert response.status_code == 200
    assert response.context["drawing"] is None
    entrant_add(tournament_id=small.pk, handle=player("p3").handle, seed=3, user=organiser)
    assert client.get(f"/tournaments/{small.pk}/").context["drawing"] is not None  # three: the draw appears
