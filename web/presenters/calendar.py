"""iCalendar (RFC 5545) documents of a tournament's schedule and of a player's matches.

`icalendar` writes the format: escaped text, lines folded at 75 octets, CRLF
line ends, times in UTC ("Z"). Each event's UID is stable (the same tournament,
round or pairing keeps its UID whenever the feed is read), so a calendar app
updates an event rather than adding a copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from icalendar import Calendar, Event

from tournaments.models import Tournament, TournamentMatch

PRODID = "-//Speed//Tournaments//EN"
#: How long an event is shown for: a start or a round's "not before" is a time to be there, not a length.
SLOT = timedelta(hours=1)


def _calendar(name: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    return calendar


def _event(*, uid: str, start: datetime, summary: str, url: str, stamp: datetime, description: str = "") -> Event:
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp.astimezone(UTC))
    event.add("dtstart", start.astimezone(UTC))
    event.add("dtend", (start + SLOT).astimezone(UTC))
    event.add("summary", summary)
    if description:
        event.add("description", description)
    event.add("url", url)
    return event


def tournament_events(
    tournament: Tournament, round_times: dict[int, datetime], *, host: str, url: str, stamp: datetime
) -> list[Event]:
    """The start (if announced) and each scheduled round of a tournament."""
    events = []
    if tournament.starts_at is not None:
        events.append(
            _event(
                uid=f"tournament-{tournament.pk}-start@{host}",
                start=tournament.starts_at,
                summary=f"{tournament.name}: start",
                description=tournament.description,
                url=url,
                stamp=stamp,
            )
        )
    for number, when in sorted(round_times.items()):
        events.append(
            _event(
                uid=f"tournament-{tournament.pk}-round-{number}@{host}",
                start=when,
                summary=f"{tournament.name}: round {number} (not before)",
                url=url,
                stamp=stamp,
            )
        )
    return events


def tournament_calendar(
    tournament: Tournament, round_times: dict[int, datetime], *, host: str, url: str, stamp: datetime
) -> bytes:
    calendar = _calendar(tournament.name)
    for event in tournament_events(tournament, round_times, host=host, url=url, stamp=stamp):
        calendar.add_component(event)
    return calendar.to_ical()


def player_calendar(
    *,
    handle: str,
    tournaments: Iterable[Tournament],
    pairings: Iterable[TournamentMatch],
    round_times: dict[tuple[int, int], datetime],
    host: str,
    url_of: dict[int, str],
    match_url_of: dict[int, str],
    stamp: datetime,
) -> bytes:
    """A player's tournaments (their starts) and their matches not yet decided, each at its round's time.

    A match is listed only when its round has a time, or its tournament a start
    for round 1: a calendar event needs a time.
    """
    calendar = _calendar(f"Speed: {handle}")
    by_id = {}
    for tournament in tournaments:
        by_id[tournament.pk] = tournament
        if tournament.starts_at is not None:
            calendar.add_component(
                _event(
                    uid=f"tournament-{tournament.pk}-start@{host}",
                    start=tournament.starts_at,
                    summary=f"{tournament.name}: start",
                    url=url_of[tournament.pk],
                    stamp=stamp,
                )
            )
    for pairing in pairings:
        tournament = by_id.get(pairing.tournament_id)
        if tournament is None:
            continue
        when = round_times.get((pairing.tournament_id, pairing.round))
        if when is None and pairing.round == 1:
            when = tournament.starts_at
        if when is None:
            continue
        others = [seat.handle for seat in pairing.seats if seat.handle != handle]
        opponents = " v ".join(others) if others else "opponent to be decided"
        station = f" at {pairing.station}" if pairing.station else ""
        calendar.add_component(
            _event(
                uid=f"pairing-{pairing.pk}@{host}",
                start=when,
                summary=f"{tournament.name}, round {pairing.round}: v {opponents}{station}",
                url=match_url_of.get(pairing.pk, url_of[tournament.pk]),
                stamp=stamp,
            )
        )
    return calendar.to_ical()
