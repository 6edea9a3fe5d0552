"""Creating a tournament and starting it."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from matches.models import Match
from matches.services import AnyUser, ruleset_resolve, series_resolve
from speedsite.errors import Invalid
from tournaments.formats import UnknownFormatError, format_for
from tournaments.generators import Seeding
from tournaments.standings import metric_for

from ..models import Entrant, Tournament
from ..progress import pairings_open
from .common import organiser_fixable, require_organiser, require_setup, tournament_lock


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
    }
    for name, value in options.items():
        if value is not None and value < 1:
            raise Invalid(messages[name], extra={"field": name})


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
    group_count: int | None = None,
    advance_per_group: int = 2,
    confirmation: str = Match.Confirmation.OPPONENT,
    confirm_within: int | None = DEFAULT_CONFIRM_WITHIN,
) -> Tournament:
    """A tournament taking entrants. Organisers only.

    Every option is stored; only the ones of the tournament's format are read.
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
        swiss_rounds=swiss_rounds, max_matches=max_matches, group_count=group_count, advance_per_group=advance_per_group
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
    series, length = series_resolve(best_of=best_of, first_to=first_to)
    resolved, ruleset_name = ruleset_resolve(ruleset)
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
        group_count=group_count,
        advance_per_group=advance_per_group,
        confirmation=confirmation,
        confirm_within=confirm_within,
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
