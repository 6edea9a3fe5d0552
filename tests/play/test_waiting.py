"""Someone waits at a match's table: the other players see it on their pages, or are emailed, once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches.models import OutboxEmail, Player
from matches.selectors import users_with_kind_off
from matches.services import user_email_set
from matches.services.notifications import Kind, notification_preferences_set
from matches.services.outbox import outbox_sweep
from play.models import SiteSeen, Table, TableWaitNotice
from play.selectors import tables_waiting_for
from play.services import site_seen_touch, table_open_for_game, table_wait_notices_send, table_wait_notices_shown
from play.services.presence import seat_release, seat_take
from speedsite.celery import app as celery_app
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


def open_table(one: Player, two: Player) -> Table:
    match = make_match(one, two, best_of=1)
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=one.user)
    return table


def later(seconds: int) -> Any:
    return timezone.now() + timedelta(seconds=seconds)


AFTER = django_settings.SPEED_TABLE_WAIT_EMAIL_AFTER_SECONDS
ONLINE = django_settings.SPEED_SITE_ONLINE_SECONDS


class TestTheBanner:
    def test_a_seat_taken_names_the_table_to_the_other_player_until_they_sit_down(self, alice, ben) -> None:
        table = open_table(alice, ben)
        assert tables_waiting_for(user_id=ben.user_id) == []
        seat_take(table_id=table.pk, seat=0, channel="alice-1")
        [row] = tables_waiting_for(user_id=ben.user_id)
        assert (row.table_id, row.handle) == (table.pk, "alice")
        assert tables_waiting_for(user_id=alice.user_id) == [], "nobody waits for alice: ben is not there"
        seat_take(table_id=table.pk, seat=1, channel="ben-1")
        assert tables_waiting_for(user_id=ben.user_id) == []

    def test_nobody_waits_once_the_waiting_player_left_or_the_table_ended(self, alice, ben) -> None:
        table = open_table(alice, ben)
        seat_take(table_id=table.pk, seat=0, channel="alice-1")
        seat_release(table_id=table.pk, seat=0, channel="alice-1")
        assert tables_waiting_for(user_id=ben.user_id) == []
        seat_take(table_id=table.pk, seat=0, channel="alice-2")
        assert len(tables_waiting_for(user_id=ben.user_id)) == 1
        Table.objects.filter(pk=table.pk).update(status=Table.Status.ABORTED)
        assert tables_waiting_for(user_id=ben.user_id) == []

    def test_one_notice_per_table_and_player_however_often_the_seat_is_retaken(self, alice, ben) -> None:
        table = open_table(alice, ben)
        for n in range(3):
            seat_take(table_id=table.pk, seat=0, channel=f"alice-{n}")
        assert TableWaitNotice.objects.filter(table=table).count() == 1

    def test_the_read_is_one_query(self, alice, ben, carol) -> None:
        for other in (alice, carol):
            seat_take(table_id=open_table(other, ben).pk, seat=0, channel=f"{other.handle}-1")
        with CaptureQueriesContext(connection) as queries:
            rows = tables_waiting_for(user_id=ben.user_id)
        assert sorted(row.handle for row in rows) == ["alice", "carol"] and len(queries) == 1

    def test_the_live_poll_shows_it_and_marks_it_told_on_a_page(self, client, alice, ben) -> None:
        table = open_table(alice, ben)
        client.force_login(ben.user)
        before = client.get("/live/?waiting").json()["version"]
        seat_take(table_id=table.pk, seat=0, channel="alice-1")
        assert client.get("/live/?waiting").json()["version"] != before
        assert client.get("/live/").status_code == 200
        notice = TableWaitNotice.objects.get(table=table, user=ben.user)
        assert notice.told == TableWaitNotice.Told.PAGE
        assert SiteSeen.objects.filter(user=ben.user).exists()
        page = client.get("/players/").content.decode()
        assert "is waiting at your table" in page and f"/tables/{table.pk}/" in page


class TestSeen:
    def test_a_poll_writes_the_last_seen_at_most_every_few_seconds(self) -> None:
        user = make_user("dee")
        now = timezone.now()
        site_seen_touch(user=user, now=now)
        site_seen_touch(user=user, now=now + timedelta(seconds=1))
        assert SiteSeen.objects.get(user=user).seen_at == now
        moved = now + timedelta(seconds=django_settings.SPEED_SITE_SEEN_WRITE_SECONDS + 1)
        site_seen_touch(user=user, now=moved)
        assert SiteSeen.objects.get(user=user).seen_at == moved


class TestTheEmail:
    @pytest.fixture(autouse=True)
    def _addresses(self, alice, ben) -> None:
        for player in (alice, ben):
            user_email_set(user=player.user, email=f"{player.handle}@example.org")

    def test_an_absent_player_is_emailed_once_through_the_outbox_after_the_grace(self, alice, ben) -> None:
        table = open_table(alice, ben)
        seat_take(table_id=table.pk, seat=0, channel="alice-1")
        assert table_wait_notices_send(now=later(AFTER - 5)) == 0, "still within the grace"
        assert table_wait_notices_send(now=later(AFTER + 1)) == 1
        assert table_wait_notices_send(now=later(AFTER + 60)) == 0, "once per table and player"
        outbox_sweep(older_than=timedelta(0))
        [email] = mail.outbox
        assert (email.to, email.subject) == (["ben@example.org"], "Speed: alice is waiting at your table")
        assert f"/tables/{table.pk}/" in email.body
        seat_release(table_id=table.pk, seat=0, channel="alice-1")
        seat_take(table_id=table.pk, seat=0, channel="alice-2")
        assert table_wait_notices_send(now=later(AFTER * 3)) == 0
        assert TableWaitNotice.objects.get().told == TableWaitNotice.Told.EMAIL

    def test_turned_off_no_email(self, alice, ben) -> None:
        notification_preferences_set(user=ben.user, kinds=[k.value for k in Kind if k != Kind.TABLE_WAITING])
        table = open_table(alice, ben)
        seat_take(table_id=table.pk, seat=0, channel="alice-1")
        assert table_wait_notices_send(now=later(AFTER + 1)) == 0
        outbox_sweep(older_than=timedelta(0))
        assert mail.outbox == [] and not OutboxEmail.objects.exists()
        assert TableWaitNotice.objects.get().told == TableWaitNotice.Told.NONE

    def test_a_player_seen_on_the_site_is_not_emailed_until_their_pages_are_gone(self, alice, ben) -> None:
        table = open_table(alice, ben)
        seat_take(table_id=table.pk, seat=0, channel="alice-1")
        site_seen_touch(user=ben.user, now=later(AFTER))
        assert table_wait_notices_send(now=later(AFTER + 1)) == 0
        assert TableWaitNotice.objects.get().told == TableWaitNotice.Told.PENDING
        assert table_wait_notices_send(now=later(AFTER + ONLINE + 1)) == 1

    def test_a_banner_shown_is_no_email(self, alice, ben) -> None:
        table = open_table(alice, ben)
        seat_take(table_id=table.pk, seat=0, channel="alice-1")
        table_wait_notices_shown(user_id=ben.user_id, table_ids=[table.pk])
        assert table_wait_notices_send(now=later(AFTER + ONLINE + 1)) == 0
        assert OutboxEmail.objects.count() == 0

    def test_nobody_is_emailed_who_came_or_once_the_table_ended(self, alice, ben, carol) -> None:
        came = open_table(alice, ben)
        seat_take(table_id=came.pk, seat=0, channel="alice-1")
        seat_take(table_id=came.pk, seat=1, channel="ben-1")
        ended = open_table(carol, ben)
        seat_take(table_id=ended.pk, seat=0, channel="carol-1")
        Table.objects.filter(pk=ended.pk).update(status=Table.Status.ABANDONED)
        assert table_wait_notices_send(now=later(AFTER + 1)) == 0
        notices = TableWaitNotice.objects.filter(user=ben.user)
        assert {n.told for n in notices} == {TableWaitNotice.Told.NONE}

    def test_the_settings_page_offers_the_kind_on_until_turned_off(self, client, ben) -> None:
        client.force_login(ben.user)
        page = client.get("/accounts/notifications/").content.decode()
        assert 'value="table_waiting"' in page and "waiting for me at our match" in page
        others = [k.value for k in Kind if k != Kind.TABLE_WAITING]
        client.post("/accounts/notifications/", {"email": "ben@example.org", "kinds": others})
        assert users_with_kind_off(kind="table_waiting", user_ids=[ben.user_id]) == {ben.user_id}
        client.post("/accounts/notifications/", {"email": "ben@example.org", "kinds": [*others, "table_waiting"]})
        assert users_with_kind_off(kind="table_waiting", user_ids=[ben.user_id]) == set()

    def test_the_beat_runs_the_sweep(self) -> None:
        celery_app.autodiscover_tasks(force=True)
        tasks = {entry["task"] for entry in django_settings.CELERY_BEAT_SCHEDULE.values()}
        assert "play.table_wait_notices_send" in tasks and "play.table_wait_notices_send" in celery_app.tasks


class TestOpponentsApi:
    def test_the_waiting_player_sees_the_other_seat(self, client_for, alice, ben) -> None:
        user_email_set(user=ben.user, email="ben@example.org")
        table = open_table(alice, ben)
        seat_take(table_id=table.pk, seat=0, channel="alice-1")
        api = client_for(alice.user)
        url = f"/api/tables/{table.pk}/opponents/"
        assert api.get(url).json() == [{"seat": 1, "handle": "ben", "seated": False, "online": False, "told": None}]
        table_wait_notices_send(now=later(AFTER + 1))
        assert api.get(url).json()[0]["told"] == "email"
        site_seen_touch(user=ben.user)
        assert api.get(url).json()[0]["online"] is True
        seat_take(table_id=table.pk, seat=1, channel="ben-1")
        assert api.get(url).json()[0]["seated"] is True

    def test_a_banner_shown_reads_as_told_on_a_page(self, client_for, alice, ben) -> None:
        table = open_table(alice, ben)
        seat_take(table_id=table.pk, seat=0, channel="alice-1")
        table_wait_notices_shown(user_id=ben.user_id, table_ids=[table.pk])
        assert client_for(alice.user).get(f"/api/tables/{table.pk}/opponents/").json()[0]["told"] == "page"

    def test_strangers_and_the_anonymous_are_refused(self, client_for, anon, alice, ben, carol) -> None:
        table = open_table(alice, ben)
        url = f"/api/tables/{table.pk}/opponents/"
        assert client_for(carol.user).get(url).status_code == 403
        assert anon.get(url).status_code == 401
        assert client_for(alice.user).get(f"/api/tables/{table.pk + 1000}/opponents/").status_code == 404
        assert client_for(alice.user).get(url, {"x": "1"}).status_code == 400
