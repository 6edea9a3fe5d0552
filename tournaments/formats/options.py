"""Each format's options: one declared schema that the services, the site's form and the API all read.

A format names its options class (`TournamentFormat.options`): a frozen
dataclass whose every field is declared with `option(...)` (its kind, bounds,
default, label and help text). A tournament stores its format's options as one
JSON object (`Tournament.options`):

- `tournament_create` checks what it is given with `FormatOptions.clean`
  (an unknown name, a wrong type or a value out of range is an `Invalid` naming
  `options.<name>`), and stores `to_json()` of the result;
- the formats read them typed (`SwissOptions.of(tournament).swiss_rounds`);
- `web.forms.TournamentForm` draws a fieldset per format from `specs()`, and
  `tournaments.api.serializers` documents an object per format from them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Self

from core.errors import Invalid
from matches.placings import DEFAULT_POINTS_PER_PLACE
from matches.services import ruleset_resolve
from matches.services.matches import MAX_POINTS_PER_PLACE, points_resolve, time_limit_resolve
from tournaments.generators import Seeding

if TYPE_CHECKING:
    from ..models import Tournament

#: The largest count an option takes (rounds, groups): far beyond any event, and a clear bound for the API.
MAX_COUNT = 32767
#: A random draw's number: any 64-bit integer.
SEED_RANGE = (-(2**63), 2**63 - 1)

OptionKind = Literal["int", "bool", "choice", "points", "ruleset"]


@dataclass(frozen=True)
class OptionSpec:
    """How one option is given and checked: its kind, label, help, bounds or choices, and table size.

    `int` is a whole number from `minimum` to `maximum` (or null where
    `nullable`: the format decides at the start); `bool` true or false;
    `choice` one of `choices` (value, label); `points` a table of `seats`'
    points per place, best first (null: the defaults); `ruleset` a preset's
    name or a ruleset object with `seats` players, stored resolved.
    """

    kind: OptionKind
    label: str
    help_text: str = ""
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    choices: tuple[tuple[str | int, str], ...] = ()
    seats: int = 0

    def clean(self, name: str, value: object, *, time_limit_ms: int | None) -> object:
        """The value as stored, or `Invalid` naming `options.<name>`."""
        where = {"field": f"options.{name}"}
        if value is None and (self.nullable or self.kind == "points"):
            return None
        if self.kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise Invalid(f"options.{name} is a whole number{' or null' if self.nullable else ''}.", extra=where)
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise Invalid(f"options.{name} is from {self.minimum} to {self.maximum}, not {value}.", extra=where)
            return value
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise Invalid(f"options.{name} is true or false.", extra=where)
            return value
        if self.kind == "choice":
            allowed = [choice for choice, _ in self.choices]
            if value not in allowed or isinstance(value, bool):
                raise Invalid(f"options.{name} is one of {', '.join(map(str, allowed))}, not {value!r}.", extra=where)
            return value
        try:
            if self.kind == "points":
                return points_resolve(value, seats=self.seats)
            if not isinstance(value, str | dict):
                raise Invalid(f"options.{name} is a ruleset preset's name or a ruleset object.", extra=where)
            ruleset, _ = ruleset_resolve(value, seats=self.seats)
            time_limit_resolve(time_limit_ms, ruleset)
            return ruleset.to_json()
        except Invalid as exc:  # the match rules' message, named by this option
            raise Invalid(exc.message, extra={**exc.extra, **where}) from exc


def option(default: Any, spec: OptionSpec) -> Any:
    """A field of an options dataclass: its default, and how it is given and checked."""
    return field(default=default, metadata={"option": spec})


@dataclass(frozen=True)
class FormatOptions:
    """A format's options (a subclass per format adds its fields); none by default."""

    @classmethod
    def specs(cls) -> dict[str, tuple[OptionSpec, object]]:
        """Every option of the format in declaration order: name -> (how it is given, default)."""
        return {item.name: (item.metadata["option"], item.default) for item in dataclasses.fields(cls)}

    @classmethod
    def clean(cls, given: Mapping[str, object], *, time_limit_ms: int | None, owner: str) -> Self:
        """The options from what an organiser gave (the rest take their defaults), checked.

        `owner` is the format's label, for the message naming an option it does not have.
        """
        specs = cls.specs()
        unknown = [name for name in given if name not in specs]
        if unknown:
            known = ", ".join(specs) or "none"
            raise Invalid(
                f"{owner} has no option {unknown[0]!r}; its options are: {known}.",
                extra={"field": f"options.{unknown[0]}"},
            )
        values = {
            name: spec.clean(name, given.get(name, default), time_limit_ms=time_limit_ms)
            for name, (spec, default) in specs.items()
        }
        made = cls(**values)
        made.check()
        return made

    @classmethod
    def of(cls, tournament: Tournament) -> Self:
        """A tournament's stored options (checked when they were stored); a name not stored takes its default."""
        stored = tournament.options or {}
        return cls(**{name: stored[name] for name in cls.specs() if name in stored})

    def check(self) -> None:
        """Rules between options (`Invalid` naming one); none by default."""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


# --- The options the formats share --------------------------------------------------


@dataclass(frozen=True)
class SeedingOptions(FormatOptions):
    """How an elimination bracket is drawn from the entrants."""

    seeding: str = option(
        Seeding.STANDARD.value,
        OptionSpec(
            "choice",
            "Bracket draw",
            "Where the seeds go in the bracket. standard: by seed; random: a reproducible random draw; "
            "as_given: in the listed order.",
            choices=(("standard", "By seed"), ("random", "Random draw"), ("as_given", "As listed")),
        ),
    )
    rng_seed: int | None = option(
        None,
        OptionSpec(
            "int",
            "Draw number",
            "For a random draw: any number (the same number, the same draw).",
            minimum=SEED_RANGE[0],
            maximum=SEED_RANGE[1],
            nullable=True,
        ),
    )

    def check(self) -> None:
        if self.seeding == Seeding.RANDOM and self.rng_seed is None:
            raise Invalid(
                "Random seeding needs an rng_seed, so the draw can be reproduced.", extra={"field": "options.rng_seed"}
            )


def third_place_option() -> Any:
    return option(False, OptionSpec("bool", "Play a third-place match", "The semi-finals' losers meet."))


def double_round_robin_option() -> Any:
    return option(False, OptionSpec("bool", "Everyone meets twice", "Each pair plays two matches, not one."))


@dataclass(frozen=True)
class TableSeatOptions(FormatOptions):
    """What a table of three or four plays: a ruleset and points per place for each size."""

    ruleset_three: object = option(
        "three-way",
        OptionSpec("ruleset", "Ruleset at three", "A preset's name or a ruleset object with 3 players.", seats=3),
    )
    ruleset_four: object = option(
        "four-way",
        OptionSpec("ruleset", "Ruleset at four", "A preset's name or a ruleset object with 4 players.", seats=4),
    )
    points_three: list[int] | None = option(  # noqa: RUF009 - option() is a dataclasses.field
        None,
        OptionSpec(
            "points", "Points at three", "Per place, best first; empty: 2-1-0.", maximum=MAX_POINTS_PER_PLACE, seats=3
        ),
    )
    points_four: list[int] | None = option(  # noqa: RUF009 - option() is a dataclasses.field
        None,
        OptionSpec(
            "points",
            "Points at four",
            "Per place, best first; empty: 3-1-0-0.",
            maximum=MAX_POINTS_PER_PLACE,
            seats=4,
        ),
    )

    def table_setup(self, seats: int) -> tuple[object, list[int] | None]:
        """The ruleset (name or object) and points per place (None: the defaults) of a table of three or four."""
        if seats == 3:
            return self.ruleset_three or "three-way", self.points_three
        return self.ruleset_four or "four-way", self.points_four

    def table_points(self, seats: int) -> tuple[int, ...]:
        """Points per place at a table of `seats`; a pair scores a table of three's first and last place."""
        if seats == 2:
            three = self.table_points(3)
            return (three[0], three[-1])
        own = self.points_three if seats == 3 else self.points_four
        return tuple(own) if own else DEFAULT_POINTS_PER_PLACE[seats]
