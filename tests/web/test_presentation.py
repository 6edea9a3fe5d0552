"""The viewer's inputs and the small drawing helpers, without a browser or a database."""

from __future__ import annotations

import orjson
import pytest
from django.template import Context, Template

from tests.factories import engine_steps, load
from web.drawing.charts import line_chart, nice_step
from web.presenters.replay import build_replay
from web.templatetags.cards import card_label, card_text

VALID = ["valid-speed-1001.json", "valid-california-1004.json", "valid-jokers-wild-1005.json"]


@pytest.mark.parametrize("name", VALID)
def test_after_a_play_the_step_shows_the_played_card_on_its_pile(name: str) -> None:
    # The viewer shows a step's description beside its table: the table must be *after* that event.
    document = orjson.loads(load(name))
    steps = engine_steps(load(name))
    for index, event in enumerate(document["events"]):
        if event["type"] == "play":
            played = event["cards"][-1] if "cards" in event else event["card"]
            assert steps[index + 1]["pile_tops"][event["pile"]] == played, (index, steps[index + 1]["description"])


@pytest.mark.parametrize("name", VALID)
def test_the_pack_is_whole_at_every_step(name: str) -> None:
    steps = engine_steps(load(name))
    pack = steps[0]["total"]
    for step in steps:
        counted = sum(step["hands"]) + sum(step["draws"]) + sum(step["piles"]) + sum(step["stacks"])
        assert counted == step["total"] == pack


def test_a_verified_replay() -> None:
    steps = engine_steps(load("valid-speed-1001.json"))
    replay = build_replay(steps=steps, players=["tomas", "quinn"], pack=52, status="verified", winner_seat=0)
    assert not replay.rejected
    assert replay.fail_step is None
    assert replay.last_step == len(steps) - 1
    assert replay.winner_name == "tomas"
    assert [line.text for line in replay.transcript] == [step["description"] for step in steps]
    assert replay.chart is not None
    assert [series.values[0] for series in replay.chart.series] == [20, 20]
    assert replay.data["chart"]["count"] == len(steps)


def test_a_rejected_replay_ends_at_the_failing_event() -> None:
    steps = engine_steps(load("invalid-no_fit-1012.json"))
    replay = build_replay(
        steps=steps, players=["ben", "mara"], pack=None, status="rejected", code="no_fit", event=16, message="x"
    )
    assert replay.rejected
    assert replay.fail_step == 16 == len(steps) - 1
    assert replay.data["pack"] == 52  # taken from the deal when the ruleset is unknown
    assert replay.transcript[-1].failing
    assert not any(line.failing for line in replay.transcript[:-1])


def test_a_log_rejected_before_the_deal_has_no_steps() -> None:
    replay = build_replay(steps=[], players=["a", "b"], pack=52, status="rejected", code="bad_deck")
    assert replay.chart is None and replay.fail_step is None and replay.transcript == ()


def test_card_words_and_markup() -> None:
    assert card_text("QH") == "Q♥"
    assert card_text("10S") == "10♠"
    assert card_text("JK") == "JK"
    assert card_text(None) == "—"
    assert card_label("AS") == "Ace of spades"
    assert card_label("10D") == "10 of diamonds"
    html = Template('{% load cards %}{% card "QH" %}{% card "7C" %}{% card "JK" %}').render(Context())
    assert 'aria-label="Queen of hearts"' in html
    assert "pcard pcard--red pcard--court" in html
    assert 'aria-label="7 of clubs"' in html and "pcard--red" not in html.split("7 of clubs")[0].split("Queen")[1]
    assert 'aria-label="Joker"' in html


def test_line_chart_geometry() -> None:
    assert nice_step(20) == 5
    assert nice_step(300) == 100
    chart = line_chart([("a", [20, 14, 9]), ("b", [20, 15, 8])], width=200, height=100, steps=True, y_min=0)
    assert chart.y_min == 0 and chart.y_max == 20
    assert chart.series[0].points[0] == (chart.left, chart.top)  # 20 is the top of the plot
    assert chart.series[0].points[-1][0] == chart.right
    assert "H" in chart.series[0].path and "V" in chart.series[0].path  # a staircase
    assert [tick.label for tick in chart.y_ticks] == ["0", "5", "10", "15", "20"]
