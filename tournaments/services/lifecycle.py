"""Creating a tournament and starting it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from django.db import transaction
from django.utils import timezone

from matches.models import Match
from matches.services import AnyUser, ruleset_resolve, series_resolve
from matches.services.matches import points_resolve, time_limit_resolve
from speedsite.errors import Invalid
from speedsite.site_cache import site_lists_changed
from tournaments.formats import UnknownFormatError, format_for
from tournaments.generators import Seeding
from tournaments.standings import metric_for

from ..models import Entrant, Tournament
from .common import organiser_fixable, require_organiser, require_setup, tournament_lock
from .pairings import pairings_open


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


def _at_least_one(**options: int | None) -> None:
    messages = {
        "swiss_rounds": "A Swiss tournament has at least one round.",
        "max_matches": "Winner stays on needs at least one match.",
        "group_count": "Groups then playoffs needs at least one group.",
        "advance_per_group": "At least one player of each group advances.",
        "table_rounds": "A tables tournament plays at least one round before its final table.",
    }
    for name, value in options.items():
        if value is not None and value < 1:
            raise Invalid(messages[name], extra={"field": name})


@contextmanager
def _as_field(name: str) -> Iterator[None]:
    """A table size's option is checked by the match rules, whose errors name the match's field: name this one."""
    try:
        yield
    except Invalid as exc:
        raise Invalid(exc.message, extra={**exc.extra, "field": name}) from exc


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
    seeding: str = Seeding.STANDARD,
    rng_seed: int | None = None,
    third_place: bool = False,
    grand_final_reset: bool = True,
    double_round_robin: bool = False,
    swiss_rounds: int | None = None,
    max_matches: int | None = None,
    table_size: int = 2,
    group_count: int | None = None,
    advance_per_group: int = 2,
    confirmation: str = Match.Confirmation.OPPONENT,
    confirm_within: int | None = DEFAULT_CONFIRM_WITHIN,
    table_rounds: int | None = None,
    final_table_size: int = 4,
    points_three: object = None,
    points_four: object = None,
    ruleset_three: object = None,
    ruleset_four: object = None,
    time_limit_ms: int | None = None,
) -> Tournament:
    """A tournament taking entrants. Organisers only.

    Every option is stored; only the ones of the tournament's format are read.
    A tables tournament resolves a ruleset per table size (`ruleset_three`,
    default "three-way"; `ruleset_four`, default "four-way"; `ruleset` for the
    pair five players leave) and points per place per size (None: 2-1-0,
    3-1-0-0); so does winner stays on at a table of three or four (`table_size`). `time_limit_ms` makes every match a timed round (any format).
    """
    require_organiser(user)
    try:
        format_for(format)
    except UnknownFormatError as exc:
        raise Invalid(str(exc), extra={"field": "format"}) from exc
    if seeding not in Seeding.__members__.values():
        raise Invalid(f"Unknown seeding {seeding!r}; use one of {', '.join(Seeding)}.")
    if seeding == Seeding.RANDOM and rng_seed is None:
        raise Invalid("Random seeding needs an rng_seed, so the draw can be reproduced.")
    _at_least_one(
        swiss_rounds=swiss_rounds,
        max_matches=max_matches,
        group_count=group_count,
        advance_per_group=advance_per_group,
        table_rounds=table_rounds,
    )
    if table_size not in (2, 3, 4):
        raise Invalid(f"The table seats 2, 3 or 4 players, not {table_size}.", extra={"field": "table_size"})
    if final_table_size not in (3, 4):
        raise Invalid(
            f"The final table seats 3 or 4 players, not {final_table_size}.", extra={"field": "final_table_size"}
        )
    if confirmation not in Match.Confirmation.values:
        raise Invalid(
            f"Unknown confirmation {confirmation!r}; use one of {', '.join(Match.Confirmation.values)}.",
            extra={"field": "confirmation"},
        )
    if confirm_within is not None and confirm_within < 1:
        raise Invalid(
            "confirm_within is a number of seconds (at least 1), or null for never.", extra={"field": "confirm_within"}
        )
    fmt = format_for(format)
    tables = fmt.tables or ("table_size" in fmt.options and table_size > 2)
    # A table's best of may be even (its points decide); a two-player format's must be odd.
    series, length = series_resolve(best_of=best_of, first_to=first_to, seats=3 if tables else 2)
    resolved, ruleset_name = ruleset_resolve(ruleset)
    time_limit_resolve(time_limit_ms, resolved)
    table_options: dict[str, object] = {}
    if tables:
        with _as_field("ruleset_three"):
            three, _ = ruleset_resolve(ruleset_three or "three-way", seats=3)
            time_limit_resolve(time_limit_ms, three)
        with _as_field("ruleset_four"):
            four, _ = ruleset_resolve(ruleset_four or "four-way", seats=4)
            time_limit_resolve(time_limit_ms, four)
        with _as_field("points_three"):
            resolved_three = points_resolve(points_three, seats=3) if points_three is not None else None
        with _as_field("points_four"):
            resolved_four = points_resolve(points_four, seats=4) if points_four is not None else None
        table_options = {
            "ruleset_three": three.to_json(),
            "ruleset_four": four.to_json(),
            "points_three": resolved_three,
            "points_four": resolved_four,
        }
    # /tournaments/ lists every tournament from the site lists' cache: a new one must appear there.
    site_lists_changed()
    return Tournament.objects.create(
        name=name.strip() or "Tournament",
        format=format,
        series=series,
        series_length=length,
        ruleset=resolved.to_json(),
        ruleset_name=ruleset_name,
        tie_breaks=_tie_breaks_resolve(tie_breaks),
        seeding=seeding,
        rng_seed=rng_seed,
        third_place=third_place,
        grand_final_reset=grand_final_reset,
        double_round_robin=double_round_robin,
        swiss_rounds=swiss_rounds,
        max_matches=max_matches,
        table_size=table_size,
        group_count=group_count,
        advance_per_group=advance_per_group,
        confirmation=confirmation,
        confirm_within=confirm_within,
        table_rounds=table_rounds,
        final_table_size=final_table_size,
        time_limit_ms=time_limit_ms,
        **table_options,
        created_by=user if user is not None and user.is_authenticated else None,
    )


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
    with organiser_fixable():
        fmt.start_check(tournament, count)  # may fill the format's defaulted options
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["status", "started_at", *fmt.options])
        pairings_open(tournament)
    tournament.refresh_from_db()
    return tournament
