"""A tournament's own times at the tables (speed-table/1 amendment L5): one check the API, the form and the service share.

An organiser may set how long a player must be away before the other side
can claim the game, how long everyone may be away before the table is
abandoned (which is also how long a table nobody readied waits before it is
aborted), and what a no-show at a called match's table counts for: a
forfeit after so many seconds, or nothing. `Tournament.table_settings`
stores only what the organiser set, in whole seconds
(`{"claim_seconds": 45, "no_show_seconds": null}`); what is left out takes
the site's default (`settings.SPEED_TABLE_SETTINGS`, in milliseconds, as a
table's own settings are). `tournaments.selectors.tournament_table_settings`
turns them into a table's millisecond keys.

Nothing here reads a database or Django's settings: the caller passes the
site's defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.errors import Invalid


@dataclass(frozen=True, slots=True)
class Bound:
    minimum: int  # seconds
    maximum: int
    nullable: bool  # null: a no-show counts for nothing
    table_key: str  # the table's settings key (milliseconds)


#: The settings, in the order they are said, with their bounds in seconds.
BOUNDS: dict[str, Bound] = {
    "claim_seconds": Bound(10, 600, nullable=False, table_key="claim_ms"),
    "abandon_seconds": Bound(30, 1800, nullable=False, table_key="abandon_ms"),
    "no_show_seconds": Bound(30, 1800, nullable=True, table_key="no_show_ms"),
}


def _say(seconds: float) -> str:
    return f"{seconds:g} s"


def table_settings_clean(raw: object, *, site: Mapping[str, Any]) -> dict[str, int | None]:
    """The organiser's table settings checked: only known names, whole seconds within bounds, and times
    that can happen (a claim and a no-show's forfeit both before the table gives up at abandon).

    `site` is the site's defaults in milliseconds (`settings.SPEED_TABLE_SETTINGS`): a time left out is
    compared as the site's. An error is an `Invalid` naming `table_settings.<name>` (or `table_settings`).
    """
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise Invalid("table_settings is an object (or left out).", extra={"field": "table_settings"})
    unknown = sorted(str(name) for name in raw if name not in BOUNDS)
    if unknown:
        raise Invalid(
            f"Unknown table setting {', '.join(map(repr, unknown))}; use {', '.join(BOUNDS)}.",
            extra={"field": f"table_settings.{unknown[0]}", "choices": list(BOUNDS)},
        )
    cleaned: dict[str, int | None] = {}
    for name, bound in BOUNDS.items():
        if name not in raw:
            continue
        value = raw[name]
        where = {"field": f"table_settings.{name}"}
        if value is None and bound.nullable:
            cleaned[name] = None
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            nothing = " or null (a no-show counts for nothing)" if bound.nullable else " (leave it out for the site's)"
            raise Invalid(f"table_settings.{name} is a whole number of seconds{nothing}.", extra=where)
        if not bound.minimum <= value <= bound.maximum:
            raise Invalid(
                f"table_settings.{name} is from {bound.minimum} to {bound.maximum} seconds, not {value}.",
                extra={**where, "minimum": bound.minimum, "maximum": bound.maximum},
            )
        cleaned[name] = value
    if cleaned:
        _check_order(cleaned, site)
    return cleaned


def _effective_ms(cleaned: Mapping[str, int | None], site: Mapping[str, Any], name: str) -> int | None:
    key = BOUNDS[name].table_key
    if name in cleaned:
        value = cleaned[name]
        return None if value is None else value * 1000
    default = site.get(key)
    return None if default is None else int(default)


def _check_order(cleaned: Mapping[str, int | None], site: Mapping[str, Any]) -> None:
    """A claim and a no-show's forfeit must come before abandon: at abandon_ms a table nobody readied is
    aborted and one everybody left is abandoned, so a later time could never be reached."""
    abandon = _effective_ms(cleaned, site, "abandon_seconds")
    if abandon is None:
        return
    for name, what in (
        ("claim_seconds", "a claim must be possible before the table is abandoned"),
        ("no_show_seconds", "a table nobody readied is aborted at abandon_seconds, so a later no-show never forfeits"),
    ):
        value = _effective_ms(cleaned, site, name)
        if value is None or value < abandon:
            continue
        at = name if name in cleaned else "abandon_seconds"  # name the field the organiser set
        raise Invalid(
            f"table_settings.{name} ({_say(value / 1000)}{_whose(cleaned, name)}) must be shorter than "
            f"abandon_seconds ({_say(abandon / 1000)}{_whose(cleaned, 'abandon_seconds')}): {what}.",
            extra={"field": f"table_settings.{at}"},
        )


def _whose(cleaned: Mapping[str, int | None], name: str) -> str:
    return "" if name in cleaned else ", the site's default"


def table_settings_ms(stored: Mapping[str, Any]) -> dict[str, int | None]:
    """A tournament's stored settings (seconds) as a table's settings keys (milliseconds); null stays null."""
    return {
        bound.table_key: (None if stored[name] is None else int(stored[name]) * 1000)
        for name, bound in BOUNDS.items()
        if name in stored
    }
