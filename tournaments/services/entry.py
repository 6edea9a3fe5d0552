"""Entry rules before the start: a participant cap with a waiting list, and a registration deadline.

The cap counts entrants. An approval that finds the event full puts the
registration on the waiting list (`Registration.Status.WAITING`, in the order
of `waiting_since`); an organiser entering a player directly past the cap is
refused. When an entrant is withdrawn or removed before the start, or the cap is
raised, the first waiting registrations move up in the same transaction
(`waiting_move_up`, called explicitly by those services, never by a signal).
The deadline ends self-registration: after it `registration_create` refuses.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from matches.services import AnyUser
from speedsite.errors import Invalid

from ..models import Entrant, Registration, Tournament
from .common import require_organiser, require_setup, tournament_lock

#: The largest cap an organiser may set (the most entrants any tournament takes).
MAX_CAP = 4096


def entry_is_full(tournament: Tournament, *, entrants: int | None = None) -> bool:
    """Whether the cap is reached (`entrants`: the count, when the caller has it)."""
    if tournament.max_entrants is None:
        return False
    count = Entrant.objects.filter(tournament=tournament).count() if entrants is None else entrants
    return count >= tournament.max_entrants


def registration_deadline_passed(tournament: Tournament, *, now: datetime | None = None) -> bool:
    closes = tournament.registration_closes_at
    return closes is not None and (now or timezone.now()) >= closes


def waiting_move_up(tournament: Tournament) -> list[str]:
    """Enter the first waiting registrations while there is room; the handles moved up, in order.

    Called with the tournament locked (by `entrant_remove`, `entry_rules_set`).
    """
    moved: list[str] = []
    waiting = (
        Registration.objects.filter(tournament=tournament, status=Registration.Status.WAITING)
        .select_related("player")
        .order_by("waiting_since", "id")
    )
    count = Entrant.objects.filter(tournament=tournament).count()
    for registration in waiting:
        if entry_is_full(tournament, entrants=count):
            break
        last = Entrant.objects.filter(tournament=tournament).aggregate(last=Max("seed"))["last"] or 0
        Entrant.objects.create(tournament=tournament, player=registration.player, seed=last + 1)
        registration.status = Registration.Status.APPROVED
        registration.save(update_fields=["status"])
        moved.append(registration.player.handle)
        count += 1
    return moved


def waiting_place(registration: Registration) -> int:
    """A waiting registration's place on the list (1 moves up first)."""
    assert registration.waiting_since is not None
    since = registration.waiting_since
    ahead = Q(waiting_since__lt=since) | Q(waiting_since=since, id__lt=registration.pk)
    return (
        Registration.objects.filter(
            ahead, tournament_id=registration.tournament_id, status=Registration.Status.WAITING
        ).count()
        + 1
    )


@transaction.atomic
def entry_rules_set(
    *,
    tournament_id: int,
    user: AnyUser,
    max_entrants: int | None,
    registration_closes_at: datetime | None,
) -> tuple[Tournament, list[str]]:
    """Set the cap (None: none) and the registration deadline (None: none), before the start.

    A cap below the entrants already in is refused (withdraw someone first);
    a higher cap moves the first waiting registrations up. Returns the
    tournament and the handles moved up.
    """
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    if max_entrants is not None:
        if not 2 <= max_entrants <= MAX_CAP:
            raise Invalid(
                f"The cap is from 2 to {MAX_CAP} entrants, not {max_entrants}.", extra={"field": "max_entrants"}
            )
        count = Entrant.objects.filter(tournament=tournament).count()
        if max_entrants < count:
            raise Invalid(
                f"{tournament.name!r} already has {count} entrants; withdraw some before setting a cap of {max_entrants}.",
                extra={"field": "max_entrants"},
            )
    tournament.max_entrants = max_entrants
    tournament.registration_closes_at = registration_closes_at
    tournament.save(update_fields=["max_entrants", "registration_closes_at"])
    return tournament, waiting_move_up(tournament)
