"""A tournament's exports (standings and results as CSV, its logs as one zip) and its iCalendar feeds."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from icalendar import Calendar

from replays.services import log_submit
from tests.factories import PASSWORD, body, make_players, make_tournament, play, ready, won_log
from tournaments.models import TournamentMatch
from tournaments.services import pairing_correct
from tournaments.services.schedule import (
    calendar_token_issue,
    calendar_token_revoke,
    round_schedule_set,
    tournament_starts_at_set,
)
from web.presenters.exports import csv_text

pytestmark = pytest.mark.django_db


def _csv(response: Any) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_standings_and_results_export_as_csv(organiser: Any, client: Client) -> None:
    players = make_players(4, prefix="x")
    cup = make_tournament(organiser, players, format="round_robin", name='Winter, "open" cup')
    for pairing in ready(cup):
        play(organiser, pairing, pairing.player_one)
    response = client.get(f"/tournaments/{cup.pk}/standings.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="winter-open-cup-{cup.pk}-standings.csv"'
    rows = _csv(response)
    assert rows[0][:3] == ["place", "handle", "name"]
    assert len(rows) == 5 and {row[1] for row in rows[1:]} == {"x01", "x02", "x03", "x04"}
    assert rows[1][1] == "x01"  # the first seat won every match: x01 played three times as player one

    results = _csv(client.get(f"/tournaments/{cup.pk}/results.csv"))
    assert results[0] == [
        "round",
        "key",
        "name",
        "players",
        "score",
        "winner",
        "result_source",
        "games_decided_by",
        "counted",
        "decided_at",
        "match_id",
    ]
    decided = TournamentMatch.objects.filter(tournament=cup, status=TournamentMatch.Status.DECIDED).count()
    assert len(results) - 1 == decided > 0
    assert all(row[4] == "1-0" and row[5] == row[3].split(" v ")[0] for row in results[1:])
    # An organiser set every result: the match is the pairing's source, the organiser each game's.
    assert all(row[6:9] == ["match", "1 organiser", "yes"] for row in results[1:])


def test_every_log_is_in_the_archive_byte_for_byte(organiser: Any, client: Client) -> None:
    one, two = make_players(2, prefix="z")
    cup = make_tournament(organiser, [one, two], format="single_elimination")
    pairing = ready(cup)[0]
    game = pairing.match.games.get(number=1)
    data = body(won_log("speed", [one.handle, two.handle]))
    log, _ = log_submit(game_id=game.pk, data=data, user=organiser)
    response = client.get(f"/tournaments/{cup.pk}/logs.zip")
    assert response["Content-Type"] == "application/zip"
    assert "attachment" in response["Content-Disposition"]
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    assert archive.testzip() is None
    name = f"match-{pairing.match_id}-{pairing.key}/game-1-log-{log.pk}-pending.json"
    assert archive.namelist() == [name]
    assert archive.read(name) == data


def test_the_tournament_calendar_lists_the_start_and_each_round(organiser: Any, client: Client) -> None:
    players = make_players(4, prefix="k")
    cup = make_tournament(organiser, players, format="swiss", name="Cup; with, commas", swiss_rounds=2)
    tournament_starts_at_set(tournament_id=cup.pk, user=organiser, starts_at=datetime(2030, 3, 1, 9, 0, tzinfo=UTC))
    round_schedule_set(
        tournament_id=cup.pk, user=organiser, round=2, not_before=datetime(2030, 3, 1, 10, 30, tzinfo=UTC)
    )
    response = client.get(f"/tournaments/{cup.pk}/calendar.ics")
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    text = response.content.decode()
    assert "\r\n" in text and all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    assert "SUMMARY:Cup\\; with\\, commas: start" in text
    assert "DTSTART:20300301T090000Z" in text and "DTSTART:20300301T103000Z" in text
    events = Calendar.from_ical(response.content).walk("VEVENT")
    uids = [str(event["UID"]) for event in events]
    assert uids == [f"tournament-{cup.pk}-start@testserver", f"tournament-{cup.pk}-round-2@testserver"]
    again = Calendar.from_ical(client.get(f"/tournaments/{cup.pk}/calendar.ics").content).walk("VEVENT")
    assert [str(event["UID"]) for event in again] == uids  # stable


def test_a_player_feed_needs_only_its_token_and_a_new_token_revokes_the_old(organiser: Any, client: Client) -> None:
    players = make_players(4, prefix="q")
    cup = make_tournament(organiser, players, format="round_robin", name="Spring")
    round_schedule_set(tournament_id=cup.pk, user=organiser, round=1, not_before=datetime(2030, 4, 1, 18, tzinfo=UTC))
    first = calendar_token_issue(user=players[0].user).token
    response = client.get(f"/calendar/{first}.ics")  # no session
    assert response.status_code == 200
    events = Calendar.from_ical(response.content).walk("VEVENT")
    mine = [event for event in events if str(event["UID"]).startswith("pairing-")]
    assert mine and all(event.decoded("DTSTART") == datetime(2030, 4, 1, 18, tzinfo=UTC) for event in mine)
    assert all(str(event["SUMMARY"]).startswith("Spring, round 1: v q0") for event in mine)
    second = calendar_token_issue(user=players[0].user).token
    assert client.get(f"/calendar/{first}.ics").status_code == 404
    assert client.get(f"/calendar/{second}.ics").status_code == 200
    calendar_token_revoke(user=players[0].user)
    assert client.get(f"/calendar/{second}.ics").status_code == 404


def test_the_pages_show_the_schedule_the_rules_and_the_links(organiser: Any, client: Client) -> None:
    players = make_players(4, prefix="v")
    cup = make_tournament(organiser, players, format="round_robin", name="Shown", start=False, max_entrants=4)
    tournament_starts_at_set(tournament_id=cup.pk, user=organiser, starts_at=datetime(2030, 5, 1, 9, tzinfo=UTC))
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "4 of 4 places taken" in page and "1 May 2030, 09:00 UTC" in page
    assert f"/tournaments/{cup.pk}/calendar.ics" in page
    client.login(username=organiser.get_username(), password=PASSWORD)
    response = client.post(
        f"/organise/tournaments/{cup.pk}/", {"action": "round_time", "round": "1", "not_before": "2030-05-01T10:00"}
    )
    assert response.status_code == 302
    client.post(f"/organise/tournaments/{cup.pk}/start/")  # the confirmation page's button
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Round 1: not before" in page and f"/tournaments/{cup.pk}/standings.csv" in page
    client.logout()
    client.login(username=players[0].user.get_username(), password=PASSWORD)
    mine = client.get("/me/").content.decode()
    assert "not before" in mine and "Make my calendar address" in mine
    client.post("/me/calendar/", {"action": "issue"})
    assert "/calendar/" in client.get("/me/").content.decode()


@pytest.mark.parametrize(
    "name",
    [
        '=HYPERLINK("http://evil.example","me")',
        "@SUM(A1:A9)",
        "+cmd|' /C calc'!A0",
        "-2+3+cmd|' /C calc'!A0",
        "\t=1+1",
        "\r=1+1",
        "\uff1dSUM(A1)",
    ],
)
def test_a_name_a_spreadsheet_would_run_as_a_formula_is_exported_as_text(
    organiser: Any, client: Client, name: str
) -> None:
    players = make_players(2, prefix="f")
    players[0].display_name = name  # whatever the name checks let through, the export must not run
    players[0].save(update_fields=["display_name"])
    cup = make_tournament(organiser, players, format="round_robin")
    for pairing in ready(cup):
        play(organiser, pairing, pairing.player_one)
    rows = _csv(client.get(f"/tournaments/{cup.pk}/standings.csv"))
    cells = {row[1]: row[2] for row in rows[1:]}
    assert cells[players[0].handle] == "'" + name
    assert cells[players[1].handle] == players[1].display_name


def test_numbers_stay_numbers_and_plain_text_is_untouched() -> None:
    text = csv_text([["-2", -2, -0.5, "2-1", "a=b", "ben"]])
    assert next(csv.reader(io.StringIO(text))) == ["'-2", "-2", "-0.5", "2-1", "a=b", "ben"]


def test_a_running_knockouts_standings_tell_who_is_out_and_when_with_each_record(
    organiser: Any, client: Client
) -> None:
    players = make_players(4, prefix="k")
    cup = make_tournament(organiser, players, format="single_elimination")
    first_round = ready(cup)
    assert len(first_round) == 2
    for pairing in first_round:
        play(organiser, pairing, pairing.player_one)
    winners = {pairing.player_one.handle for pairing in first_round}
    losers = {pairing.player_two.handle for pairing in first_round}

    rows = _csv(client.get(f"/tournaments/{cup.pk}/standings.csv"))
    assert rows[0][:7] == ["place", "handle", "name", "status", "played", "won", "lost"]
    by_handle = {row[1]: row for row in rows[1:]}
    for handle in winners:
        assert by_handle[handle][0] == "" and by_handle[handle][3:7] == ["in", "1", "1", "0"]
    for handle in losers:
        assert by_handle[handle][0] == ""
        assert by_handle[handle][3:7] == ["out in round 1 of the main bracket", "1", "0", "1"]

    (final,) = ready(cup)
    play(organiser, final, final.player_one)
    rows = _csv(client.get(f"/tournaments/{cup.pk}/standings.csv"))
    by_handle = {row[1]: row for row in rows[1:]}
    champion = by_handle[final.player_one.handle]
    assert champion[0] == "1" and champion[3:7] == ["placed", "2", "2", "0"]
    assert by_handle[final.player_two.handle][3:7] == ["placed", "2", "1", "1"]
    assert all(row[3] == "placed" for row in rows[1:])


def test_a_ranked_formats_standings_count_each_players_matches(organiser: Any, client: Client) -> None:
    players = make_players(3, prefix="r")
    cup = make_tournament(organiser, players, format="round_robin")
    for pairing in ready(cup):
        play(organiser, pairing, pairing.player_one)
    rows = _csv(client.get(f"/tournaments/{cup.pk}/standings.csv"))
    records = {row[1]: (row[3], int(row[4]), int(row[5]), int(row[6])) for row in rows[1:]}
    assert all(status == "" and played == won + lost for status, played, won, lost in records.values())
    assert sum(played for _, played, _, _ in records.values()) == 2 * 3  # three matches, two players each
    assert sum(won for _, _, won, _ in records.values()) == 3


def test_a_match_a_correction_annulled_keeps_its_row_and_its_logs_marked(organiser: Any, client: Client) -> None:
    players = make_players(8, prefix="a")
    by_handle = {player.handle: player for player in players}
    cup = make_tournament(organiser, players, format="single_elimination")

    def pairing(key: str) -> TournamentMatch:
        return TournamentMatch.objects.select_related("player_one", "player_two").get(tournament=cup, key=key)

    for key, winner in (("R1-1", "a01"), ("R1-2", "a04"), ("R1-3", "a02"), ("R1-4", "a03")):
        play(organiser, pairing(key), by_handle[winner])
    semi = pairing("R2-1")
    game = semi.match.games.get(number=1)
    data = body(won_log("speed", [semi.player_one.handle, semi.player_two.handle]))
    log, _ = log_submit(game_id=game.pk, data=data, user=organiser)
    play(organiser, semi, semi.player_one)
    annulled_match = semi.match_id
    pairing_correct(tournament_id=cup.pk, key="R1-1", winner="a08", user=organiser, confirm=True)
    assert pairing("R2-1").match_id != annulled_match

    results = _csv(client.get(f"/tournaments/{cup.pk}/results.csv"))
    header = results[0]
    rows = [dict(zip(header, row, strict=True)) for row in results[1:]]
    (set_aside,) = [row for row in rows if row["match_id"] == str(annulled_match)]
    assert set_aside["key"] == "R2-1" and set_aside["round"] == "2"
    assert set_aside["players"] == "a01 v a04" and set_aside["winner"] == "a01" and set_aside["score"] == "1-0"
    assert set_aside["result_source"] == "annulled"
    assert set_aside["counted"] == "no: annulled by the correction of R1-1"
    corrected = next(row for row in rows if row["key"] == "R1-1")
    assert (corrected["winner"], corrected["result_source"], corrected["counted"]) == ("a08", "correction", "yes")

    archive = zipfile.ZipFile(io.BytesIO(b"".join(client.get(f"/tournaments/{cup.pk}/logs.zip").streaming_content)))
    (name,) = [name for name in archive.namelist() if f"-log-{log.pk}-" in name]
    assert name.startswith(f"annulled-match-{annulled_match}-R2-1/game-1-log-{log.pk}-")
    assert archive.read(name) == data
