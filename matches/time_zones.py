"""The time zones people read and enter times in: IANA names, checked against the zone database (zoneinfo).

Pure: no Django. A name is a zone when the zone database lists it and it loads;
the database's links count ("Asia/Calcutta", which browsers built on ICU still
report, is "Asia/Kolkata"), its files that name no place do not ("localtime",
"Factory"). The database is the system's, or the `tzdata` package where the
system has none (a slim container).
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

#: The zone of whoever chose none (and of the API, the calendar feeds and the exports).
UTC_NAME = "UTC"

#: The longest name a zone may have here (the longest in the database is 32 characters).
MAX_ZONE_NAME = 64

#: Files the zone database holds that are not a place's zone: the machine's own, a placeholder, a rule file.
_NOT_A_PLACE = frozenset({"localtime", "Factory", "posixrules", "posix", "right"})

#: The areas of the database's current names ("Europe/Berlin"); the rest are old spellings ("US/Eastern",
#: "Etc/GMT+5", "EST5EDT"), still accepted but not offered in a list of choices.
_AREAS = ("Africa/", "America/", "Antarctica/", "Arctic/", "Asia/", "Atlantic/", "Australia/", "Europe/")
_AREAS += ("Indian/", "Pacific/")

#: A numeric abbreviation, as the database gives zones without a letter one ("+04", "-0330").
_NUMERIC = re.compile(r"^([+-])(\d\d)(\d\d)?$")


@cache
def zone_names() -> frozenset[str]:
    """Every name accepted as a zone (read from the database once: listing it walks a directory)."""
    return frozenset(name for name in available_timezones() if name not in _NOT_A_PLACE)


@cache
def zone_choices() -> tuple[str, ...]:
    """The names a person picks from: UTC, then the current names of places, sorted."""
    return (UTC_NAME, *sorted(name for name in zone_names() if name.startswith(_AREAS)))


def zone_get(name: object) -> ZoneInfo | None:
    """The zone of that name, or None when it names none (anything not a str, a path, an unknown name)."""
    if not isinstance(name, str) or name not in zone_names():
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # listed but unreadable: as good as unknown
        return None


def zone_label(moment: datetime) -> str:
    """The abbreviation a reader knows an aware time's zone by ("CET", "EDT", "IST"), or its offset ("UTC+04")."""
    name = moment.tzname() or ""
    numeric = _NUMERIC.match(name)
    if numeric:
        sign, hours, minutes = numeric.groups()
        return f"UTC{sign}{hours}" + (f":{minutes}" if minutes and minutes != "00" else "")
    return name or UTC_NAME
