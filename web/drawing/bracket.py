"""An elimination bracket laid out for an SVG: columns per round, each match centred on its feeders.

Pure geometry over the generators' plain data (`tournaments.generators`):
`bracket_boxes` reads a bracket and its state into boxes, `bracket_layout`
places them. The template draws; static/js/bracket.js highlights a player's
path on hover and focus.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from tournaments.generators import (
    Bracket,
    BracketState,
    Empty,
    EntrantId,
    MatchStatus,
    Section,
    WinnerOf,
)

BOX_W = 210
SLOT_H = 28
BOX_H = 2 * SLOT_H
COL_GAP = 56
ROW_GAP = 18
HEAD_H = 30
SECTION_GAP = 34
PAD = 2

_SECTION_ORDER = [Section.MAIN, Section.WINNERS, Section.LOSERS, Section.GRAND_FINAL, Section.THIRD_PLACE]
_SECTION_TITLES = {
    Section.MAIN: "",
    Section.WINNERS: "Winners bracket",
    Section.LOSERS: "Losers bracket",
    Section.GRAND_FINAL: "Grand final",
    Section.THIRD_PLACE: "Third place",
}


@dataclass(frozen=True, slots=True)
class BoxSlot:
    entrant: EntrantId | None
    name: str  # a handle, or "Bye" / "TBD"
    seed: int | None = None
    score: int | None = None
    won: bool | None = None  # None until the match is decided
    placeholder: bool = False


@dataclass(frozen=True, slots=True)
class BoxMatch:
    key: str
    section: Section
    round: int
    position: int
    slots: tuple[BoxSlot, BoxSlot]
    feeders: tuple[str | None, str | None]  # the match whose winner fills each slot, if any
    status: str
    url: str | None = None


@dataclass(slots=True)
class PlacedSlot:
    slot: BoxSlot
    y: float


@dataclass(slots=True)
class PlacedMatch:
    box: BoxMatch
    x: float
    y: float
    label: str
    slots: list[PlacedSlot] = field(default_factory=list)

    @property
    def centre(self) -> float:
        return self.y + BOX_H / 2

    @property
    def aria_label(self) -> str:
        one, two = self.box.slots
        score = ""
        if one.score is not None and two.score is not None:
            score = f", {one.score} to {two.score}"
        return f"{self.label}: {one.name} v {two.name}{score}"


@dataclass(frozen=True, slots=True)
class Link:
    path: str
    entrant: EntrantId | None


@dataclass(frozen=True, slots=True)
class RoundHead:
    x: float
    y: float
    label: str


@dataclass(slots=True)
class BracketDrawing:
    width: float
    height: float
    matches: list[PlacedMatch]
    links: list[Link]
    heads: list[RoundHead]
    titles: list[RoundHead]
    box_w: int = BOX_W
    box_h: int = BOX_H
    slot_h: int = SLOT_H


def round_label(section: Section, number: int, last: int) -> str:
    if section in (Section.MAIN, Section.WINNERS):
        from_end = last - number
        names = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
        if section is Section.WINNERS and from_end == 0:
            return "Winners final"
        return names.get(from_end, f"Round {number}")
    if section is Section.LOSERS:
        return "Losers final" if number == last else f"Losers round {number}"
    if section is Section.GRAND_FINAL:
        return "Grand final" if number == 1 else "Reset"
    return "Third place"


def bracket_boxes(
    bracket: Bracket,
    state: BracketState,
    *,
    names: Mapping[EntrantId, str],
    seeds: Mapping[EntrantId, int] | None = None,
    scores: Mapping[str, tuple[int, int]] | None = None,
    urls: Mapping[str, str] | None = None,
) -> list[BoxMatch]:
    """The boxes to draw, from a generated bracket and where it stands.

    `scores` are the games won in each slot's order; `urls` link each bracket
    match to its match page. Void matches (a reset that was not needed) are left out.
    """
    seeds = seeds or {}
    scores = scores or {}
    urls = urls or {}
    boxes = []
    for match in bracket.matches:
        view = state.matches[match.match_id]
        if view.status is MatchStatus.VOID:
            continue
        decided = view.status is MatchStatus.DECIDED
        slots = []
        for index, (source, entrant) in enumerate(zip(match.sources, view.entrants, strict=True)):
            score = scores.get(match.match_id)
            if entrant is None:
                placeholder = "Bye" if isinstance(source, Empty) or view.status is MatchStatus.BYE else "TBD"
                slots.append(BoxSlot(None, placeholder, placeholder=True))
                continue
            slots.append(
                BoxSlot(
                    entrant,
                    names.get(entrant, str(entrant)),
                    seed=seeds.get(entrant),
                    score=score[index] if score else None,
                    won=(view.winner == entrant) if decided or view.status is MatchStatus.BYE else None,
                )
            )
        feeders = tuple(source.match_id if isinstance(source, WinnerOf) else None for source in match.sources)
        boxes.append(
            BoxMatch(
                key=match.match_id,
                section=match.section,
                round=match.round,
                position=match.position,
                slots=(slots[0], slots[1]),
                feeders=(feeders[0], feeders[1]),
                status=view.status.value,
                url=urls.get(match.match_id),
            )
        )
    return boxes


def bracket_layout(boxes: Sequence[BoxMatch], *, last_rounds: Mapping[Section, int] | None = None) -> BracketDrawing:
    """Place boxes in columns by round, section under section, each match centred on the matches feeding it.

    `last_rounds` gives each bracket section's last round when `boxes` are only a
    part of it (a bracket drawn a region at a time): round names count from there.
    """
    last_rounds = last_rounds or {}
    placed: dict[str, PlacedMatch] = {}
    heads: list[RoundHead] = []
    titles: list[RoundHead] = []
    top = 0.0
    width = 0.0
    final: PlacedMatch | None = None
    lowest = 0.0
    columns = 0
    section_finals: list[PlacedMatch] = []
    for section in _SECTION_ORDER:
        in_section = [box for box in boxes if box.section is section]
        if not in_section:
            continue
        title = _SECTION_TITLES[section]
        first_column = 0
        section_top = top
        if section is Section.THIRD_PLACE and final is not None:
            # Under the final, in its column: where a reader looks for the other medal match.
            first_column = round((final.x - PAD) / (BOX_W + COL_GAP))
            top = final.y + BOX_H + ROW_GAP
        elif section is Section.GRAND_FINAL and section_finals:
            # Right of both brackets, level between the two finals that feed it.
            first_column = columns
            centre = sum(match.centre for match in section_finals) / len(section_finals)
            top = round(centre - BOX_H / 2 - HEAD_H)
        elif title and section is not Section.GRAND_FINAL and len({box.section for box in boxes}) > 1:
            titles.append(RoundHead(PAD, round(top + 14), title))
            top += HEAD_H
        rounds = sorted({box.round for box in in_section})
        last_round = last_rounds.get(section, rounds[-1])
        bottom = top
        for column, number in enumerate(rounds, start=first_column):
            x = PAD + column * (BOX_W + COL_GAP)
            heads.append(RoundHead(x, round(top + 16), round_label(section, number, last_round)))
            next_free = top + HEAD_H + 0.0
            for box in sorted((b for b in in_section if b.round == number), key=lambda b: b.position):
                fed_by = [
                    placed[key].centre for key in box.feeders if key in placed and placed[key].box.section is section
                ]
                centre = sum(fed_by) / len(fed_by) if fed_by else next_free + BOX_H / 2
                centre = max(centre, next_free + BOX_H / 2)
                match = PlacedMatch(box, x, round(centre - BOX_H / 2), round_label(section, number, last_round))
                match.slots = [PlacedSlot(slot, match.y + i * SLOT_H) for i, slot in enumerate(box.slots)]
                placed[box.key] = match
                next_free = match.y + BOX_H + ROW_GAP
                bottom = max(bottom, match.y + BOX_H)
            width = max(width, x + BOX_W + PAD)
        last = max((placed[box.key] for box in in_section), key=lambda match: (match.box.round, -match.box.position))
        if section is Section.MAIN:
            final = last
        elif section in (Section.WINNERS, Section.LOSERS):
            section_finals.append(last)
        columns = max(columns, first_column + len(rounds))
        if section is Section.GRAND_FINAL:
            lowest = max(lowest, bottom)
            top = section_top
            continue
        lowest = max(lowest, bottom)
        top = max(bottom, section_top) + SECTION_GAP

    links = []
    for match in placed.values():
        for index, key in enumerate(match.box.feeders):
            feeder = placed.get(key) if key else None
            # Lines stay inside a section, except the two finals that feed the grand final.
            if feeder is None or (
                feeder.box.section is not match.box.section and match.box.section is not Section.GRAND_FINAL
            ):
                continue
            x1, y1 = feeder.x + BOX_W, feeder.centre
            x2, y2 = match.x, match.y + index * SLOT_H + SLOT_H / 2
            mid = x2 - COL_GAP / 2  # turn just before the target, clear of any box in between
            winner = next((slot.entrant for slot in feeder.box.slots if slot.won), None)
            links.append(Link(f"M{x1:g} {y1:g} H{mid:g} V{y2:g} H{x2:g}", winner))
    return BracketDrawing(
        width=width,
        height=max(lowest, HEAD_H) + PAD,
        matches=list(placed.values()),
        links=links,
        heads=heads,
        titles=titles,
    )


class PairingRow(Protocol):
    """What the drawing reads from a tournament pairing (a `tournaments.models.TournamentMatch`)."""

    key: str
    bracket: str
    round: int
    position: int
    status: str
    player_one_id: int | None
    player_two_id: int | None
    winner_id: int | None
    match_id: int | None
    games_one: int
    games_two: int


def bracket_boxes_from_pairings(
    pairings: Iterable[PairingRow],
    *,
    bracket: Bracket,
    names: Mapping[EntrantId, str],
    seeds: Mapping[EntrantId, int],
    url_for_match: Callable[[int], str],
) -> list[BoxMatch]:
    """The boxes to draw from a running tournament's pairings; the generated bracket says who feeds whom."""
    sources = {match.match_id: match.sources for match in bracket.matches}
    boxes = []
    for pairing in pairings:
        if pairing.status == "void" or pairing.key not in sources:
            continue
        source = sources[pairing.key]
        settled = pairing.status in ("decided", "bye")
        played = pairing.status == "decided" and pairing.match_id is not None
        slots = []
        for index, (player_id, games) in enumerate(
            ((pairing.player_one_id, pairing.games_one), (pairing.player_two_id, pairing.games_two))
        ):
            if player_id is None:
                bye = isinstance(source[index], Empty) or pairing.status == "bye"
                slots.append(BoxSlot(None, "Bye" if bye else "TBD", placeholder=True))
                continue
            slots.append(
                BoxSlot(
                    player_id,
                    names.get(player_id, str(player_id)),
                    seed=seeds.get(player_id),
                    score=games if played else None,
                    won=(pairing.winner_id == player_id) if settled else None,
                )
            )
        feeders = tuple(item.match_id if isinstance(item, WinnerOf) else None for item in source)
        boxes.append(
            BoxMatch(
                key=pairing.key,
                section=Section(pairing.bracket),
                round=pairing.round,
                position=pairing.position,
                slots=(slots[0], slots[1]),
                feeders=(feeders[0], feeders[1]),
                status=pairing.status,
                url=url_for_match(pairing.match_id) if pairing.match_id is not None else None,
            )
        )
    return boxes


# --- Sections: a large bracket drawn a region at a time ----------------------------

#: A bracket of at most this many matches is drawn whole (64 entrants in single elimination).
WHOLE_BRACKET_MATCHES = 63
#: The most rounds one section spans: a region of up to 2**5 = 32 entrants, 31 matches.
SECTION_ROUNDS = 5
WHOLE = "all"


@dataclass(frozen=True, slots=True)
class BracketSection:
    """A part of a bracket drawn on its own: the subtree under one match, over a window of rounds.

    As start.gg's pools: every first-round match belongs to exactly one region of the
    first window, whose winners meet in the regions of the next window, and so on.
    """

    id: str  # "main-1-3": section, window, region (or "all")
    section: Section
    window: int  # 1-based, earliest rounds first
    region: int  # 1-based, in bracket order within the window
    regions: int  # how many regions the window has
    first_round: int
    last_round: int
    keys: frozenset[str]
    root: str  # the window's match the region leads to
    title: str

    @property
    def window_title(self) -> str:
        name = _SECTION_TITLES[self.section] or "Bracket"
        rounds = (
            f"round {self.first_round}"
            if self.first_round == self.last_round
            else f"rounds {self.first_round}\u2013{self.last_round}"
        )
        return f"{name}, {rounds}"


def _windows(rounds: Sequence[int]) -> list[list[int]]:
    """Rounds split into even windows of at most SECTION_ROUNDS (10 rounds: 5 and 5; 12: 4, 4 and 4)."""
    count = -(-len(rounds) // SECTION_ROUNDS)
    size = -(-len(rounds) // count)
    return [list(rounds[i : i + size]) for i in range(0, len(rounds), size)]


def bracket_sections(bracket: Bracket) -> list[BracketSection]:
    """The sections to draw a bracket in, in reading order; one ("all") for a bracket small enough to draw whole.

    Pure and deterministic: the same bracket gives the same ids, so a section's
    address stays valid while the tournament runs.
    """
    if len(bracket.matches) <= WHOLE_BRACKET_MATCHES:
        last = max(match.round for match in bracket.matches)
        keys = frozenset(match.match_id for match in bracket.matches)
        final = bracket.matches[-1].match_id
        return [BracketSection(WHOLE, Section.MAIN, 1, 1, 1, 1, last, keys, final, "Whole bracket")]
    sections: list[BracketSection] = []
    by_id = bracket.by_id
    for section in _SECTION_ORDER:
        if section is Section.THIRD_PLACE:
            continue  # drawn with the final, under it
        in_section = [match for match in bracket.matches if match.section is section]
        if not in_section:
            continue
        windows = _windows(sorted({match.round for match in in_section}))
        for window_number, window in enumerate(windows, start=1):
            first, last = window[0], window[-1]
            roots = sorted((m for m in in_section if m.round == last), key=lambda m: m.position)
            for region, root in enumerate(roots, start=1):
                keys = {root.match_id}
                todo = [root]
                while todo:
                    match = todo.pop()
                    for source in match.sources:
                        if not isinstance(source, WinnerOf):
                            continue
                        fed = by_id.get(source.match_id)
                        if fed is not None and fed.section is section and fed.round >= first:
                            keys.add(fed.match_id)
                            todo.append(fed)
                if section is Section.MAIN and window_number == len(windows):
                    keys |= {m.match_id for m in bracket.matches if m.section is Section.THIRD_PLACE}
                part = f", part {region} of {len(roots)}" if len(roots) > 1 else ""
                item = BracketSection(
                    f"{section.value}-{window_number}-{region}",
                    section,
                    window_number,
                    region,
                    len(roots),
                    first,
                    last,
                    frozenset(keys),
                    root.match_id,
                    "",
                )
                sections.append(_titled(item, part))
    return sections


def _titled(item: BracketSection, part: str) -> BracketSection:
    return BracketSection(
        item.id,
        item.section,
        item.window,
        item.region,
        item.regions,
        item.first_round,
        item.last_round,
        item.keys,
        item.root,
        f"{item.window_title}{part}",
    )


def section_onward(sections: Sequence[BracketSection], current: BracketSection, bracket: Bracket) -> str | None:
    """The id of the section the current one's winner plays on in (the next window's region), if any."""
    by_key = {key: item for item in sections for key in item.keys}
    for match in bracket.matches:
        if match.section is not current.section or match.round != current.last_round + 1:
            continue
        if any(isinstance(source, WinnerOf) and source.match_id == current.root for source in match.sources):
            found = by_key.get(match.match_id)
            return found.id if found is not None else None
    return None
