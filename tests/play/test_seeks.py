"""The lobby's seeks: posting, cancelling and accepting a game, each refusal, the race, the sweep and ratings."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, connections, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from core.errors import Conflict, Invalid, NotAllowed
from matches.models import Match, Player
from matches.services import game_set_result
from play.models import Seek, Table
from play.selectors import seeks_open
from play.services import seek_accept, seek_cancel, seek_create, seek_touch, table_practice_create
from play.tasks import seeks_expire_task
from tests.factories import make_player, make_user
from tournaments.models import PlayerRating, RatingChange

pytestmark = pytest.mark.django_db


def post(player: Player, *, ruleset: str = "speed", rated: bool = True) -> Seek:
    return seek_create(user=player.user, ruleset=ruleset, rated=rated)


def stale(seek: Seek) -> None:
    """As if its player's lobby page stopped polling a while ago."""
    Seek.objects.filter(pk=seek.pk).update(
        last_seen=timezone.now() - timedelta(seconds=settings.SPEED_SEEK_TTL_SECONDS + 1)
    )


class TestPosting:
    def test_a_seek_is_listed_and_a_second_one_refused(self, alice: Player) -> None:
        seek = post(alice, ruleset="california", rated=False)
        assert list(seeks_open()) == [seek]
        assert (seek.ruleset_name, seek.rated, seek.status) == ("california", False, Seek.Status.OPEN)
        with pytest.raises(Conflict, match="already have a game open"):
            post(alice)

    @pytest.mark.parametrize("ruleset", ["three-way", "team", "solitaire", "nonsense"])
    def test_only_two_seat_table_presets(self, alice: Player, ruleset: str) -> None:
        with pytest.raises(Invalid, match="Unknown ruleset"):
            post(alice, ruleset=ruleset)

    def test_a_user_who_is_no_player_is_refused(self) -> None:
        with pytest.raises(NotAllowed, match="Sign in as a player"):
            seek_create(user=make_user("watcher"), ruleset="speed", rated=True)

    def test_refused_while_seated_at_a_live_table(self, alice: Player) -> None:
        table = table_practice_create(user=alice.user, ruleset="speed", bots=["easy"])
        with pytest.raises(Conflict, match=f"table {table.pk}") as refused:
            post(alice)
        assert refused.value.extra["table"] == table.pk
        Table.objects.filter(pk=table.pk).update(status=Table.Status.ABORTED)
        assert post(alice).status == Seek.Status.OPEN

    def test_a_stale_seek_of_ones_own_is_replaced(self, alice: Player) -> None:
        first = post(alice)
        stale(first)
        second = post(alice)
        first.refresh_from_db()
        assert first.status == Seek.Status.EXPIRED and second.status == Seek.Status.OPEN


class TestCancelling:
    def test_the_seeker_cancels_and_nobody_else_may(self, alice: Player, ben: Player) -> None:
        seek = post(alice)
        with pytest.raises(NotAllowed):
            seek_cancel(seek_id=seek.pk, user=ben.user)
        assert seek_cancel(seek_id=seek.pk, user=alice.user).status == Seek.Status.CANCELLED
        assert not seeks_open().exists()
        with pytest.raises(Conflict, match="is gone"):
            seek_accept(seek_id=seek.pk, user=ben.user)

    def test_a_taken_seek_cannot_be_cancelled(self, alice: Player, ben: Player) -> None:
        seek = post(alice)
        seek_accept(seek_id=seek.pk, user=ben.user)
        with pytest.raises(Conflict, match="has been taken"):
            seek_cancel(seek_id=seek.pk, user=alice.user)


class TestAccepting:
    def test_accepting_makes_a_one_game_match_and_its_table_for_both(self, alice: Player, ben: Player) -> None:
        seek = seek_accept(seek_id=post(alice, ruleset="jokers-wild").pk, user=ben.user)
        assert (seek.status, seek.accepted_by) == (Seek.Status.TAKEN, ben)
        match = Match.objects.get()
        assert (match.player_ids, match.ruleset_name, match.series_length, match.rated) == (
            (alice.pk, ben.pk),
            "jokers-wild",
            1,
            True,
        )
        table = Table.objects.get()
        assert seek.match == match and seek.table == table
        assert table.game is not None and table.game.match_id == match.pk
        assert table.seat_users == [alice.user_id, ben.user_id]
        assert table.status == Table.Status.WAITING

    def test_ones_own_seek_is_refused(self, alice: Player) -> None:
        with pytest.raises(Invalid, match="your own game"):
            seek_accept(seek_id=post(alice).pk, user=alice.user)

    def test_a_taken_seek_is_refused_with_its_reason(self, alice: Player, ben: Player, carol: Player) -> None:
        seek = post(alice)
        seek_accept(seek_id=seek.pk, user=ben.user)
        with pytest.raises(Conflict, match="This game has been taken"):
            seek_accept(seek_id=seek.pk, user=carol.user)
        assert Match.objects.count() == 1 and Table.objects.count() == 1

    def test_an_accepter_seated_elsewhere_is_not_seated_twice(self, alice: Player, ben: Player) -> None:
        seek = post(alice)
        table_practice_create(user=ben.user, ruleset="speed", bots=["easy"])
        with pytest.raises(Conflict, match="You have a seat at table"):
            seek_accept(seek_id=seek.pk, user=ben.user)
        assert not Match.objects.exists()

    def test_a_seeker_seated_since_is_not_seated_twice(self, alice: Player, ben: Player) -> None:
        seek = post(alice)
        table_practice_create(user=alice.user, ruleset="speed", bots=["easy"])
        with pytest.raises(Conflict, match="alice has a seat at table"):
            seek_accept(seek_id=seek.pk, user=ben.user)

    def test_the_accepters_own_open_seek_is_withdrawn(self, alice: Player, ben: Player) -> None:
        theirs, mine = post(alice), post(ben)
        seek_accept(seek_id=theirs.pk, user=ben.user)
        mine.refresh_from_db()
        assert mine.status == Seek.Status.CANCELLED
        assert not seeks_open().exists()


class TestPresence:
    def test_a_seek_its_player_left_is_not_listed_or_taken_and_the_sweep_expires_it(
        self, alice: Player, ben: Player
    ) -> None:
        seek = post(alice)
        stale(seek)
        assert not seeks_open().exists()
        assert seek_touch(user=alice.user) == 0  # gone for good: a page back from sleep posts anew
        with pytest.raises(Conflict, match="is gone"):
            seek_accept(seek_id=seek.pk, user=ben.user)
        assert seeks_expire_task.apply().get() == 1
        seek.refresh_from_db()
        assert seek.status == Seek.Status.EXPIRED and seek.closed_at is not None

    def test_a_seek_whose_page_polls_stays(self, alice: Player) -> None:
        seek = post(alice)
        Seek.objects.filter(pk=seek.pk).update(last_seen=timezone.now() - timedelta(seconds=5))
        assert seek_touch(user=alice.user) == 1
        assert seeks_expire_task.apply().get() == 0
        assert list(seeks_open()) == [seek]

    def test_the_beat_runs_the_sweep(self) -> None:
        assert "play.seeks_expire" in {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}


@pytest.mark.parametrize("rated", [True, False])
def test_a_rated_game_moves_ratings_and_a_casual_one_does_not(
    alice: Player, ben: Player, organiser: Any, rated: bool
) -> None:
    seek = seek_accept(seek_id=post(alice, rated=rated).pk, user=ben.user)
    assert seek.match is not None and seek.match.rated is rated
    game_set_result(game_id=seek.match.games.get().pk, user=organiser, winner="alice")
    seek.match.refresh_from_db()
    assert seek.match.status == Match.Status.FINISHED
    assert RatingChange.objects.filter(match=seek.match).count() == (2 if rated else 0)
    assert PlayerRating.objects.filter(player__in=[alice, ben]).count() == (2 if rated else 0)


def _lock_waiters() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # inside a transaction the view is a snapshot
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def accepts_released_together(hold: Callable[[], object], accepts: list[tuple[int, Player]]) -> dict[int, object]:
    """Each (seek id, player) accepts in its own thread while `hold` keeps a lock here; once both wait behind it,
    it is released and they race. Each accept's outcome, by its place in `accepts`: the seek's status, or what
    was raised."""
    outcomes: dict[int, object] = {}

    def accept(index: int, seek_id: int, player: Player) -> None:
        try:
            outcomes[index] = seek_accept(seek_id=seek_id, user=player.user).status
        except BaseException as exc:  # reported to the main thread
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=accept, args=(index, *pair)) for index, pair in enumerate(accepts)]
    with transaction.atomic():
        hold()
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while _lock_waiters() < len(threads):
            assert time.monotonic() < deadline, f"the accepts never all waited for the lock held: {outcomes}"
            time.sleep(0.02)
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def one_taken_one_refused(outcomes: dict[int, object]) -> Conflict:
    refused = [outcome for outcome in outcomes.values() if isinstance(outcome, Conflict)]
    taken = [outcome for outcome in outcomes.values() if outcome == Seek.Status.TAKEN]
    assert len(taken) == 1 and len(refused) == 1, outcomes
    assert Match.objects.count() == 1 and Table.objects.count() == 1
    return refused[0]


@pytest.mark.django_db(transaction=True)
def test_two_accepts_at_once_make_one_match_and_one_table() -> None:
    """Both accepts wait on the seek's lock, held here; released, one seats its player, the other is told."""
    seeker, first, second = make_player("sal"), make_player("fay"), make_player("sid")
    seek = post(seeker)
    outcomes = accepts_released_together(
        lambda: Seek.objects.select_for_update().get(pk=seek.pk), [(seek.pk, first), (seek.pk, second)]
    )
    assert one_taken_one_refused(outcomes).message.startswith("This game has been taken")
    seek.refresh_from_db()
    assert seek.accepted_by is not None and seek.accepted_by in (first, second)
    assert Table.objects.get().seat_users == [seeker.user_id, seek.accepted_by.user_id]


@pytest.mark.django_db(transaction=True)
def test_one_player_accepting_two_games_at_once_is_seated_once() -> None:
    """Both accepts wait on the accepter's row, held here; released, one seats them and the other is refused."""
    first, second, accepter = make_player("sal"), make_player("sue"), make_player("ace")
    seeks = [post(first), post(second)]
    outcomes = accepts_released_together(
        lambda: Player.objects.select_for_update(no_key=True).get(pk=accepter.pk),
        [(seek.pk, accepter) for seek in seeks],
    )
    assert one_taken_one_refused(outcomes).message.startswith("You have a seat at table")


class TestApi:
    def test_post_list_accept_and_cancel(
        self, alice: Player, ben: Player, carol: Player, client_for: Callable[[Any], APIClient], anon: APIClient
    ) -> None:
        created = client_for(alice.user).post("/api/seeks/", {"ruleset": "speed", "rated": False}, format="json")
        assert created.status_code == 201, created.json()
        body = created.json()
        assert {key: body[key] for key in ("seeker", "ruleset", "rated", "status", "table", "page")} == {
            "seeker": "alice",
            "ruleset": "speed",
            "rated": False,
            "status": "open",
            "table": None,
            "page": None,
        }
        listed = anon.get("/api/seeks/?limit=1").json()
        assert listed["count"] == 1 and [row["id"] for row in listed["results"]] == [body["id"]]

        assert client_for(carol.user).post(f"/api/seeks/{body['id']}/cancel/").status_code == 403
        accepted = client_for(ben.user).post(f"/api/seeks/{body['id']}/accept/")
        assert accepted.status_code == 200
        table = Table.objects.get()
        assert accepted.json()["table"] == table.pk and accepted.json()["page"] == f"/tables/{table.pk}/"
        late = client_for(carol.user).post(f"/api/seeks/{body['id']}/accept/")
        assert late.status_code == 409 and late.json()["message"].startswith("This game has been taken")
        assert client_for(alice.user).post(f"/api/seeks/{body['id']}/cancel/").status_code == 409
        assert anon.get("/api/seeks/").json()["count"] == 0

    def test_a_players_poll_of_the_list_keeps_their_game_listed(
        self, alice: Player, ben: Player, client_for: Callable[[Any], APIClient]
    ) -> None:
        mine, theirs = post(alice), post(ben)
        long_ago = timezone.now() - timedelta(seconds=5)
        Seek.objects.update(last_seen=long_ago)
        assert client_for(alice.user).get("/api/seeks/").status_code == 200
        mine.refresh_from_db()
        theirs.refresh_from_db()
        assert mine.last_seen > long_ago and theirs.last_seen == long_ago

    def test_bad_input_and_strangers(
        self, alice: Player, client_for: Callable[[Any], APIClient], anon: APIClient
    ) -> None:
        client = client_for(alice.user)
        unknown = client.post("/api/seeks/", {"ruleset": "speed", "rated": True, "best_of": 3}, format="json")
        assert unknown.status_code == 400 and "best_of" in unknown.json()["extra"]["fields"]
        assert client.post("/api/seeks/", {"ruleset": "team", "rated": True}, format="json").status_code == 400
        assert client.post("/api/seeks/", {"ruleset": "speed"}, format="json").status_code == 400
        assert anon.post("/api/seeks/", {"ruleset": "speed", "rated": True}, format="json").status_code in (401, 403)
        assert anon.get("/api/seeks/?page=2").status_code == 400
        assert client.post("/api/seeks/999999/accept/").status_code == 404
        assert not Seek.objects.exists()
