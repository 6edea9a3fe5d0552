"""The organiser's pages around the start and around a result: edit, delete, confirm, undo, correct a score,
and result forms that need no reason and keep what was typed."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from matches.models import Game, Match
from tests.factories import PASSWORD, make_players, make_tournament, play, play_table, ready
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db


@pytest.fixture
def orga(client: Client, organiser: Any) -> Client:
    client.login(username="orga", password=PASSWORD)
    return client


def text(response: Any) -> str:
    return html.unescape(response.content.decode())


def test_the_edit_page_is_the_tournament_form_filled_and_saves_through_the_service(orga, organiser):
    tournament = make_tournament(
        organiser, make_players(4), format="single_elimination", start=False, best_of=3, third_place=True
    )
    url = f"/organise/tournaments/{tournament.pk}/edit/"
    page = orga.get(url)
    form = page.context["form"]
    assert form["name"].value() == tournament.name and form["series_length"].value() == 3
    assert form["single_elimination-third_place"].value() is True
    body = page.content.decode()
    assert 'data-when-field="single_elimination-seeding"' in body, "the draw number shows only for a random draw"
    shown_for = re.search(r'<fieldset data-formats="([^"]*)">\s*<legend>Standings tie-breaks', body)
    assert shown_for is not None
    assert "swiss" in shown_for[1].split() and "single_elimination" not in shown_for[1].split(), "no bracket tie-breaks"
    # A refusal of the service keeps what was typed, beside the error.
    refused = orga.post(
        url,
        {
            "name": "Renamed",
            "format": "single_elimination",
            "series": "best_of",
            "series_length": 2,
            "ruleset": "speed",
            "single_elimination-seeding": "standard",
        },
    )
    assert refused.status_code == 200 and refused.context["form"]["name"].value() == "Renamed"
    assert "odd" in text(refused)
    saved = orga.post(
        url,
        {
            "name": "Renamed",
            "format": "swiss",
            "series": "best_of",
            "series_length": 1,
            "ruleset": "speed",
            "swiss-swiss_rounds": 2,
        },
    )
    assert saved["Location"] == f"/organise/tournaments/{tournament.pk}/"
    tournament.refresh_from_db()
    assert (tournament.name, tournament.format, tournament.options["swiss_rounds"]) == ("Renamed", "swiss", 2)


def test_start_confirm_undo_and_delete_through_the_pages(orga, organiser):
    tournament = make_tournament(organiser, make_players(4), format="round_robin", start=False)
    manage = f"/organise/tournaments/{tournament.pk}/"
    page = text(orga.get(manage))
    assert "Taking entrants" not in page and "Not started" in page
    confirm = orga.get(f"/organise/tournaments/{tournament.pk}/start/")
    assert "4 players" in text(confirm) and "Start now" in text(confirm)
    orga.post(f"/organise/tournaments/{tournament.pk}/start/")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert "Undo the start" in text(orga.get(manage))
    assert orga.get(f"/organise/tournaments/{tournament.pk}/edit/")["Location"] == manage, "no edit once started"
    undone = orga.post(f"/organise/tournaments/{tournament.pk}/undo-start/", follow=True)
    assert "is undone" in text(undone)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SETUP and not TournamentMatch.objects.exists()
    assert "Delete the tournament" in text(orga.get(f"/organise/tournaments/{tournament.pk}/delete/"))
    deleted = orga.post(f"/organise/tournaments/{tournament.pk}/delete/")
    assert deleted["Location"] == "/organise/"
    assert not Tournament.objects.filter(pk=tournament.pk).exists()


def test_a_played_tournament_offers_no_undo_and_refuses_deletion(orga, organiser):
    tournament = make_tournament(organiser, make_players(4), format="round_robin")
    first = ready(tournament)[0]
    play(organiser, first, first.player_one)
    manage = f"/organise/tournaments/{tournament.pk}/"
    assert "Undo the start" not in text(orga.get(manage))
    assert "cannot be deleted" in text(orga.get(f"/organise/tournaments/{tournament.pk}/delete/"))
    refused = orga.post(f"/organise/tournaments/{tournament.pk}/delete/", follow=True)
    assert "deleted only before anything is played" in text(refused)
    refused = orga.post(f"/organise/tournaments/{tournament.pk}/undo-start/", follow=True)
    assert "no game is decided" in text(refused)
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    # The match page links back to the manage page.
    assert f'href="{manage}"' in orga.get(f"/matches/{first.match_id}/").content.decode()


def test_a_first_result_needs_no_reason_and_a_failed_form_keeps_what_was_typed(orga, organiser):
    tournament = make_tournament(organiser, make_players(2), format="single_elimination", best_of=3)
    (final,) = ready(tournament)
    url = f"/organise/matches/{final.match_id}/result/"
    game = Game.objects.get(match_id=final.match_id, number=1)
    done = orga.post(url, {"game": game.pk, "winner": final.player_one.handle})
    assert done.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.DECIDED and game.reason == ""
    # A score the series cannot have: the page comes back with the numbers and the reason typed.
    failed = orga.post(url, {"action": "score", "games_one": "5", "games_two": "0", "reason": "sheet 4"})
    assert failed.status_code == 400
    body = failed.content.decode()
    assert 'value="5"' in body and 'value="sheet 4"' in body and 'role="alert"' in body
    assert Match.objects.get(pk=final.match_id).status == Match.Status.IN_PROGRESS


def test_the_score_is_corrected_game_by_game_through_the_page(orga, organiser):
    players = make_players(2)
    tournament = make_tournament(organiser, players, format="single_elimination", best_of=3)
    (final,) = ready(tournament)
    one, two = final.player_one.handle, final.player_two.handle
    for winner in (one, two, one):
        game = Game.objects.filter(match_id=final.match_id, status=Game.Status.OPEN).get()
        orga.post(f"/organise/matches/{final.match_id}/result/", {"game": game.pk, "winner": winner})
    url = f"/organise/tournaments/{tournament.pk}/correct/{final.key}/"
    page = orga.get(url)
    assert f'aria-label="Game 3 won by {two}"' in page.content.decode()
    preview = orga.get(url, {"score": "1", "g1": one, "g2": two, "g3": two})
    assert preview.context["preview"].score["after"] == {one: 1, two: 2}
    assert "becomes" in text(preview) and "Game 3:" in text(preview)
    # Applying needs a reason.
    refused = orga.post(url, {"score": "1", "g1": one, "g2": two, "g3": two, "confirm": "yes"})
    assert "Say why" in text(refused)
    applied = orga.post(url, {"score": "1", "g1": one, "g2": two, "g3": two, "confirm": "yes", "reason": "sheet"})
    assert applied["Location"] == f"/tournaments/{tournament.pk}/"
    final.refresh_from_db()
    assert (final.winner.handle, final.games_one, final.games_two) == (two, 1, 2)
    manage = re.sub(r"<[^>]+>", "", text(orga.get(f"/organise/tournaments/{tournament.pk}/")))
    assert f"{one} → {two} (game 3 corrected)" in manage


def test_a_game_is_voided_or_added_through_the_page_with_its_preview(orga, organiser):
    """2-1 recorded (one, two, one); really game 2 did not count (2-0). Then the 2-0 really was 2-1: game 3 added."""
    tournament = make_tournament(organiser, make_players(2), format="single_elimination", best_of=3)
    (final,) = ready(tournament)
    one, two = final.player_one.handle, final.player_two.handle
    for winner in (one, two, one):
        game = Game.objects.filter(match_id=final.match_id, status=Game.Status.OPEN).get()
        orga.post(f"/organise/matches/{final.match_id}/result/", {"game": game.pk, "winner": winner})
    url = f"/organise/tournaments/{tournament.pk}/correct/{final.key}/"
    page = text(orga.get(url))
    assert 'aria-label="Game 2 did not count"' in page
    assert 'data-role="game-added"' not in page, "a best of 3 recorded 2-1 has no game left to add"
    voided = {"score": "1", "g1": one, "g2": ":void", "g3": one}
    preview = orga.get(url, voided)
    assert preview.context["preview"].score["after"] == {one: 2, two: 0}
    assert f"Game 2: {two} → {one}" not in text(preview) and f"Game 2: {two} → did not count" in re.sub(
        r"<[^>]+>", "", text(preview)
    )
    assert 'name="g2" value=":void"' in text(preview), "applying sends the same games"
    applied = orga.post(url, {**voided, "confirm": "yes", "reason": "game 2 was a warm-up"})
    assert applied["Location"] == f"/tournaments/{tournament.pk}/"
    final.refresh_from_db()
    assert (final.games_one, final.games_two) == (2, 0)
    assert Game.objects.get(match_id=final.match_id, number=2).status == Game.Status.VOID

    # Now 2-0 in three games with one void: a best of 3 can still count a game after game 3.
    page = text(orga.get(url))
    assert 'aria-label="Game 4 not played"' in page and 'aria-label="Game 2 did not count" checked' in page
    added = {"score": "1", "g1": one, "g2": two, "g3": ":void", "g4": one}
    preview = orga.get(url, added)
    assert preview.context["preview"].score["after"] == {one: 2, two: 1}
    assert "Game 4: not played → " in re.sub(r"<[^>]+>", "", text(preview))
    orga.post(url, {**added, "confirm": "yes", "reason": "sheet"})
    final.refresh_from_db()
    assert (final.games_one, final.games_two) == (2, 1)
    assert Game.objects.get(match_id=final.match_id, number=4).decided_by == Game.DecidedBy.CORRECTION
    # A score the series could not end on is refused in words, on the page.
    refused = orga.get(url, {"score": "1", "g1": one, "g2": two, "g3": ":void", "g4": ":void"})
    assert refused.context["preview"] is None and "no one reaches the 2 games needed" in text(refused)


def test_a_tables_game_is_voided_or_added_through_the_page_with_its_preview(orga, organiser):
    """A best-of-3 table of three recorded p01, p02, p03 three times; really game 2 went to p02, game 3 did not
    count, and a game 4 the table never recorded went to p02 again."""
    players = make_players(3)
    tournament = make_tournament(organiser, players, format="tables", table_rounds=1, final_table_size=3, best_of=3)
    (table,) = ready(tournament)
    play_table(organiser, table, players)
    url = f"/organise/tournaments/{tournament.pk}/correct/{table.key}/"
    page = text(orga.get(url))
    assert 'name="g3void"' in page and 'data-role="game-added"' in page and 'name="g4s0"' in page
    assert 'name="g4void"' not in page, "a game never recorded is not played, or played: nothing to void"
    assert list(table.seat_ids) == [player.pk for player in players], "p01, p02, p03 in seats 0, 1, 2"
    recorded = {f"g{number}s{seat}": seat + 1 for number in (1, 2, 3) for seat in range(3)}
    given = {**recorded, "preview": "1", "g2s0": 2, "g2s1": 1, "g3void": "on", "g4s0": 2, "g4s1": 1, "g4s2": 3}
    preview = orga.get(url, given)
    assert preview.context["preview"] is not None, text(preview)
    assert preview.context["preview"].new_winner == "p02"
    words = re.sub(r"<[^>]+>", "", text(preview))
    assert "did not count" in words and "not played" in words
    partial = orga.get(url, {**recorded, "preview": "1", "g4s0": 1})
    assert partial.context["preview"] is None and "Game 4: give every player's place (missing: p02, p03)" in text(
        partial
    )
    applied = orga.post(url, {**given, "confirm": "yes", "reason": "misdeal in game 3"})
    assert applied["Location"] == f"/tournaments/{tournament.pk}/", text(applied)[:3000]
    statuses = list(Game.objects.filter(match_id=table.match_id).order_by("number").values_list("status", "places"))
    assert statuses == [("decided", [1, 2, 3]), ("decided", [2, 1, 3]), ("void", None), ("decided", [2, 1, 3])]
    page = text(orga.get(url))
    assert re.search(r'name="g3void"[^>]*checked', page), "a void game's box is ticked"


def test_a_result_refused_for_a_game_decided_meanwhile_is_said_as_a_message(orga, organiser):
    tournament = make_tournament(organiser, make_players(2), format="single_elimination")
    (final,) = ready(tournament)
    game = Game.objects.get(match_id=final.match_id)
    orga.post(f"/organise/matches/{final.match_id}/result/", {"game": game.pk, "winner": final.player_one.handle})
    late = orga.post(
        f"/organise/matches/{final.match_id}/result/", {"game": game.pk, "winner": final.player_two.handle}
    )
    assert late.status_code == 400 and "already decided" in text(late)


def as_posted(form: Any) -> dict[str, Any]:
    """What a browser sends back for the form as the page shows it: every box, empty ones as "", checked
    boxes "on" and unchecked ones left out."""
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        if value is False:
            continue
        data[name] = "on" if value is True else "" if value is None else value
    return data


def test_saving_the_edit_page_unchanged_keeps_who_confirms_and_the_table_times(orga, organiser):
    tournament = make_tournament(
        organiser,
        make_players(4),
        format="round_robin",
        start=False,
        confirmation=Match.Confirmation.NONE,
        confirm_within=None,
        table_settings={"claim_seconds": 45, "abandon_seconds": 300, "no_show_seconds": 120},
    )
    url = f"/organise/tournaments/{tournament.pk}/edit/"
    form = orga.get(url).context["form"]
    assert (form["confirmation"].value(), form["confirm_within"].value()) == ("none", None)
    assert form["table_no_show_seconds"].value() == 120
    saved = orga.post(url, as_posted(form))
    assert saved.status_code == 302, saved.context["form"].errors
    tournament.refresh_from_db()
    assert (tournament.confirmation, tournament.confirm_within) == ("none", None)
    assert tournament.table_settings == {"claim_seconds": 45, "abandon_seconds": 300, "no_show_seconds": 120}
    # And they are changed from the page too.
    changed = as_posted(orga.get(url).context["form"]) | {
        "confirmation": "opponent",
        "confirm_within": "60",
        "table_no_show_seconds": "",
    }
    assert orga.post(url, changed).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.confirmation, tournament.confirm_within) == ("opponent", 60)
    assert tournament.table_settings == {"claim_seconds": 45, "abandon_seconds": 300}
