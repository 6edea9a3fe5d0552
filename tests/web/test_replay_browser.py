"""The replay viewer in a real browser: what it shows at each step is what the engine computed."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from playwright.sync_api import Page, expect

from benchmarks.long_log import long_log
from replays.services import solitaire_submit
from speedrules import simulate
from tests.factories import engine_steps, load, make_player, submit, won_log

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Everything the viewer shows for the current step, read from the visible text
# (the count badges, the count panel, the event line) and the drawn cards.
READ_TABLE = """() => {
  const root = document.querySelector('[data-replay]');
  const seats = [...root.querySelectorAll('.seat')].sort((a, b) => a.dataset.seat - b.dataset.seat);
  const text = (node) => node ? node.textContent.trim() : null;
  return {
    step: Number(root.dataset.step),
    label: text(root.querySelector('[data-role=step-label]')),
    description: text(root.querySelector('[data-role=description]')),
    hands: seats.map(s => [...s.querySelectorAll('[data-role=hand] .pcard')].map(c => c.dataset.card)),
    draws: seats.map(s => Number(text(s.querySelector('[data-role=draw] .pile__count')))),
    cardsLeft: seats.map(s => Number(text(s.querySelector('[data-role=cards-left]')))),
    piles: [...root.querySelectorAll('[data-role=centre] [data-role=pile] .pile__count')].map(n => Number(text(n))),
    pileTops: [...root.querySelectorAll('[data-role=centre] [data-role=pile] .pcard')].map(c => c.dataset.card || null),
    stacks: [...root.querySelectorAll('[data-role=centre] [data-role=stack] .pile__count')].map(n => Number(text(n))),
    counts: Object.fromEntries([...root.querySelectorAll('[data-role=counts-body] tr')].map(
      tr => [text(tr.querySelector('th')), Number(text(tr.querySelector('td')))])),
    total: Number(text(root.querySelector('[data-role=total]'))),
    pack: text(root.querySelector('[data-role=pack]')),
    scrubber: Number(root.querySelector('[data-role=scrubber]').value),
  };
}"""


def read_table(page: Page) -> dict[str, Any]:
    return page.evaluate(READ_TABLE)


def assert_shows(shown: dict[str, Any], step: dict[str, Any], index: int, players: list[str]) -> None:
    assert shown["step"] == index
    assert shown["scrubber"] == index
    assert shown["description"].startswith(step["description"])
    assert shown["hands"] == step["hand_cards"]
    assert shown["draws"] == step["draws"]
    assert shown["cardsLeft"] == step["cards_left"]
    assert shown["piles"] == step["piles"]
    assert shown["pileTops"] == step["pile_tops"]
    assert shown["stacks"] == step["stacks"]
    for seat, name in enumerate(players):
        assert shown["counts"][f"{name} · hand"] == step["hands"][seat]
        assert shown["counts"][f"{name} · draw pile"] == step["draws"][seat]
    assert shown["total"] == step["total"] == 52
    assert shown["pack"] == "52 ✓"


@pytest.fixture
def verified_log(organiser: Any) -> Any:
    log = submit(load("valid-speed-1001.json"), user=organiser)
    assert log.status == "verified"
    return log


def open_replay(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("[data-replay]")).to_have_attribute("data-ready", "true")


def test_stepping_with_the_keyboard_shows_the_engines_counts_at_every_step(
    page: Page, live_server: Any, verified_log: Any, shot: Callable[[Page, str], Any]
) -> None:
    data = load("valid-speed-1001.json")
    steps = engine_steps(data)
    players = orjson.loads(data)["players"]
    open_replay(page, f"{live_server.url}/replays/{verified_log.pk}/")

    assert_shows(read_table(page), steps[0], 0, players)
    page.locator("[data-role=table]").focus()
    for index in range(1, len(steps)):
        page.keyboard.press("ArrowRight")
        assert_shows(read_table(page), steps[index], index, players)
    # At the end: the winner has nothing left, the pack is still whole.
    assert read_table(page)["cardsLeft"][0] == 0
    page.keyboard.press("ArrowRight")  # past the end stays at the end
    assert read_table(page)["step"] == len(steps) - 1

    page.keyboard.press("Home")
    assert_shows(read_table(page), steps[0], 0, players)
    page.keyboard.press("End")
    assert_shows(read_table(page), steps[-1], len(steps) - 1, players)
    page.keyboard.press("ArrowLeft")
    assert_shows(read_table(page), steps[-2], len(steps) - 2, players)
    expect(page).to_have_url(re.compile(rf"#step={len(steps) - 2}$"))  # written back as it moves

    page.keyboard.press("Home")
    for _ in range(17):
        page.keyboard.press("ArrowRight")
    shot(page, "replay")


def test_a_link_with_a_step_opens_at_that_moment(page: Page, live_server: Any, verified_log: Any) -> None:
    data = load("valid-speed-1001.json")
    steps = engine_steps(data)
    players = orjson.loads(data)["players"]
    url = f"{live_server.url}/replays/{verified_log.pk}/"

    open_replay(page, f"{url}#step=17")
    shown = read_table(page)
    assert_shows(shown, steps[17], 17, players)
    assert shown["label"] == f"Step 17 of {len(steps) - 1}"

    # Following an in-page link to another step moves the viewer there.
    page.evaluate("location.hash = '#step=5'")
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", "5")
    assert_shows(read_table(page), steps[5], 5, players)

    # Moving writes the step back into the address, ready to be copied.
    page.locator("[data-role=table]").focus()
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(r"#step=6$"))  # waits: the viewer writes it after the key

    # A step past the end opens at the end.
    open_replay(page, f"{url}#step=999")
    assert read_table(page)["step"] == len(steps) - 1


def test_buttons_scrubber_and_play(page: Page, live_server: Any, verified_log: Any) -> None:
    steps = engine_steps(load("valid-speed-1001.json"))
    page.clock.install()  # the page's timers run on a clock the test can move on at will
    open_replay(page, f"{live_server.url}/replays/{verified_log.pk}/")
    page.get_by_role("button", name="Next step (→)").click()
    page.get_by_role("button", name="Next step (→)").click()
    assert read_table(page)["step"] == 2
    page.get_by_role("button", name="Previous step (←)").click()
    assert read_table(page)["step"] == 1
    page.get_by_role("button", name="Last step (End)").click()
    assert read_table(page)["step"] == len(steps) - 1
    page.get_by_role("button", name="First step (Home)").click()
    assert read_table(page)["step"] == 0

    page.locator("[data-role=scrubber]").fill("20")
    assert read_table(page)["step"] == 20

    page.locator("[data-role=speed]").select_option("12")
    page.locator("[data-role=table]").focus()
    page.keyboard.press("Space")
    expect(page.locator("[data-replay]")).to_have_attribute("data-playing", "true")
    expect(page.get_by_role("button", name="Pause (space)")).to_be_visible()
    # Played on to step 23 or beyond (a regex, not a script: the page's CSP allows no eval).
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", re.compile(r"^(2[3-9]|[3-9]\d|\d{3,})$"))
    page.keyboard.press("Space")
    expect(page.locator("[data-replay]")).to_have_attribute("data-playing", "false")
    paused_at = read_table(page)["step"]
    page.clock.run_for(5_000)  # fires every timer due in five seconds: playing at 12 steps a second would move on
    assert read_table(page)["step"] == paused_at

    # Played to the end, it stops there.
    page.get_by_role("button", name="Play (space)").click()
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", str(len(steps) - 1), timeout=15_000)
    expect(page.locator("[data-replay]")).to_have_attribute("data-playing", "false")


def test_a_rejected_log_replays_up_to_the_failing_event(
    page: Page, live_server: Any, organiser: Any, shot: Callable[[Page, str], Any]
) -> None:
    data = load("invalid-no_fit-1012.json")
    log = submit(data, user=organiser)
    assert (log.status, log.code, log.event) == ("rejected", "no_fit", 16)
    steps = engine_steps(data)
    assert len(steps) == 17  # the deal and events 0..15

    open_replay(page, f"{live_server.url}/replays/{log.pk}/")
    banner = page.locator("[data-role=banner]")
    expect(banner).to_contain_text("Rejected: no_fit at event 16")
    expect(banner).to_contain_text(log.message)

    banner.get_by_role("link", name="Go to the failing event").click()
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", "16")
    assert_shows(read_table(page), steps[16], 16, orjson.loads(data)["players"])
    event_line = page.locator("[data-role=event]")
    expect(event_line).to_have_class(re.compile("event-line--fail"))
    expect(event_line).to_contain_text("event 16 is rejected (no_fit)")
    assert read_table(page)["scrubber"] == 16
    # The replay goes no further than the failing event.
    page.locator("[data-role=table]").focus()
    page.keyboard.press("ArrowRight")
    assert read_table(page)["step"] == 16
    shot(page, "replay-rejected")


def test_a_log_rejected_before_the_deal_says_there_is_no_table(page: Page, live_server: Any, organiser: Any) -> None:
    log = submit(load("invalid-bad_deck-1008.json"), user=organiser)
    assert log.code == "bad_deck"
    page.goto(f"{live_server.url}/replays/{log.pk}/")
    expect(page.locator("[data-role=banner]")).to_contain_text("bad_deck")
    expect(page.get_by_text("No table to show.")).to_be_visible()


def test_replay_on_a_phone(
    new_page: Callable[..., Page], live_server: Any, organiser: Any, shot: Callable[[Page, str], Any]
) -> None:
    data = load("valid-california-1004.json")
    log = submit(data, user=organiser)
    assert log.status == "verified"
    steps = engine_steps(data)
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    open_replay(page, f"{live_server.url}/replays/{log.pk}/#step=12")
    shown = read_table(page)
    assert shown["piles"] == steps[12]["piles"]
    assert len(shown["piles"]) == 4 and shown["stacks"] == []  # California: four piles, no stacks
    assert shown["total"] == 52
    # Nothing wider than the screen: the page never scrolls sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "replay-phone")


# What the viewer highlights at the current step: the moved card, its source and its pile.
READ_HIGHLIGHTS = """() => {
  const root = document.querySelector('[data-replay]');
  const pick = (selector) => [...root.querySelectorAll(selector)];
  return {
    moved: pick('[data-role=centre] .pcard.is-moved').map(c => [Number(c.closest('[data-role=pile]').dataset.pile), c.dataset.card]),
    targets: pick('[data-role=centre] [data-role=pile].is-target').map(p => Number(p.dataset.pile)),
    hands: pick('.seat [data-role=hand].is-source').map(h => Number(h.closest('.seat').dataset.seat)),
    stacks: pick('[data-role=centre] [data-role=stack].is-source').length,
    bounced: pick('.seat .pcard.is-bounced').map(c => [Number(c.closest('.seat').dataset.seat), c.dataset.card]),
  };
}"""


def test_the_card_that_moved_its_source_and_its_pile_are_highlighted(
    page: Page, live_server: Any, verified_log: Any, shot: Callable[[Page, str], Any]
) -> None:
    data = load("valid-speed-1001.json")
    events = orjson.loads(data)["events"]
    steps = engine_steps(data)
    open_replay(page, f"{live_server.url}/replays/{verified_log.pk}/")
    assert page.evaluate(READ_HIGHLIGHTS) == {"moved": [], "targets": [], "hands": [], "stacks": 0, "bounced": []}
    page.locator("[data-role=table]").focus()
    kinds = set()
    for index, event in enumerate(events, start=1):
        page.keyboard.press("ArrowRight")
        shown = page.evaluate(READ_HIGHLIGHTS)
        kinds.add(event["type"])
        if event["type"] == "play":
            assert shown["moved"] == [[event["pile"], event["card"]]], index
            assert shown["targets"] == [event["pile"]] and shown["hands"] == [event["player"]], index
        elif event["type"] == "stall":
            flipped = [
                pile for pile, top in enumerate(steps[index]["pile_tops"]) if top != steps[index - 1]["pile_tops"][pile]
            ]
            assert shown["targets"] == flipped and shown["hands"] == [], index
            assert shown["moved"] == [[pile, steps[index]["pile_tops"][pile]] for pile in flipped]
            assert shown["stacks"] == len(flipped)
        else:
            assert shown["moved"] == [] and shown["hands"] == [], index
    assert {"play", "stall", "speed"} <= kinds
    # Stepping back shows what the event of that step moved, too.
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(READ_HIGHLIGHTS)["moved"] == [[events[0]["pile"], events[0]["card"]]]
    shot(page, "replay-highlight")


def test_a_collision_shows_the_card_taken_back(page: Page, live_server: Any, organiser: Any) -> None:
    document = long_log(120)
    log = submit(orjson.dumps(document), user=organiser)
    assert log.status == "verified"
    index = next(i for i, event in enumerate(document["events"]) if event["type"] == "collision")
    event = document["events"][index]
    open_replay(page, f"{live_server.url}/replays/{log.pk}/#step={index + 1}")
    shown = page.evaluate(READ_HIGHLIGHTS)
    assert shown["bounced"] == [[event["player"], event["card"]]]
    assert shown["targets"] == [event["pile"]] and shown["hands"] == [event["player"]]
    assert shown["moved"] == []  # nothing moved


def test_the_event_list_moves_the_step_and_leaves_the_page_where_it_is(
    page: Page, live_server: Any, verified_log: Any
) -> None:
    steps = engine_steps(load("valid-speed-1001.json"))
    players = orjson.loads(load("valid-speed-1001.json"))["players"]
    page.set_viewport_size({"width": 1280, "height": 700})
    open_replay(page, f"{live_server.url}/replays/{verified_log.pk}/")
    line = page.locator("#replay-step-30 a")
    line.scroll_into_view_if_needed()  # the reader has the line in sight: the click itself needs no scroll
    before = page.evaluate("window.scrollY")
    table_top = page.evaluate("document.querySelector('[data-role=table]').getBoundingClientRect().top")
    line.click()
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", "30")
    assert_shows(read_table(page), steps[30], 30, players)
    assert page.evaluate("window.scrollY") == before
    assert page.evaluate("document.querySelector('[data-role=table]').getBoundingClientRect().top") == table_top
    expect(page.locator("#replay-step-30")).to_have_class(re.compile("is-current"))
    expect(page).to_have_url(re.compile(r"#step=30$"))


def test_space_toggles_play_even_on_a_focused_button(page: Page, live_server: Any, verified_log: Any) -> None:
    page.clock.install()
    open_replay(page, f"{live_server.url}/replays/{verified_log.pk}/#step=3")
    replay = page.locator("[data-replay]")
    next_button = page.get_by_role("button", name="Next step (→)")
    next_button.focus()
    page.keyboard.press("Space")
    expect(replay).to_have_attribute("data-playing", "true")
    assert read_table(page)["step"] == 3  # the focused button was not pressed
    page.keyboard.press("Space")
    expect(replay).to_have_attribute("data-playing", "false")
    assert read_table(page)["step"] == 3
    # The same on a link of the event list.
    page.locator("#replay-step-5 a").focus()
    page.keyboard.press("Space")
    expect(replay).to_have_attribute("data-playing", "true")
    page.keyboard.press("Space")
    expect(replay).to_have_attribute("data-playing", "false")
    assert read_table(page)["step"] == 3
    # Enter still presses the button.
    next_button.focus()
    page.keyboard.press("Enter")
    assert read_table(page)["step"] == 4


def test_a_step_out_of_range_is_clamped_and_the_address_says_so(
    page: Page, live_server: Any, verified_log: Any
) -> None:
    last = len(engine_steps(load("valid-speed-1001.json"))) - 1
    url = f"{live_server.url}/replays/{verified_log.pk}/"
    open_replay(page, f"{url}#step=999")
    assert read_table(page)["step"] == last
    expect(page).to_have_url(re.compile(rf"#step={last}$"))
    page.evaluate("location.hash = '#step=3'")
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", "3")
    page.evaluate("location.hash = '#step=5000'")
    expect(page).to_have_url(re.compile(rf"#step={last}$"))
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", str(last))


def test_a_result_mismatch_says_every_event_passed(page: Page, live_server: Any, organiser: Any) -> None:
    data = load("invalid-result_mismatch-1059.json")
    log = submit(data, user=organiser)
    assert (log.status, log.code, log.event) == ("rejected", "result_mismatch", None)
    steps = engine_steps(data)
    assert len(steps) == len(orjson.loads(data)["events"]) + 1  # every event passed
    open_replay(page, f"{live_server.url}/replays/{log.pk}/")
    banner = page.locator("[data-role=banner]")
    expect(banner).to_contain_text("Every event passed")
    expect(banner).to_contain_text("does not follow")
    expect(banner).not_to_contain_text("just before that event")
    banner.get_by_role("link", name="Go to the last event").click()
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", str(len(steps) - 1))


def test_a_5000_event_replay_loads_in_chunks_and_steps_through(
    page: Page, live_server: Any, organiser: Any, shot: Callable[[Page, str], Any]
) -> None:
    document = long_log(5000)
    data = orjson.dumps(document)
    log = submit(data, user=organiser)
    assert log.status == "verified"
    steps = engine_steps(data)
    players = document["players"]
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if "/steps/" in request.url else None)
    response = page.goto(f"{live_server.url}/replays/{log.pk}/")
    assert response is not None and len(response.body()) <= 100_000
    expect(page.locator("[data-replay]")).to_have_attribute("data-ready", "true")
    assert fetched == []  # the first chunk is in the page
    assert page.locator("[data-role=transcript] li").count() == 200

    page.locator("[data-role=table]").focus()
    page.keyboard.press("End")
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", "5000")
    assert_shows(read_table(page), steps[5000], 5000, players)
    assert len(fetched) == 1 and "steps/compact/?from=5000" in fetched[0]
    expect(page.locator("#replay-step-5000")).to_have_class(re.compile("is-current"))
    for index in (4999, 4998):
        page.keyboard.press("ArrowLeft")
        expect(page.locator("[data-replay]")).to_have_attribute("data-step", str(index))
        assert_shows(read_table(page), steps[index], index, players)

    # Across a chunk's edge, stepping on shows each step as the engine computed it.
    page.evaluate("location.hash = '#step=2395'")
    expect(page.locator("[data-replay]")).to_have_attribute("data-step", "2395")
    for index in range(2396, 2406):
        page.keyboard.press("ArrowRight")
        expect(page.locator("[data-replay]")).to_have_attribute("data-step", str(index))
        assert_shows(read_table(page), steps[index], index, players)
    assert all("count=200" in url for url in fetched) and len(fetched) <= 4
    shot(page, "replay-long")


def test_a_spit_replay_counts_the_whole_pack_with_the_stock_piles(
    page: Page, live_server: Any, organiser, shot: Callable[[Page, str], Any]
) -> None:
    """A Spit table keeps most cards in stock piles: the counts panel includes them at every step."""
    document = won_log("spit", ["sam", "tia"])
    log = submit(orjson.dumps(document), user=organiser)
    steps = engine_steps(orjson.dumps(document))
    assert steps[0].get("stock"), "a Spit step carries its stock piles"
    page.goto(f"{live_server.url}/replays/{log.pk}/")
    expect(page.locator("[data-replay]")).to_have_attribute("data-ready", "true")
    for index in (0, len(steps) // 2, len(steps) - 1):
        page.goto(f"{live_server.url}/replays/{log.pk}/#step={index}")
        page.reload()
        expect(page.locator("[data-replay]")).to_have_attribute("data-step", str(index))
        shown = read_table(page)
        assert shown["total"] == steps[index]["total"] == 52
        assert shown["pack"].startswith("52 ✓")
        for seat, name in enumerate(["sam", "tia"]):
            assert shown["counts"][
                f"{name} · stock piles ({' + '.join(map(str, steps[index]['stock'][seat]))})"
            ] == sum(steps[index]["stock"][seat])
        drawn = page.evaluate(
            """() => [...document.querySelectorAll('.seat')].sort((a, b) => a.dataset.seat - b.dataset.seat).map(
                 seat => [...seat.querySelectorAll('[data-role=stock]')].map(pile => [
                   Number(pile.dataset.count), pile.querySelector('.pcard')?.dataset.card || null]))"""
        )
        expected = [
            [[count, top] for count, top in zip(counts, tops, strict=True)]
            for counts, tops in zip(steps[index]["stock"], steps[index]["stock_tops"], strict=True)
        ]
        assert drawn == expected  # each seat's stock piles, each with its count and face-up top card
    shot(page, "replay-spit")


def test_a_solitaire_replay_shows_one_seat_and_the_whole_pack(page: Page, live_server: Any) -> None:
    sam = make_player("sam")
    document = next(
        doc
        for seed in range(50)
        if (doc := simulate("solitaire", seed=seed, players=["sam"]))["result"].get("winner") == 0
    )
    run, _ = solitaire_submit(data=orjson.dumps(document), user=sam.user)
    steps = engine_steps(orjson.dumps(document))
    page.goto(f"{live_server.url}/solitaire/{run.pk}/replay/#step={len(steps) - 1}")
    expect(page.locator("[data-replay]")).to_have_attribute("data-ready", "true")
    shown = read_table(page)
    assert len(shown["hands"]) == 1
    assert shown["hands"] == steps[-1]["hand_cards"]
    assert shown["total"] == steps[-1]["total"] == 52 and shown["pack"].startswith("52 ✓")
    page.goto(f"{live_server.url}/solitaire/")
    expect(page.locator("[data-role=leaderboard]")).to_contain_text("sam")


def test_a_team_speed_replay_draws_one_draw_pile_per_team_and_counts_the_pack(
    page: Page, live_server: Any, organiser, shot: Callable[[Page, str], Any]
) -> None:
    """Team Speed: four seats, two teams sharing a draw pile each; the counts panel reads the whole pack."""
    players = ["ann", "bo", "cy", "di"]
    document = won_log("team", players, winner_seat=0)  # seats 0 and 2 (ann and cy) win
    log = submit(orjson.dumps(document), user=organiser)
    assert log.status == "verified"
    steps = engine_steps(orjson.dumps(document))
    assert len(steps[0]["draws"]) == 2, "a team game has one draw pile per team"
    for index in (0, len(steps) // 2, len(steps) - 1):
        page.goto(f"{live_server.url}/replays/{log.pk}/#step={index}")
        page.reload()
        expect(page.locator("[data-replay]")).to_have_attribute("data-step", str(index))
        shown = read_table(page)
        step = steps[index]
        assert shown["hands"] == step["hand_cards"]
        assert shown["cardsLeft"] == step["cards_left"]
        # Partners show their team's one draw pile (seats 0 and 2 share team 0's, 1 and 3 team 1's).
        assert shown["draws"] == [step["draws"][seat % 2] for seat in range(4)]
        assert shown["piles"] == step["piles"]
        assert shown["total"] == step["total"] == 52
        assert shown["pack"].startswith("52 ✓")
    seats = page.locator(".seat")
    expect(seats).to_have_count(4)
    shot(page, "replay-team")
