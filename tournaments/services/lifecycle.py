"""A tournament's life before play: creating it, changing its settings, starting it, undoing the start, deleting it."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings as site
from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from core.errors import ApplicationError, Conflict, Invalid
from core.site_cache import site_lists_changed
from matches.models import Match
from matches.services import AnyUser, ruleset_resolve, series_resolve
from matches.services.matches import time_limit_resolve
from tournaments.formats import UnknownFormatError, format_for
from tournaments.standings import metric_for
from tournaments.table_settings import table_settings_clean

from ..models import Entrant, Tournament, TournamentMatch
from ..selectors import tournament_has_results
from .common import organiser_fixable, require_organiser, require_setup, tournament_lock
from .entry import MAX_CAP, start_entry_restore, waiting_left_out_notify
from .pairings import pairings_open
from .seeding import seeds_apply

logger = logging.getLogger(__name__)

#: Tournaments one sweep starts, at most: the rest start at the next.
_STARTS_PER_SWEEP = 20
#: How long a start the format refused waits before the sweep tries it again (its settings unchanged).
_START_RETRY = timedelta(hours=1)


def _tie_breaks_resolve(tie_breaks: Sequence[str]) -> list[str]:
    keys = list(tie_breaks)
    if len(set(keys)) != len(keys):
        raise Invalid(f"A tie-break is listed twice: {keys}.", extra={"field": "tie_breaks"})
    for key in keys:
        try:
            metric_for(key)
        except ValueError as exc:
            raise Invalid(str(exc), extra={"field": "tie_breaks"}) from exc
    return keys


#: Seconds an unconfirmed result waits for the opponent before it stands (15 minutes).
DEFAULT_CONFIRM_WITHIN = 900


@dataclass(frozen=True)
class TournamentSettings:
    """What an organiser sets on a tournament before its start: the fields every format shares, and its options."""

    name: str
    format: str
    best_of: int | None = None
    first_to: int | None = None
    ruleset: object = "speed"
    tie_breaks: Sequence[str] = ()
    confirmation: str = Match.Confirmation.OPPONENT
    confirm_within: int | None = DEFAULT_CONFIRM_WITHIN
    time_limit_ms: int | None = None
    options: Mapping[str, object] | None = None
    # Its own times at the tables, in seconds (`tournaments.table_settings`); left out: the site's.
    table_settings: Mapping[str, object] | None = None
    # Each registration approved as it arrives (`registration.registration_create`), up to the cap.
    auto_approve: bool = False
    # Played at the site's tables (each called match's table opens by itself), and every match called as
    # soon as it is paired (`running.pairings_call_ready`).
    played_at_tables: bool = False
    advance_automatically: bool = False


def _settings_apply(tournament: Tournament, settings: TournamentSettings) -> None:
    """Check the settings as `tournament_create` and `tournament_update` both do, and set them on the row (unsaved)."""
    try:
        fmt = format_for(settings.format)
    except UnknownFormatError as exc:
        raise Invalid(str(exc), extra={"field": "format"}) from exc
    if settings.confirmation not in Match.Confirmation.values:
        raise Invalid(
            f"Unknown confirmation {settings.confirmation!r}; use one of {', '.join(Match.Confirmation.values)}.",
            extra={"field": "confirmation"},
        )
    if settings.confirm_within is not None and settings.confirm_within < 1:
        raise Invalid(
            "confirm_within is a number of seconds (at least 1), or null for never.", extra={"field": "confirm_within"}
        )
    resolved, ruleset_name = ruleset_resolve(settings.ruleset)
    time_limit_resolve(settings.time_limit_ms, resolved)
    checked = fmt.options.clean(settings.options or {}, time_limit_ms=settings.time_limit_ms, owner=fmt.label)
    tables = table_settings_clean(settings.table_settings, site=site.SPEED_TABLE_SETTINGS)
    tournament.name = settings.name.strip() or "Tournament"
    tournament.format = settings.format
    tournament.ruleset = resolved.to_json()
    tournament.ruleset_name = ruleset_name
    tournament.tie_breaks = _tie_breaks_resolve(settings.tie_breaks)
    tournament.options = checked.to_json()
    tournament.confirmation = settings.confirmation
    tournament.confirm_within = settings.confirm_within
    tournament.time_limit_ms = settings.time_limit_ms
    tournament.table_settings = tables
    tournament.auto_approve = settings.auto_approve
    tournament.played_at_tables = settings.played_at_tables
    tournament.advance_automatically = settings.advance_automatically
    tournament.start_refused_at, tournament.start_refusal = None, ""  # new settings: the sweep tries again
    # A table's best of may be even (its points decide); a two-player format's must be odd.
    seats = 3 if fmt.table_sizes(tournament) else 2
    tournament.series, tournament.series_length = series_resolve(
        best_of=settings.best_of, first_to=settings.first_to, seats=seats
    )


@transaction.atomic
def tournament_create(
    *,
    name: str,
    format: str,
    user: AnyUser,
    best_of: int | None = None,
    first_to: int | None = None,
    ruleset: object = "speed",
    tie_breaks: Sequence[str] = (),
    confirmation: str = Match.Confirmation.OPPONENT,
    confirm_within: int | None = DEFAULT_CONFIRM_WITHIN,
    time_limit_ms: int | None = None,
    options: Mapping[str, object] | None = None,
    table_settings: Mapping[str, object] | None = None,
    auto_approve: bool = False,
    played_at_tables: bool = False,
    advance_automatically: bool = False,
    seed_by: str = Tournament.SeedBy.MANUAL,
    max_entrants: int | None = None,
    registration_closes_at: datetime | None = None,
) -> Tournament:
    """A tournament, not started: entrants are added or register before the start. Organisers only.

    The fields every format shares, and `options`: the format's own, checked
    by its schema (`TournamentFormat.options`; an unknown name or a value out
    of range is an `Invalid` naming `options.<name>`; the rest take their
    defaults). `time_limit_ms` makes every match a timed round (any format).
    `table_settings` are its own times at the tables (`tournaments.table_settings`); `auto_approve`
    approves each registration as it arrives; `played_at_tables` opens each called match's table, and
    `advance_automatically` calls every match as soon as it is paired.
    `seed_by`, `max_entrants` and `registration_closes_at` are the entry rules
    (`tournaments.services.seeding`, `.entry`), which the manage page changes later.
    """
    require_organiser(user)
    tournament = Tournament(created_by=user if user is not None and user.is_authenticated else None)
    _settings_apply(
        tournament,
        TournamentSettings(
            name,
            format,
            best_of,
            first_to,
            ruleset,
            tie_breaks,
            confirmation,
            confirm_within,
            time_limit_ms,
            options,
            table_settings,
            auto_approve,
            played_at_tables,
            advance_automatically,
        ),
    )
    if seed_by not in Tournament.SeedBy.values:
        raise Invalid(
            f"Unknown seed_by {seed_by!r}; use one of {', '.join(Tournament.SeedBy.values)}.",
            extra={"field": "seed_by"},
        )
    if max_entrants is not None and not 2 <= max_entrants <= MAX_CAP:
        raise Invalid(f"The cap is from 2 to {MAX_CAP} entrants, not {max_entrants}.", extra={"field": "max_entrants"})
    tournament.seed_by = seed_by
    tournament.max_entrants = max_entrants
    tournament.registration_closes_at = registration_closes_at
    tournament.save()
    # /tournaments/ lists every tournament from the site lists' cache: a new one must appear there.
    site_lists_changed()
    return tournament


@transaction.atomic
def tournament_update(*, tournament_id: int, user: AnyUser, settings: TournamentSettings) -> Tournament:
    """Change a tournament's settings before its start, checked as at its creation (the same rules, every field).

    Refused once it has started (`Conflict`): its pairings were made from them.
    The entrants, registration and check-in stay as they are.
    """
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    if tournament.status != Tournament.Status.SETUP:
        raise Conflict(f"{tournament.name!r} has started; its settings change only before the start (undo it first).")
    _settings_apply(tournament, settings)
    tournament.save()
    site_lists_changed()
    return tournament


@transaction.atomic
def tournament_start(*, tournament_id: int, user: AnyUser) -> Tournament:
    """Close the entry, make the first pairings (and their matches), and run; tell the waiting list it is left out."""
    require_organiser(user)
    return _start(tournament_id)


def tournaments_start_due(*, now: datetime | None = None) -> list[int]:
    """Start every tournament that runs itself (`advance_automatically`) whose `starts_at` has come.

    The beat's sweep calls this, so an event announced for a time begins then with nobody at the desk.
    Each starts in its own transaction under its row's lock (a start the organiser made meanwhile is not
    made twice), at most `_STARTS_PER_SWEEP` a sweep. One with fewer than two entrants is not tried. One
    its format refuses stays for its organiser with the reason on its row (the page says it), and is tried
    again `_START_RETRY` later, behind those never refused: a pile of refused events never holds up a
    start that can be made. Returns the ids started.
    """
    now = now or timezone.now()
    due = (
        Tournament.objects.filter(status=Tournament.Status.SETUP, advance_automatically=True, starts_at__lte=now)
        .filter(Q(start_refused_at__isnull=True) | Q(start_refused_at__lte=now - _START_RETRY))
        .annotate(entered=Count("entrants"))
        .filter(entered__gte=2)
        .order_by(F("start_refused_at").asc(nulls_first=True), "starts_at", "pk")
    )
    started = []
    for tournament_id in due.values_list("pk", flat=True)[:_STARTS_PER_SWEEP]:
        try:
            with transaction.atomic():
                _start(tournament_id)
        except ApplicationError as exc:
            logger.warning("tournament %s: its start time came, but it could not start", tournament_id, exc_info=True)
            refused = Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.SETUP)
            refused.update(start_refused_at=now, start_refusal=exc.message[:300])
            continue
        started.append(tournament_id)
    return started


def _start(tournament_id: int) -> Tournament:
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    count = Entrant.objects.filter(tournament=tournament).count()
    if count < 2:
        raise Invalid(f"A tournament needs at least 2 entrants; {tournament.name!r} has {count}.")
    fmt = format_for(tournament.format)
    entrants = seeds_apply(tournament)  # by hand, by the ratings as they are now, or drawn; the order is recorded
    with organiser_fixable():
        tournament.setup_options = tournament.options  # put back if the start is undone
        tournament.options = fmt.start_check(tournament, count).to_json()  # the defaulted options filled
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.start_refused_at, tournament.start_refusal = None, ""
        tournament.save(
            update_fields=["status", "started_at", "options", "setup_options", "start_refused_at", "start_refusal"]
        )
        pairings_open(tournament, entrants=entrants)
    waiting_left_out_notify(tournament)
    tournament.refresh_from_db()
    return tournament


def _match_ids(tournament: Tournament) -> list[int]:
    """The ids of the matches the tournament's pairings made."""
    return list(
        TournamentMatch.objects.filter(tournament=tournament, match__isnull=False).values_list("match_id", flat=True)
    )


@transaction.atomic
def tournament_start_undo(*, tournament_id: int, user: AnyUser) -> Tournament:
    """Take a start back while nothing is played: its pairings and their matches go, and entry reopens to changes.

    Refused (`Conflict`) once any game of it has a result, a claim, a dispute
    or a log, or a correction was made: those are records, kept. The
    tournament is not started again, with the options it had before the
    start. Entrants the start dropped for not checking in are entered again
    and those who moved up into their places go back to the waiting list
    (`entry.start_entry_restore`); registration and check-in stay closed until
    the organiser opens them.
    """
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    if tournament.status != Tournament.Status.RUNNING:
        shown = "has not started" if tournament.status == Tournament.Status.SETUP else "is finished"
        raise Conflict(f"{tournament.name!r} {shown}; only a running tournament's start can be undone.")
    match_ids = _match_ids(tournament)
    if tournament_has_results(tournament=tournament):
        raise Conflict(
            f"{tournament.name!r} has results (or games reported or disputed) already; "
            "its start can be undone only while no game is decided or claimed."
        )
    TournamentMatch.objects.filter(tournament=tournament).delete()
    Match.objects.filter(pk__in=match_ids).delete()  # their open games and history go with them
    Entrant.objects.filter(tournament=tournament).update(place=None, place_to=None)
    start_entry_restore(tournament)
    tournament.status = Tournament.Status.SETUP
    tournament.started_at = None
    tournament.finished_at = None
    if tournament.setup_options is not None:
        tournament.options = tournament.setup_options
    tournament.setup_options = None
    tournament.seeding_record = None  # the next start seeds again
    tournament.save(
        update_fields=[
            "status",
            "started_at",
            "finished_at",
            "options",
            "setup_options",
            "seeding_record",
            "start_entry",
        ]
    )
    site_lists_changed()
    return tournament


@transaction.atomic
def tournament_delete(*, tournament_id: int, user: AnyUser) -> str:
    """Delete a tournament that has no results: its entrants, registrations, pairings and unplayed matches go.

    Refused (`Conflict`) when any of its games has a result, a claim, a
    dispute or a log, or a correction was made. Returns its name.
    """
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    match_ids = _match_ids(tournament)
    if tournament_has_results(tournament=tournament):
        raise Conflict(
            f"{tournament.name!r} has results (or games reported or disputed); a tournament is deleted only "
            "before anything is played. Its results stay in the records."
        )
    name = tournament.name
    TournamentMatch.objects.filter(tournament=tournament).delete()
    Match.objects.filter(pk__in=match_ids).delete()
    tournament.delete()
    site_lists_changed()
    return name
