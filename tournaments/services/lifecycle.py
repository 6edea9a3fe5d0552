"""Creating a tournament and starting it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from matches.models import Match
from matches.services import AnyUser, ruleset_resolve, series_resolve
from matches.services.matches import time_limit_resolve
from speedsite.errors import Invalid
from speedsite.site_cache import site_lists_changed
from tournaments.formats import UnknownFormatError, format_for
from tournaments.standings import metric_for

from ..models import Entrant, Tournament
from .common import organiser_fixable, require_organiser, require_setup, tournament_lock
from .entry import MAX_CAP
from .pairings import pairings_open
from .seeding import seeds_apply


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
    seed_by: str = Tournament.SeedBy.MANUAL,
    max_entrants: int | None = None,
    registration_closes_at: datetime | None = None,
) -> Tournament:
    """A tournament taking entrants. Organisers only.

    The fields every format shares, and `options`: the format's own, checked
    by its schema (`TournamentFormat.options`; an unknown name or a value out
    of range is an `Invalid` naming `options.<name>`; the rest take their
    defaults). `time_limit_ms` makes every match a timed round (any format).
    `seed_by`, `max_entrants` and `registration_closes_at` are the entry rules
    (`tournaments.services.seeding`, `.entry`), which the manage page changes later.
    """
    require_organiser(user)
    try:
        fmt = format_for(format)
    except UnknownFormatError as exc:
        raise Invalid(str(exc), extra={"field": "format"}) from exc
    if confirmation not in Match.Confirmation.values:
        raise Invalid(
            f"Unknown confirmation {confirmation!r}; use one of {', '.join(Match.Confirmation.values)}.",
            extra={"field": "confirmation"},
        )
    if confirm_within is not None and confirm_within < 1:
        raise Invalid(
            "confirm_within is a number of seconds (at least 1), or null for never.", extra={"field": "confirm_within"}
        )
    resolved, ruleset_name = ruleset_resolve(ruleset)
    time_limit_resolve(time_limit_ms, resolved)
    checked = fmt.options.clean(options or {}, time_limit_ms=time_limit_ms, owner=fmt.label)
    if seed_by not in Tournament.SeedBy.values:
        raise Invalid(
            f"Unknown seed_by {seed_by!r}; use one of {', '.join(Tournament.SeedBy.values)}.",
            extra={"field": "seed_by"},
        )
    if max_entrants is not None and not 2 <= max_entrants <= MAX_CAP:
        raise Invalid(f"The cap is from 2 to {MAX_CAP} entrants, not {max_entrants}.", extra={"field": "max_entrants"})
    tournament = Tournament(
        name=name.strip() or "Tournament",
        format=format,
        ruleset=resolved.to_json(),
        ruleset_name=ruleset_name,
        tie_breaks=_tie_breaks_resolve(tie_breaks),
        options=checked.to_json(),
        confirmation=confirmation,
        confirm_within=confirm_within,
        time_limit_ms=time_limit_ms,
        seed_by=seed_by,
        max_entrants=max_entrants,
        registration_closes_at=registration_closes_at,
        created_by=user if user is not None and user.is_authenticated else None,
    )
    # A table's best of may be even (its points decide); a two-player format's must be odd.
    seats = 3 if fmt.table_sizes(tournament) else 2
    tournament.series, tournament.series_length = series_resolve(best_of=best_of, first_to=first_to, seats=seats)
    tournament.save()
    # /tournaments/ lists every tournament from the site lists' cache: a new one must appear there.
    site_lists_changed()
    return tournament


@transaction.atomic
def tournament_start(*, tournament_id: int, user: AnyUser) -> Tournament:
    """Close the entry, make the first pairings (and their matches), and run."""
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    count = Entrant.objects.filter(tournament=tournament).count()
    if count < 2:
        raise Invalid(f"A tournament needs at least 2 entrants; {tournament.name!r} has {count}.")
    fmt = format_for(tournament.format)
    entrants = seeds_apply(tournament)  # by hand, by the ratings as they are now, or drawn; the order is recorded
    with organiser_fixable():
        tournament.options = fmt.start_check(tournament, count).to_json()  # the defaulted options filled
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["status", "started_at", "options"])
        pairings_open(tournament, entrants=entrants)
    tournament.refresh_from_db()
    return tournament
