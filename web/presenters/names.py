"""Pairings named in words ("Winners' semi-final 2", "Losers' round 2", "Round 3, table 2"), never by key.

Pure: the names come from a pairing's section, round and position, and from the
shape of its section (its last round, how many pairings each round has), which
the caller gives from rows it has already loaded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from core.numbers import is_ascii_whole

_FROM_END = {0: "final", 1: "semi-final", 2: "quarter-final"}


class PairingLike(Protocol):
    key: str
    bracket: str
    round: int
    position: int
    status: str


@dataclass(frozen=True, slots=True)
class SectionShape:
    """What a name needs to know of a pairing's section: its last round and the size of each round."""

    last_round: int
    round_sizes: dict[int, int]


def section_shapes(pairings: Iterable[PairingLike]) -> dict[str, SectionShape]:
    """The shape of every section among these pairings (byes are not matches and are not counted)."""
    sizes: dict[str, Counter[int]] = {}
    for pairing in pairings:
        counter = sizes.setdefault(pairing.bracket, Counter())
        if pairing.status != "bye":
            counter[pairing.round] += 1
        else:
            counter[pairing.round] += 0
    return {section: SectionShape(max(counter), dict(counter)) for section, counter in sizes.items() if counter}


def _numbered(name: str, pairing: PairingLike, shape: SectionShape | None) -> str:
    """Add the match's number when its round has more than one match."""
    if shape is not None and shape.round_sizes.get(pairing.round, 1) > 1:
        return f"{name} {pairing.position}"
    return name


def _knockout(prefix: str, pairing: PairingLike, shape: SectionShape | None) -> str:
    last = shape.last_round if shape is not None else pairing.round
    stage = _FROM_END.get(last - pairing.round)
    if stage is None:
        name = f"{prefix}round {pairing.round}" if prefix else f"Round {pairing.round}"
        return (
            f"{name}, match {pairing.position}"
            if shape is None or shape.round_sizes.get(pairing.round, 1) > 1
            else name
        )
    return _numbered(f"{prefix}{stage}" if prefix else stage.capitalize(), pairing, shape)


def pairing_name(pairing: PairingLike, shape: SectionShape | None = None) -> str:
    """A pairing's name in words, as every page shows it."""
    section = pairing.bracket
    if section == "main":
        return _knockout("", pairing, shape)
    if section == "winners":
        return _knockout("Winners' ", pairing, shape)
    if section == "losers":
        last = shape.last_round if shape is not None else None
        name = "Losers' final" if pairing.round == last else f"Losers' round {pairing.round}"
        return _numbered(name, pairing, shape) if pairing.round != last else name
    if section == "grand_final":
        return "Grand final" if pairing.round == 1 else "Grand final reset"
    if section == "third_place":
        return "Third-place match"
    if section == "winner_stays_on":
        return f"Match {pairing.round}"
    if section == "final_table":
        return "Final table"
    where = "bye" if pairing.status == "bye" else f"table {pairing.position}"
    if section == "group":
        group = pairing.key.split("-", 1)[0].removeprefix("G")
        letter = chr(ord("A") + int(group) - 1) if is_ascii_whole(group) and 1 <= int(group) <= 26 else group
        return f"Group {letter}, round {pairing.round}, {where}"
    return f"Round {pairing.round}, {where}"


def pairing_names(pairings: Iterable[PairingLike]) -> dict[str, str]:
    """Every pairing's name by key, from the tournament's pairings (all of them, for the sections' shapes)."""
    rows = list(pairings)
    shapes = section_shapes(rows)
    return {pairing.key: pairing_name(pairing, shapes.get(pairing.bracket)) for pairing in rows}
