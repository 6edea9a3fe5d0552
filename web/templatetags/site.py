"""Small helpers for the site's templates.

They shape what the page's context holds and read nothing themselves: what a page
reads is read by its view, or by `web.selectors` (`nav`, the navigation's links and
counts, from `web.context_processors`); import-linter holds the tags to that.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django import template
from django.http import QueryDict
from django.template.defaulttags import querystring
from django.utils import dateformat, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from matches.time_zones import zone_label
from speedrules.text import clock as engine_clock
from web.presenters.history import change_words
from web.presenters.seats import clock_limit, names_in_words, ordinal, place_lines
from web.presenters.seats import players_title as players_title_of
from web.selectors.matches import series_score as seat_scores

register = template.Library()


@register.filter
def when(moment: datetime | None, fmt: str = "j M Y, H:i") -> SafeString | str:
    """A time as the reader's zone shows it, with that zone's abbreviation or offset ("3 Mar 2030, 10:00 CET"),
    in a `<time>` that names the instant in UTC for machines. The zone is the request's (web.middleware)."""
    if moment is None or moment == "":
        return ""
    local = timezone.localtime(moment)
    instant = moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
    return format_html('<time datetime="{}">{} {}</time>', instant, dateformat.format(local, fmt), zone_label(local))


@register.filter
def clock(t: int | None) -> str:
    """Milliseconds as `m:ss.s`, the game clock of the replay viewer."""
    return "" if t is None else engine_clock(int(t))


@register.simple_tag
def series_score(match: Any) -> tuple[int, ...]:
    """Each seat's games won (two players) or points (a table), in seat order (`{% series_score match as score %}`).

    Uses prefetched games.
    """
    return seat_scores(match)


@register.filter
def players_title(match: Any) -> str:
    """The match's players by handle: "ann v bo", "ann, bo, cy and di" at a table, "ann and cy v bo and di" in teams."""
    return _title(match, [player.handle for player in match.players])


@register.filter
def players_display_title(match: Any) -> str:
    """The same with the players' display names."""
    return _title(match, [player.display_name for player in match.players])


def _title(match: Any, names: list[str]) -> str:
    if match.is_team:
        return " v ".join(names_in_words([names[seat] for seat in team]) for team in match.teams)
    return players_title_of(names)


@register.simple_tag
def claim_words(game: Any) -> str:
    """What a claim says, in words: "ann won", "void", or a table's places ("di 1st, ann 2nd, bo and cy 3rd")."""
    match = game.match
    if match.is_table and game.claimed_places:
        lines = place_lines(game.claimed_places, [player.handle for player in match.players])
        return ", ".join(f"{line.who} {ordinal(line.place)}" for line in lines)
    return f"{game.claimed_winner.handle} won" if game.claimed_winner else "void"


@register.filter
def place_ordinal(place: int) -> str:
    return ordinal(int(place))


@register.filter
def time_limit(ms: int | None) -> str:
    return "" if ms is None else clock_limit(int(ms))


@register.filter
def dashed(values: Any) -> str:
    """Numbers joined by en dashes: a series score (2, 1), a table's points (6, 4, 1, 0)."""
    return "\N{EN DASH}".join(str(value) for value in values)


@register.filter
def ruleset_label(name: str) -> str:
    """A preset's key as words ("jokers-wild" -> "Jokers wild"); no preset is a custom ruleset."""
    return name.replace("_", " ").replace("-", " ").capitalize() if name else "Custom"


@register.filter
def metric_value(value: float | None, key: str) -> str:
    """A standings value as the table shows it: percentages with one decimal, counts whole."""
    if value is None:
        return "—"
    if key.endswith("_pct"):
        return f"{value:.1f}%"  # the metrics give percentages as 0-100
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """`{{ values|get_item:key }}`: a dict's value in a template."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def change_lines(state: Any) -> list[tuple[str, str]]:
    """A pairing's before/after state from a correction preview, as short labelled lines."""
    if not isinstance(state, dict):
        return []
    lines = []
    players = state.get("players")
    if isinstance(players, list | tuple):
        lines.append(("Players", " v ".join(str(p) if p else "TBD" for p in players)))
    if "winner" in state:
        lines.append(("Winner", str(state["winner"] or "—")))
    if state.get("status"):
        lines.append(("Status", str(state["status"]).replace("_", " ")))
    return lines


@register.filter
def dash_until(value: str, played: bool) -> str:
    """A standings cell before any game is decided: an en dash rather than numbers that mean nothing yet."""
    return value if played else "\N{EN DASH}"


@register.simple_tag(takes_context=True)
def page_query(context: Any, name: str, number: int, alone: bool = False) -> str:
    """`{% querystring %}` for a pager whose parameter is a variable (Django 5.2's tag takes literal names).

    `alone`: the page's parameter only, for a part whose HTML every visitor shares (the rounds)."""
    return querystring(context, QueryDict() if alone else None, **{name: number})


@register.filter
def history_words(change: Any) -> str:
    """A history row's change in words ("being played → waiting for confirmation; the claim: ann won")."""
    return change_words(change.before or {}, change.after or {}, of_game=change.game_id is not None)


@register.filter
def plays_at_table(match: Any) -> bool:
    """Whether a match's games can be played at a table: speed-table/1 seats two to four players each alone."""
    rules = match.ruleset or {}
    return 2 <= int(rules.get("players", 2)) <= 4 and not rules.get("teams") and not rules.get("tableau")
