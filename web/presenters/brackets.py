"""A tournament page's bracket, shaped: the index of its sections and one section's drawing.

Pure: `web.selectors.tournament_page` loads the bracket, its entrants and a
section's pairings (and caches what this makes of them); nothing here queries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.generators import Bracket, EntrantId, advance
from tournaments.models import Entrant, TournamentMatch
from web.drawing.bracket import (
    WHOLE,
    BracketDrawing,
    BracketSection,
    bracket_boxes,
    bracket_boxes_from_pairings,
    bracket_layout,
    section_onward,
)


@dataclass(frozen=True)
class SectionLink:
    id: str
    label: str
    title: str


@dataclass(frozen=True)
class BracketIndex:
    """A bracket's sections as the navigation lists them; `default` is the one with the earliest open match."""

    sections: list[SectionLink]
    windows: list[tuple[str, list[SectionLink]]]  # each window's title and its regions
    default: str
    onward: dict[str, str]  # section id -> the section its winner plays on in

    @property
    def whole(self) -> bool:
        return self.default == WHOLE


def bracket_index_of(bracket: Bracket, sections: Sequence[BracketSection], ready_keys: set[str]) -> BracketIndex:
    """The sections' navigation; the default: the section of a ready match (`ready_keys`) of the earliest round."""
    if len(sections) == 1:
        only = sections[0]
        return BracketIndex([SectionLink(only.id, only.title, only.title)], [], only.id, {})
    # Sections in reading order: of two with a ready match in the same round, the first.
    open_rounds = [(item.first_round, n, item) for n, item in enumerate(sections) if item.keys & ready_keys]
    default = min(open_rounds, key=lambda found: found[:2])[2].id if open_rounds else sections[-1].id
    windows: list[tuple[str, list[SectionLink]]] = []
    for item in sections:
        link = SectionLink(item.id, str(item.region), item.title)
        if not windows or windows[-1][0] != item.window_title:
            windows.append((item.window_title, []))
        windows[-1][1].append(link)
    onward = {}
    for item in sections:
        target = section_onward(sections, item, bracket)
        if target is not None:
            onward[item.id] = target
    links = [SectionLink(item.id, str(item.region), item.title) for item in sections]
    return BracketIndex(links, windows, default, onward)


def section_drawing(
    bracket: Bracket,
    section: BracketSection,
    *,
    entrants: Sequence[Entrant],
    pairings: Sequence[TournamentMatch],
    url_for_match: Callable[[int], str],
) -> BracketDrawing:
    """One section drawn from its pairings; before the start (no pairings), the draw the seeds give so far."""
    last_rounds: dict[Any, int] = {}
    for match in bracket.matches:
        last_rounds[match.section] = max(last_rounds.get(match.section, 0), match.round)
    names: dict[EntrantId, str] = {e.player_id: e.player.handle for e in entrants}
    seeds: dict[EntrantId, int] = {e.player_id: e.seed for e in entrants}
    if pairings:
        boxes = bracket_boxes_from_pairings(
            pairings, bracket=bracket, names=names, seeds=seeds, url_for_match=url_for_match
        )
    else:
        boxes = [
            box
            for box in bracket_boxes(bracket, advance(bracket, {}), names=names, seeds=seeds)
            if box.key in section.keys
        ]
    return bracket_layout(boxes, last_rounds=last_rounds)


def featured_section(index: BracketIndex | None) -> tuple[str, bool] | None:
    """The section the home page draws, and whether it is the whole bracket; None: no bracket."""
    if index is None:
        return None
    return (index.default, True) if index.whole else (_final_section(index), False)


def _final_section(index: BracketIndex) -> str:
    """The section with the final: the last window of the main (or winners) bracket."""
    tops = [link.id for link in index.sections if link.id.startswith(("main-", "winners-"))]
    return tops[-1] if tops else index.default
