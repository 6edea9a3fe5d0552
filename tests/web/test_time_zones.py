"""Time zones: each person reads and types times in their own zone; the API, the calendar feeds and the
exports stay in UTC.

The zone is the signed-in person's choice (Settings), else the browser's (the `speed_tz` cookie that
static/js/time-zone.js sets), else UTC (web.middleware.TimeZoneMiddleware).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from core.errors import Invalid, NotAllowed
from matches.models import Game, TimeZonePreference
from matches.services import game_report_result, user_time_zone_set
from matches.time_zones import zone_choices, zone_get, zone_label
from tests.factories import PASSWORD, make_match, make_player, make_players, make_tournament, make_user, play, ready
from tournaments.models import RoundSchedule, Tournament
from tournaments.services import tournament_start
from tournaments.services.schedule import round_schedule_set, tournament_starts_at_set

pytestmark = pytest.mark.django_db

START = datetime(2030, 5, 1, 9, 0, tzinfo=UTC)  # 05:00 in New York (EDT), 14:30 in Kolkata (IST)
ROUND_2 = datetime(2030, 5, 1, 13, 30, tzinfo=UTC)  # 09:30 EDT, 19:00 IST


def signed_in(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.get_username(), password=PASSWORD)
    return client


def _text(html: str) -> str:
    """The page's words without its tags, spaces squeezed (a time is split by its `<time>` element)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def cup(organiser: Any) -> dict[str, Any]:
    """A round robin of four whose start and second round have times; its first two players are in
    New York and Kolkata."""
    players = make_players(4, prefix="z")
    tournament = make_tournament(organiser, players, format="round_robin", name="Zoned cup", start=False)
    tournament_starts_at_set(tournament_id=tournament.pk, user=organiser, starts_at=START)
    round_schedule_set(tournament_id=tournament.pk, user=organiser, round=2, not_before=ROUND_2)
    user_time_zone_set(user=players[0].user, name="America/New_York")
    user_time_zone_set(user=players[1].user, name="Asia/Kolkata")
    return {"tournament": tournament, "new_york": players[0], "kolkata": players[1], "players": players}


# --- Shown in one's own zone ------------------------------------------------------------------------


def test_new_york_and_kolkata_see_the_same_round_start_each_in_their_own_zone(cup: dict[str, Any]) -> None:
    tournament = cup["tournament"]
    new_york = signed_in(cup["new_york"].user).get(f"/tournaments/{tournament.pk}/").content.decode()
    kolkata = signed_in(cup["kolkata"].user).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Starts 1 May 2030, 05:00 EDT" in _text(new_york)
    assert "Round 2: not before 1 May 2030, 09:30 EDT" in _text(new_york)
    assert "Starts 1 May 2030, 14:30 IST" in _text(kolkata)
    assert "Round 2: not before 1 May 2030, 19:00 IST" in _text(kolkata)
    # The same instant for machines, whoever reads.
    for page in (new_york, kolkata):
        assert '<time datetime="2030-05-01T09:00:00Z">' in page
        assert '<time datetime="2030-05-01T13:30:00Z">' in page
        assert "UTC</time>" not in page
    assert "Times are in America/New_York." in _text(new_york) and "Times are in Asia/Kolkata." in _text(kolkata)


def test_my_matches_shows_the_start_and_the_round_in_the_players_zone(cup: dict[str, Any], organiser: Any) -> None:
    tournament = tournament_start(tournament_id=cup["tournament"].pk, user=organiser)
    round_schedule_set(tournament_id=tournament.pk, user=organiser, round=1, not_before=START)
    assert "not before 1 May, 14:30 IST" in _text(signed_in(cup["kolkata"].user).get("/me/").content.decode())
    assert "not before 1 May, 05:00 EDT" in _text(signed_in(cup["new_york"].user).get("/me/").content.decode())


def test_a_claim_stands_at_a_time_told_in_each_readers_zone(alice: Any, ben: Any) -> None:
    user_time_zone_set(user=alice.user, name="America/New_York")
    user_time_zone_set(user=ben.user, name="Asia/Kolkata")
    match = make_match(alice, ben)
    game = game_report_result(game_id=match.games.get().pk, user=alice.user, winner="alice")
    Game.objects.filter(pk=game.pk).update(confirm_by=datetime(2030, 1, 10, 18, 5, tzinfo=UTC))
    assert "stands 13:05 EST unless disputed" in _text(
        signed_in(alice.user).get(f"/matches/{match.pk}/").content.decode()
    )
    ben_match = _text(signed_in(ben.user).get(f"/matches/{match.pk}/").content.decode())
    assert "stands 23:35 IST unless disputed" in ben_match
    ben_mine = _text(signed_in(ben.user).get("/me/").content.decode())
    assert "stands 23:35 IST unless disputed" in ben_mine


def test_a_visitor_reads_utc_until_the_browser_says_its_zone(cup: dict[str, Any]) -> None:
    path = f"/tournaments/{cup['tournament'].pk}/"
    assert "Starts 1 May 2030, 09:00 UTC" in _text(Client().get(path).content.decode())
    browser = Client()
    browser.cookies["speed_tz"] = "Asia%2FKolkata"  # as static/js/time-zone.js writes it
    response = browser.get(path)
    assert "Starts 1 May 2030, 14:30 IST" in _text(response.content.decode())
    assert "Cookie" in response["Vary"]  # no shared cache may hand one visitor's times to another
    browser.cookies["speed_tz"] = "Mars/Olympus_Mons"
    assert "Starts 1 May 2030, 09:00 UTC" in _text(browser.get(path).content.decode())


def test_a_choice_beats_the_browser_and_a_person_with_none_follows_the_browser(cup: dict[str, Any]) -> None:
    path = f"/tournaments/{cup['tournament'].pk}/"
    chosen = signed_in(cup["new_york"].user)
    chosen.cookies["speed_tz"] = "Asia/Tokyo"
    assert "05:00 EDT" in _text(chosen.get(path).content.decode())
    unset = signed_in(cup["players"][2].user)
    assert "09:00 UTC" in _text(unset.get(path).content.decode())
    unset.cookies["speed_tz"] = "Asia/Tokyo"
    assert "Starts 1 May 2030, 18:00 JST" in _text(unset.get(path).content.decode())


def test_the_zone_lasts_only_for_its_request(cup: dict[str, Any]) -> None:
    signed_in(cup["kolkata"].user).get(f"/tournaments/{cup['tournament'].pk}/")
    assert timezone.get_current_timezone_name() == "UTC"


def test_a_cached_part_of_a_page_is_rendered_once_per_zone(organiser: Any) -> None:
    late = make_player("latejoiner")  # joined at 02:00 UTC on New Year's Day: 21:00 the day before in New York
    type(late).objects.filter(pk=late.pk).update(created_at=datetime(2030, 1, 1, 2, 0, tzinfo=UTC))
    reader = make_user("nyreader")
    user_time_zone_set(user=reader, name="America/New_York")
    utc, new_york = Client(), signed_in(reader)
    for _ in range(2):  # cold, then from the cache
        assert "1 Jan 2030" in _text(utc.get("/players/").content.decode())
        assert "31 Dec 2029" in _text(new_york.get("/players/").content.decode())


# --- Typed in one's own zone --------------------------------------------------------------------------


@pytest.fixture
def berlin(organiser: Any) -> Client:
    user_time_zone_set(user=organiser, name="Europe/Berlin")
    return signed_in(organiser)


def test_times_typed_in_berlin_are_stored_as_the_right_instants_on_both_sides_of_dst(
    berlin: Client, organiser: Any
) -> None:
    players = make_players(4, prefix="b")
    tournament = make_tournament(organiser, players, format="round_robin", name="Berlin open", start=False)
    manage = f"/organise/tournaments/{tournament.pk}/"
    # Winter: CET, UTC+1.
    assert berlin.post(manage, {"action": "starts_at", "starts_at": "2030-01-15T10:00"}).status_code == 302
    # Summer: CEST, UTC+2.
    assert (
        berlin.post(manage, {"action": "round_time", "round": "2", "not_before": "2030-07-15T10:00"}).status_code == 302
    )
    closes = {"action": "entry_rules", "max_entrants": "", "registration_closes_at": "2030-01-14T23:30"}
    assert berlin.post(manage, closes).status_code == 302
    tournament.refresh_from_db()
    assert tournament.starts_at == datetime(2030, 1, 15, 9, 0, tzinfo=UTC)
    assert RoundSchedule.objects.get(tournament=tournament, round=2).not_before == datetime(
        2030, 7, 15, 8, 0, tzinfo=UTC
    )
    assert tournament.registration_closes_at == datetime(2030, 1, 14, 22, 30, tzinfo=UTC)
    # The form gives back what was typed, in the same zone, and says which.
    page = berlin.get(manage).content.decode()
    assert 'value="2030-01-15T10:00"' in page and 'value="2030-01-14T23:30"' in page
    assert "Times are in your time zone, Europe/Berlin." in page
    assert "Round 2: not before 15 Jul 2030, 10:00 CEST" in _text(page)


def test_the_new_tournament_form_reads_its_start_in_berlin(berlin: Client) -> None:
    fields = {
        "name": "Berlin summer",
        "format": "round_robin",
        "series": "best_of",
        "series_length": "1",
        "ruleset": "speed",
        "starts_at": "2030-07-01T18:00",
    }
    response = berlin.post("/organise/tournaments/new/", fields)
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get(name="Berlin summer").starts_at == datetime(2030, 7, 1, 16, 0, tzinfo=UTC)


def test_a_time_berlin_skips_or_repeats_is_refused(berlin: Client, organiser: Any) -> None:
    tournament = make_tournament(organiser, make_players(2, prefix="d"), format="round_robin", start=False)
    manage = f"/organise/tournaments/{tournament.pk}/"
    tournament_starts_at_set(tournament_id=tournament.pk, user=organiser, starts_at=START)
    # 31 March 2030: the clocks go from 02:00 to 03:00; 27 October 2030: from 03:00 back to 02:00.
    for typed in ("2030-03-31T02:30", "2030-10-27T02:30"):
        response = berlin.post(manage, {"action": "starts_at", "starts_at": typed}, follow=True)
        assert "be interpreted in time zone Europe/Berlin" in response.content.decode(), typed
        tournament.refresh_from_db()
        assert tournament.starts_at == START, typed


# --- Choosing a zone ----------------------------------------------------------------------------------


def test_sign_up_keeps_the_browsers_zone_and_drops_one_that_is_not_a_zone() -> None:
    form = {"display_name": "Zed", "email": "", "password1": "kettle-harbour-19", "password2": "kettle-harbour-19"}
    response = Client().post("/accounts/signup/", {**form, "handle": "zed", "time_zone": "America/New_York"})
    assert response.status_code == 302
    assert TimeZonePreference.objects.get(user__username="zed").name == "America/New_York"
    # No JavaScript, or a browser saying nonsense: signed up all the same, in the default zone.
    response = Client().post(
        "/accounts/signup/", {**form, "handle": "yan", "display_name": "Yan", "time_zone": "Nowhere"}
    )
    assert response.status_code == 302
    assert not TimeZonePreference.objects.filter(user__username="yan").exists()


def test_sign_up_page_has_the_hidden_box_for_the_browsers_zone() -> None:
    page = Client().get("/accounts/signup/").content.decode()
    assert re.search(r'<input type="hidden" name="time_zone" data-role="browser-time-zone"', page)
    assert "js/time-zone.js" in page


def test_settings_change_the_zone_and_refuse_one_that_is_not_a_zone(alice: Any) -> None:
    client = signed_in(alice.user)
    client.cookies["speed_tz"] = "Asia/Tokyo"
    page = client.get("/accounts/notifications/").content.decode()
    # Never chosen: the page offers the zone it is shown in (the browser's).
    assert '<option value="Asia/Tokyo" selected>Asia/Tokyo</option>' in page
    settings = {"email": "", "kinds": ["claim_waiting"]}
    for wrong in ("Mars/Olympus_Mons", "localtime", "../../etc/passwd", "europe/berlin"):
        response = client.post("/accounts/notifications/", {**settings, "time_zone": wrong})
        assert response.status_code == 200, wrong
        assert "is not a time zone" in response.content.decode(), wrong
    assert not TimeZonePreference.objects.filter(user=alice.user).exists()
    response = client.post("/accounts/notifications/", {**settings, "time_zone": "Europe/Berlin"}, follow=True)
    assert "Your settings are saved." in response.content.decode()
    assert TimeZonePreference.objects.get(user=alice.user).name == "Europe/Berlin"
    assert '<option value="Europe/Berlin" selected>Europe/Berlin</option>' in response.content.decode()
    # A post that leaves the zone out (a script setting emails) keeps it.
    client.post("/accounts/notifications/", settings)
    assert TimeZonePreference.objects.get(user=alice.user).name == "Europe/Berlin"


def test_the_service_refuses_a_name_that_is_not_a_zone_and_nobody_signed_in(alice: Any) -> None:
    for wrong in ("", "Mars/Olympus_Mons", "localtime", "Factory", "/etc/localtime", "UTC\x00"):
        with pytest.raises(Invalid):
            user_time_zone_set(user=alice.user, name=wrong)
    with pytest.raises(NotAllowed):
        user_time_zone_set(user=None, name="UTC")
    # The database's old names are zones too: some browsers still report Kolkata so.
    assert user_time_zone_set(user=alice.user, name="Asia/Calcutta") == "Asia/Calcutta"


def test_an_old_name_chosen_stays_in_the_list(alice: Any) -> None:
    user_time_zone_set(user=alice.user, name="US/Eastern")
    page = signed_in(alice.user).get("/accounts/notifications/").content.decode()
    assert '<option value="US/Eastern" selected>' in page
    assert "US/Eastern" not in zone_choices()


def test_zone_labels_are_abbreviations_or_offsets() -> None:
    winter = datetime(2030, 1, 15, 12, tzinfo=UTC)
    labels = {name: zone_label(winter.astimezone(zone_get(name))) for name in ("Europe/Berlin", "Asia/Dubai")}
    labels |= {name: zone_label(winter.astimezone(zone_get(name))) for name in ("Asia/Kathmandu", "UTC")}
    assert labels == {"Europe/Berlin": "CET", "Asia/Dubai": "UTC+04", "Asia/Kathmandu": "UTC+05:45", "UTC": "UTC"}


# --- The API, the calendar feeds and the exports stay in UTC ------------------------------------------


def test_the_api_answers_and_reads_utc_whatever_the_callers_zone(cup: dict[str, Any], organiser: Any) -> None:
    tournament = cup["tournament"]
    anonymous = Client().get(f"/api/tournaments/{tournament.pk}/")
    kolkata = signed_in(cup["kolkata"].user)
    kolkata.cookies["speed_tz"] = "Asia/Kolkata"
    theirs = kolkata.get(f"/api/tournaments/{tournament.pk}/")
    assert theirs.status_code == 200 and orjson.loads(theirs.content) == orjson.loads(anonymous.content)
    assert orjson.loads(theirs.content)["starts_at"] == "2030-05-01T09:00:00Z"
    # A time sent without an offset is UTC, whoever sends it.
    user_time_zone_set(user=organiser, name="Asia/Kolkata")
    response = signed_in(organiser).put(
        f"/api/tournaments/{tournament.pk}/entry-rules/",
        orjson.dumps({"max_entrants": None, "registration_closes_at": "2030-04-30T20:00:00"}),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    tournament.refresh_from_db()
    assert tournament.registration_closes_at == datetime(2030, 4, 30, 20, 0, tzinfo=UTC)
    assert orjson.loads(response.content)["registration_closes_at"] == "2030-04-30T20:00:00Z"


def test_the_calendar_feed_and_the_exports_are_the_same_in_every_zone(cup: dict[str, Any]) -> None:
    tournament = cup["tournament"]
    feed = f"/tournaments/{tournament.pk}/calendar.ics"
    kolkata = signed_in(cup["kolkata"].user)
    starts = {}
    for name, client in (("visitor", Client()), ("kolkata", kolkata)):
        body = client.get(feed).content
        assert b"DTSTART:20300501T090000Z" in body and b"DTSTART:20300501T133000Z" in body, name
        starts[name] = sorted(event.decoded("DTSTART") for event in Calendar.from_ical(body).walk("VEVENT"))
    assert starts["visitor"] == starts["kolkata"] == [START, ROUND_2]


def test_results_export_keeps_utc_for_a_reader_in_another_zone(cup: dict[str, Any], organiser: Any) -> None:
    tournament = tournament_start(tournament_id=cup["tournament"].pk, user=organiser)
    pairing = ready(tournament)[0]
    play(organiser, pairing, pairing.player_one)
    path = f"/tournaments/{tournament.pk}/results.csv"
    visitor, kolkata = (b"".join(c.get(path)) for c in (Client(), signed_in(cup["kolkata"].user)))
    assert visitor == kolkata and b"+00:00" in visitor
