"""Entering and withdrawing players before the start."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max

from core.errors import Invalid, NotFound
from matches.selectors import player_get
from matches.services import AnyUser

from ..models import Entrant, Tournament
from .common import require_organiser, require_setup, tournament_lock
from .entry import entry_is_full, waiting_move_up

MAX_ENTRANTS = 4096


@transaction.atomic
def entrant_add(*, tournament_id: int, handle: str, user: AnyUser, seed: int | None = None) -> Entrant:
    """Enter a player, with a seed (1 is the best) or after the last seed."""
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    return entrant_enter(tournament, handle=handle, seed=seed)


def entrant_enter(tournament: Tournament, *, handle: str, seed: int | None = None) -> Entrant:
    """`entrant_add`'s entry itself, for a caller that holds the tournament's lock and has checked who asks
    (an organiser, or a registration approved automatically)."""
    player = player_get(handle=handle)
    if player is None:
        raise Invalid(f"There is no player with handle {handle!r}.", extra={"field": "player"})
    entrants = Entrant.objects.filter(tournament=tournament)
    if entrants.filter(player=player).exists():
        raise Invalid(f"{player.handle!r} is already entered.", extra={"field": "player"})
    count = entrants.count()
    if count >= MAX_ENTRANTS:
        raise Invalid(f"A tournament takes at most {MAX_ENTRANTS} entrants.")
    if entry_is_full(tournament, entrants=count):
        raise Invalid(
            f"{tournament.name!r} is full ({tournament.max_entrants} entrants): raise the cap or withdraw someone first.",
            extra={"field": "player"},
        )
    if seed is None:
        seed = (entrants.aggregate(last=Max("seed"))["last"] or 0) + 1
    elif seed < 1:
        raise Invalid("Seeds start at 1.", extra={"field": "seed"})
    else:
        holder = entrants.filter(seed=seed).select_related("player").first()
        if holder is not None:
            raise Invalid(f"Seed {seed} is taken by {holder.player.handle!r}; choose another.", extra={"field": "seed"})
    try:
        with transaction.atomic():
            return Entrant.objects.create(tournament=tournament, player=player, seed=seed)
    except IntegrityError as exc:  # unreachable while the tournament row is locked; kept for safety
        raise Invalid("That player or seed was just taken; try again.") from exc


@transaction.atomic
def entrant_remove(*, tournament_id: int, handle: str, user: AnyUser) -> list[str]:
    """Withdraw a player before the start; the first on the waiting list moves up into the place.

    Returns the handles that moved up (none without a cap or a waiting list).
    """
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    deleted, _ = Entrant.objects.filter(tournament=tournament, player__handle__iexact=handle).delete()
    if not deleted:
        raise NotFound(f"{handle!r} is not entered in {tournament.name!r}.")
    return waiting_move_up(tournament)
