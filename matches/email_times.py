"""Times in emails, written in each recipient's time zone when the outbox sends them.

Pure: no Django. An email's text is written once for all its recipients, by
the change it tells of, which reads nothing more (`services.notifications`);
so a time goes into the text as a mark (`email_time`) holding the instant in
UTC, and the outbox, which reads each recipient's zone at send time as it
reads their address, writes every mark in that zone with the zone named
(`email_times_render`): "Sat 5 Dec, 14:00 (Europe/Berlin)", else "(UTC)".
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from .time_zones import UTC_NAME, zone_get

#: An instant as `email_time` marks it (seconds, in UTC); text that only looks like one is left as it is.
_MARK = re.compile(r"\[\[time:(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)\]\]")
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def email_time(moment: datetime) -> str:
    """An aware time, marked for the outbox to write in the recipient's zone."""
    return f"[[time:{moment.astimezone(UTC):%Y-%m-%dT%H:%M:%S}Z]]"


def email_time_words(moment: datetime, zone_name: str | None) -> str:
    """ "Sat 5 Dec, 14:00 (Europe/Berlin)": the time in that zone (UTC when it names none), the zone named."""
    zone = zone_get(zone_name)
    name = zone_name if zone is not None and zone_name else UTC_NAME
    local = moment.astimezone(zone or UTC)
    return f"{_DAYS[local.weekday()]} {local.day} {_MONTHS[local.month - 1]}, {local:%H:%M} ({name})"


def email_times_render(text: str, zone_name: str | None) -> str:
    """The text with every marked time written in that zone (`email_time_words`)."""

    def words(mark: re.Match[str]) -> str:
        try:
            moment = datetime.strptime(mark[1], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        except ValueError:  # shaped like a mark but no date ("2030-13-45…"): not one
            return mark[0]
        return email_time_words(moment, zone_name)

    return _MARK.sub(words, text)
