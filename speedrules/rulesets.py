"""Rulesets: the parameter sets of speed-log/1 (spec section 3, as the extension amends it) and the named presets.

Reading a ruleset from a log happens in two steps because the spec orders
them: a field of the wrong JSON type is `bad_format` (checked with every other
format error of the document), a value out of range is `bad_ruleset`
(checked only once the whole document is well formed).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

import orjson

from .errors import ErrorCode, LogError

STALL_FROM_STACKS = "stacks"
STALL_FROM_DRAW_PILES = "draw_piles"
STALL_FROM_SPIT_CARDS = "spit_cards"
STALL_SOURCES = (STALL_FROM_STACKS, STALL_FROM_DRAW_PILES, STALL_FROM_SPIT_CARDS)

# field -> (default, inclusive range); booleans and strings have no range. The extension
# allows players 1 and hand_size 0 in some games only: `_checked_ruleset` says which.
_INT_FIELDS: dict[str, tuple[int, int, int]] = {
    "players": (2, 1, 4),
    "decks": (1, 1, 2),
    "jokers": (0, 0, 4),
    "hand_size": (5, 0, 7),
    "center_piles": (2, 1, 8),
    "stacks": (2, 0, 8),
    "stack_size": (5, 0, 20),
}
_BOOL_FIELDS: dict[str, bool] = {"same_rank": False, "joker_on_joker": False, "multi_card": False}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One game's parameters; construct through `ruleset_from_json` or `PRESETS`."""

    players: int = 2
    decks: int = 1
    jokers: int = 0
    hand_size: int = 5
    center_piles: int = 2
    stacks: int = 2
    stack_size: int = 5
    stall_source: str = STALL_FROM_STACKS
    same_rank: bool = False
    joker_on_joker: bool = False
    multi_card: bool = False
    #: The extension's fields. `()` means today's game: every seat plays alone, no stock piles.
    teams: tuple[tuple[int, ...], ...] = ()
    tableau: tuple[int, ...] = ()

    @property
    def pack_size(self) -> int:
        return 52 * self.decks + self.jokers

    @property
    def draw_piles(self) -> int:
        """How many draw piles the deal makes: one per team in a team game, else one per seat."""
        return len(self.teams) or self.players

    @property
    def draw_size(self) -> int:
        """Cards in each draw pile after the deal (valid rulesets only; a seat's spit cards in a tableau game)."""
        dealt_to_seats = self.players * (self.hand_size + sum(self.tableau))
        return (self.pack_size - self.center_piles - self.stacks * self.stack_size - dealt_to_seats) // self.draw_piles

    @property
    def stalls_from_stacks(self) -> bool:
        return self.stall_source == STALL_FROM_STACKS

    @property
    def stalls_from_draw_piles(self) -> bool:
        return self.stall_source == STALL_FROM_DRAW_PILES

    def side_of(self, seat: int) -> int:
        """The side `seat` plays for: its team's index in a team game, else the seat itself."""
        for index, team in enumerate(self.teams):
            if seat in team:
                return index
        return seat

    def to_json(self) -> dict[str, Any]:
        """All fields, as a log's `ruleset` object.

        `teams` and `tableau` appear only when they are not empty: a ruleset of
        speed-log/1 before the extension keeps exactly the object it had.
        """
        out = asdict(self)
        for name in ("teams", "tableau"):
            if out[name]:
                out[name] = [list(team) for team in self.teams] if name == "teams" else list(self.tableau)
            else:
                del out[name]
        return out


#: The ruleset fields as `read_ruleset_fields` returns them: each field's value, in `Ruleset`'s order.
RulesetFields = tuple[Any, ...]

_FIELD_NAMES: tuple[str, ...] = (*_INT_FIELDS, "stall_source", *_BOOL_FIELDS, "teams", "tableau")
#: Where `teams` is in `RulesetFields`: the result's shape depends on it, read before the ruleset is checked.
TEAMS_FIELD = _FIELD_NAMES.index("teams")
_INT_DEFAULTS = tuple((name, default) for name, (default, _low, _high) in _INT_FIELDS.items())
_BOOL_DEFAULTS = tuple(_BOOL_FIELDS.items())


# Readings already made, by the ruleset object's exact JSON text (which tells 2 from 2.0
# and true from 1, as the type checks must). Bounded: a few rulesets serve most logs.
_READINGS: dict[bytes, RulesetFields] = {}
_MAX_READINGS = 256


def read_ruleset_fields(value: object) -> RulesetFields:
    """The ruleset object's known fields with defaults filled in; wrong JSON types are `bad_format`."""
    if not isinstance(value, dict):
        raise LogError(ErrorCode.BAD_FORMAT, "`ruleset` must be an object ({} for the standard game).")
    try:
        text = orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError: not plain JSON (an integer beyond 64 bits...)
        return _read_fields(value)
    fields = _READINGS.get(text)
    if fields is None:
        fields = _read_fields(value)
        if len(_READINGS) < _MAX_READINGS:
            _READINGS[text] = fields
    return fields


def _read_fields(value: dict[str, Any]) -> RulesetFields:
    get = value.get
    fields: list[Any] = []
    for name, default in _INT_DEFAULTS:
        field = get(name, default)
        if type(field) is not int:
            raise LogError(ErrorCode.BAD_FORMAT, f"`ruleset.{name}` must be a whole number, not {field!r}.")
        fields.append(field)
    flags: list[bool] = []
    for name, flag_default in _BOOL_DEFAULTS:
        flag = get(name, flag_default)
        if type(flag) is not bool:
            raise LogError(ErrorCode.BAD_FORMAT, f"`ruleset.{name}` must be true or false, not {flag!r}.")
        flags.append(flag)
    source = get("stall_source", STALL_FROM_STACKS)
    if not isinstance(source, str):
        raise LogError(ErrorCode.BAD_FORMAT, f"`ruleset.stall_source` must be a string, not {source!r}.")
    teams = get("teams", [])
    if type(teams) is not list or not all(type(team) is list and _whole_numbers(team) for team in teams):
        raise LogError(ErrorCode.BAD_FORMAT, f"`ruleset.teams` must be a list of lists of seats, not {teams!r}.")
    tableau = get("tableau", [])
    if type(tableau) is not list or not _whole_numbers(tableau):
        raise LogError(ErrorCode.BAD_FORMAT, f"`ruleset.tableau` must be a list of whole numbers, not {tableau!r}.")
    # Every value now has its field's exact type, so equal tuples are equal rulesets: the cache key.
    return (*fields, source, *flags, tuple(map(tuple, teams)), tuple(tableau))


def _whole_numbers(values: list[Any]) -> bool:
    return all(type(value) is int for value in values)


def build_ruleset(fields: RulesetFields) -> Ruleset:
    """Range and consistency checks of spec section 3; failures are `bad_ruleset`."""
    return _checked_ruleset(fields)


@cache  # a few rulesets serve almost every log; an error is raised, never cached
def _checked_ruleset(values: RulesetFields) -> Ruleset:
    fields = dict(zip(_FIELD_NAMES, values, strict=True))
    source, tableau = fields["stall_source"], fields["tableau"]
    for name, (_default, low, high) in _INT_FIELDS.items():
        value = fields[name]
        if not low <= value <= high:
            raise _bad(f"`ruleset.{name}` is {value}; it must be from {low} to {high}.")
        # The extension's two new values, each allowed in one kind of game only.
        if name == "players" and value == 1 and source != STALL_FROM_DRAW_PILES:
            raise _bad(
                f'`ruleset.players` is 1; it must be from 2 to 4 (1 only with stall_source "{STALL_FROM_DRAW_PILES}").'
            )
        if name == "hand_size" and value == 0 and not tableau:
            raise _bad("`ruleset.hand_size` is 0; it must be from 1 to 7 (0 only with a tableau).")
    ruleset = Ruleset(**fields)
    if source not in STALL_SOURCES:
        raise _bad(f'`ruleset.stall_source` is {source!r}; it must be "stacks", "draw_piles" or "spit_cards".')
    if ruleset.stacks not in (0, ruleset.center_piles):
        raise _bad(
            f"`ruleset.stacks` is {ruleset.stacks}; it must be 0 or equal to center_piles ({ruleset.center_piles})."
        )
    if ruleset.stacks == 0 and ruleset.stalls_from_stacks:
        raise _bad('A game with no replacement stacks needs stall_source "draw_piles".')
    if ruleset.stacks > 0 and not ruleset.stalls_from_stacks:
        raise _bad(f'A game with stall_source "{source}" must have stacks 0.')
    _check_tableau(ruleset)
    _check_teams(ruleset)
    remaining = ruleset.pack_size - ruleset.center_piles - ruleset.stacks * ruleset.stack_size
    if not ruleset.teams and not ruleset.tableau:
        if remaining < 0 or remaining % ruleset.players or remaining // ruleset.players < ruleset.hand_size:
            raise _bad(
                f"The pack of {ruleset.pack_size} cards cannot be dealt: after {ruleset.center_piles} starters and "
                f"{ruleset.stacks}x{ruleset.stack_size} replacement cards, {remaining} cards do not split into "
                f"{ruleset.players} equal shares of at least {ruleset.hand_size}."
            )
        return ruleset
    to_draw = remaining - ruleset.players * (ruleset.hand_size + sum(ruleset.tableau))
    least = 1 if source == STALL_FROM_SPIT_CARDS else 0
    if to_draw < 0 or to_draw % ruleset.draw_piles or to_draw // ruleset.draw_piles < least:
        raise _bad(
            f"The pack of {ruleset.pack_size} cards cannot be dealt: after {ruleset.center_piles} starters, "
            f"{ruleset.stacks}x{ruleset.stack_size} replacement cards and each seat's hand and stock piles, "
            f"{to_draw} cards do not split into {ruleset.draw_piles} equal draw piles of at least {least}."
        )
    return ruleset


def _bad(message: str) -> LogError:
    return LogError(ErrorCode.BAD_RULESET, message)


def _check_tableau(ruleset: Ruleset) -> None:
    """The extension's tableau rules (Spit): stock piles, spit cards, one spit pile per seat."""
    tableau = ruleset.tableau
    if len(tableau) > 8 or not all(1 <= size <= 20 for size in tableau):
        raise _bad(f"`ruleset.tableau` is {list(tableau)}; it holds at most 8 stock piles of 1 to 20 cards.")
    spit = ruleset.stall_source == STALL_FROM_SPIT_CARDS
    if tableau and not spit:
        raise _bad(f'A game with a tableau needs stall_source "{STALL_FROM_SPIT_CARDS}".')
    if spit and not tableau:
        raise _bad(f'A game with stall_source "{STALL_FROM_SPIT_CARDS}" needs a tableau.')
    if tableau and ruleset.hand_size != 0:
        raise _bad(f"A game with a tableau has no hand: hand_size must be 0, not {ruleset.hand_size}.")
    if tableau and ruleset.center_piles != ruleset.players:
        raise _bad(
            f"A game with a tableau has one spit pile per seat: center_piles must be {ruleset.players}, "
            f"not {ruleset.center_piles}."
        )
    if tableau and ruleset.multi_card:
        raise _bad("A game with a tableau has no runs: multi_card must be false.")
    if tableau and ruleset.teams:
        raise _bad("A game with a tableau has no teams.")


def _check_teams(ruleset: Ruleset) -> None:
    """Two or more teams of the same size, at least two seats each, holding every seat once."""
    teams = ruleset.teams
    if not teams:
        return
    if len(teams) < 2 or any(len(team) < 2 for team in teams) or len({len(team) for team in teams}) > 1:
        raise _bad(
            f"`ruleset.teams` is {[list(team) for team in teams]}; it needs two or more teams of the same size, at least two seats each."
        )
    if sorted(seat for team in teams for seat in team) != list(range(ruleset.players)):
        raise _bad(
            f"`ruleset.teams` is {[list(team) for team in teams]}; the teams must hold every seat from 0 to "
            f"{ruleset.players - 1} exactly once."
        )


def ruleset_from_json(value: object) -> Ruleset:
    """A checked ruleset from a log's `ruleset` object (raises `LogError`)."""
    return build_ruleset(read_ruleset_fields(value))


PRESETS: dict[str, Ruleset] = {
    "speed": Ruleset(),
    "doubles": Ruleset(same_rank=True),
    "jokers-wild": Ruleset(jokers=2),
    "three-card-hands": Ruleset(hand_size=3),
    "seven-card-stacks": Ruleset(stack_size=7),
    "runs-at-once": Ruleset(multi_card=True),
    "california": Ruleset(hand_size=4, center_piles=4, stacks=0, stall_source=STALL_FROM_DRAW_PILES),
    "three-way": Ruleset(players=3, jokers=2, center_piles=3, stacks=3),
    "four-way": Ruleset(players=4, decks=2, center_piles=4, stacks=4),
    # The extension's games (speed-log-v1-extension.md, section 3).
    "solitaire": Ruleset(players=1, hand_size=4, center_piles=4, stacks=0, stall_source=STALL_FROM_DRAW_PILES),
    "team": Ruleset(
        players=4, hand_size=4, center_piles=4, stacks=0, stall_source=STALL_FROM_DRAW_PILES, teams=((0, 2), (1, 3))
    ),
    "spit": Ruleset(hand_size=0, stacks=0, stall_source=STALL_FROM_SPIT_CARDS, tableau=(1, 2, 3, 4, 5)),
    "double-spit": Ruleset(decks=2, hand_size=4, center_piles=8, stacks=0, stall_source=STALL_FROM_DRAW_PILES),
}
