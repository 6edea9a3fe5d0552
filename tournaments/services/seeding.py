"""How the seeds are set at the start: by hand, by rating, or by a random draw; the order used is recorded.

`Tournament.seed_by` is the organiser's choice (`tournament_seed_by_set`,
before the start). `seeds_apply` runs inside `tournament_start`, with the
tournament locked, so rating seeding reads the ratings as they are at the start:

- `manual`: the entrants' seeds as entered or reordered on the manage page;
- `rating`: the site's Glicko-2 rating, highest first; a tie on rating puts the
  smaller deviation (the surer rating) first; unrated players come last, in
  their seed order as entered (stable, whatever the ratings);
- `random`: a draw of the entered order with a fresh draw number, kept, so
  the same number gives the same order (as the formats' random bracket draw).

Whatever the method, `Tournament.seeding_record` keeps the order used (each
seed's handle and rating at the start) for the pages and for an audit.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from core.errors import Invalid
from matches.services import AnyUser

from ..models import Entrant, PlayerRating, Tournament
from .common import require_organiser, require_setup, tournament_lock
from .entrants import MAX_ENTRANTS


@transaction.atomic
def tournament_seed_by_set(*, tournament_id: int, user: AnyUser, seed_by: str) -> Tournament:
    """Choose how the seeds are set at the start (`Tournament.SeedBy`), before the start."""
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    if seed_by not in Tournament.SeedBy.values:
        raise Invalid(
            f"Unknown seed_by {seed_by!r}; use one of {', '.join(Tournament.SeedBy.values)}.",
            extra={"field": "seed_by"},
        )
    tournament.seed_by = seed_by
    tournament.save(update_fields=["seed_by"])
    return tournament


def rating_order(entrants: Sequence[Entrant], ratings: dict[int, PlayerRating]) -> list[Entrant]:
    """Rated first (rating down, then deviation up, then seed), then the unrated in seed order."""
    rated = [e for e in entrants if e.player_id in ratings]
    unrated = [e for e in entrants if e.player_id not in ratings]
    rated.sort(key=lambda e: (-ratings[e.player_id].rating, ratings[e.player_id].deviation, e.seed))
    unrated.sort(key=lambda e: e.seed)
    return rated + unrated


def _seeds_set(ordered: Sequence[Entrant]) -> None:
    """Seeds 1..n in this order, in two statements whatever the field (out of the way first: a seed is unique)."""
    offset = len(ordered) + max((e.seed for e in ordered), default=0)
    for entrant in ordered:
        entrant.seed += offset
    Entrant.objects.bulk_update(ordered, ["seed"], batch_size=MAX_ENTRANTS)
    for number, entrant in enumerate(ordered, start=1):
        entrant.seed = number
    Entrant.objects.bulk_update(ordered, ["seed"], batch_size=MAX_ENTRANTS)


def seeds_apply(tournament: Tournament) -> list[Entrant]:
    """Set the seeds by the tournament's method and record the order used; called locked, at the start.

    Returns the entrants with their players, by their new seeds: the pairing manager takes
    them rather than reading them again.
    """
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("player").order_by("seed"))
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(player_id__in=[e.player_id for e in entrants])}
    record: dict[str, Any] = {"method": tournament.seed_by}
    ordered = entrants
    if tournament.seed_by == Tournament.SeedBy.RATING:
        ordered = rating_order(entrants, ratings)
    elif tournament.seed_by == Tournament.SeedBy.RANDOM:
        draw = secrets.randbits(53)  # a whole number any JSON reader holds exactly
        ordered = list(entrants)
        random.Random(draw).shuffle(ordered)
        record["draw"] = draw
    if [e.pk for e in ordered] != [e.pk for e in entrants] or any(e.seed != n for n, e in enumerate(ordered, 1)):
        _seeds_set(ordered)
    record["order"] = [
        {
            "seed": entrant.seed,
            "handle": entrant.player.handle,
            "rating": round(ratings[entrant.player_id].rating, 1) if entrant.player_id in ratings else None,
        }
        for entrant in ordered
    ]
    tournament.seeding_record = record
    tournament.save(update_fields=["seeding_record"])
    return list(ordered)
