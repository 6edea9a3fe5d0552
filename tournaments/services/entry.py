"""Entry rules before the start: a participant cap with a waiting list, and a registration deadline.

The cap counts entrants. An approval that finds the event full puts the
registration on the waiting list (`Registration.Status.WAITING`, in the order
of `waiting_since`); an organiser entering a player directly past the cap is
refused. When an entrant is withdrawn or removed before the start, or the cap is
raised, the first waiting registrations move up in the same transaction
(`waiting_move_up`, called explicitly by those services, never by a signal);
so do they into the places of the no-shows a start with check-in open drops
(`no_shows_drop`), and an undone start puts both back (`start_entry_restore`).
The deadline ends self-registration: after it `registration_create` refuses.

Each waiting player is emailed (`Kind.WAITING_LIST`) when they join the list,
move up into the field, go back to the list when a start is undone, and when
the tournament starts without them.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Max, Q
from django.urls import reverse
from django.utils import timezone

from core.errors import Invalid
from matches.models import Player
from matches.services import AnyUser
from matches.services.notifications import Kind, notify

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


def _tournament_path(tournament: Tournament) -> str:
    return reverse("web:tournament_detail", args=[tournament.pk])


def _moved_up(tournament: Tournament) -> list[Registration]:
    """Enter the first waiting registrations while there is room (after the last seed); those moved up, in order."""
    moved: list[Registration] = []
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
        moved.append(registration)
        count += 1
    if moved:
        notify(
            kind=Kind.WAITING_LIST,
            user_ids=[registration.player.user_id for registration in moved],
            subject=f"you moved up: you are entered in {tournament.name}",
            lines=[
                f"A place in {tournament.name} came free, and you were next on its waiting list: you are entered.",
                "The tournament's page shows when it starts and, once it has, your matches.",
            ],
            path=_tournament_path(tournament),
        )
    return moved


def waiting_move_up(tournament: Tournament) -> list[str]:
    """Enter the first waiting registrations while there is room; the handles moved up, in order (each emailed).

    Called with the tournament locked (by `entrant_remove`, `entry_rules_set`).
    """
    return [registration.player.handle for registration in _moved_up(tournament)]


def waiting_joined_notify(registration: Registration, tournament: Tournament) -> None:
    """Tell the player their approved registration is on the waiting list, and at which place."""
    notify(
        kind=Kind.WAITING_LIST,
        user_ids=[registration.player.user_id],
        subject=f"you are on the waiting list of {tournament.name}",
        lines=[
            f"{tournament.name} is full ({tournament.max_entrants} entrants), so your approved registration "
            f"waits: you are number {waiting_place(registration)} on its waiting list.",
            "You move up, and get an email, if a place comes free before the start. "
            "You can leave the list on the tournament's page.",
        ],
        path=_tournament_path(tournament),
    )


def waiting_left_out_notify(tournament: Tournament) -> None:
    """At the start: tell everyone still on the waiting list that the tournament began without them."""
    user_ids = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.WAITING, player__user__isnull=False
    ).values_list("player__user_id", flat=True)
    notify(
        kind=Kind.WAITING_LIST,
        user_ids=list(user_ids),
        subject=f"{tournament.name} has started without you",
        lines=[
            f"{tournament.name} has started with its entrants, and no place came free for you on its "
            "waiting list: you are not playing in it.",
            "If the organiser undoes the start, you are back on the list where you were.",
        ],
        path=_tournament_path(tournament),
    )


def _seeds_in_order(tournament: Tournament, player_ids: list[int]) -> None:
    """Seeds 1..n: these players first, in this order, then any other entrant by seed (out of the way first)."""
    entrants = list(Entrant.objects.filter(tournament=tournament).order_by("seed"))
    rank = {player_id: index for index, player_id in enumerate(player_ids)}
    ordered = sorted(entrants, key=lambda e: (rank.get(e.player_id, len(rank)), e.seed))
    offset = len(ordered) + max((e.seed for e in ordered), default=0)
    for entrant in ordered:
        entrant.seed += offset
    Entrant.objects.bulk_update(ordered, ["seed"])
    for number, entrant in enumerate(ordered, start=1):
        entrant.seed = number
    Entrant.objects.bulk_update(ordered, ["seed"])


def no_shows_drop(tournament: Tournament) -> tuple[list[str], list[str]]:
    """At a start with check-in open: drop who did not check in, and move the waiting list up into their places.

    Called locked, just before `tournament_start`. The entry as it was is kept
    in `Tournament.start_entry`, for `start_entry_restore`. Returns the handles
    dropped and the handles moved up (each emailed), in order.
    """
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("player").order_by("seed"))
    absent = [entrant for entrant in entrants if entrant.checked_in_at is None]
    if not absent:
        tournament.start_entry = None
        return [], []
    Entrant.objects.filter(pk__in=[entrant.pk for entrant in absent]).delete()
    _seeds_in_order(tournament, [entrant.player_id for entrant in entrants])
    moved = _moved_up(tournament)
    tournament.start_entry = {
        "order": [entrant.player_id for entrant in entrants],
        "dropped": [entrant.player_id for entrant in absent],
        "moved_up": [registration.pk for registration in moved],
    }
    return [entrant.player.handle for entrant in absent], [registration.player.handle for registration in moved]


def start_entry_restore(tournament: Tournament) -> None:
    """An undone start: the no-shows it dropped are entered again, those who moved up go back to the waiting list.

    The seeds are put back in their order before the start (the dropped at
    their places). Those back on the list keep their place there (their
    `waiting_since`), and are emailed. Called locked, by `tournament_start_undo`.
    """
    record = tournament.start_entry
    tournament.start_entry = None
    if not record:
        return
    back = list(
        Registration.objects.filter(
            pk__in=record.get("moved_up", []), tournament=tournament, status=Registration.Status.APPROVED
        ).select_related("player")
    )
    Entrant.objects.filter(tournament=tournament, player_id__in=[r.player_id for r in back]).delete()
    Registration.objects.filter(pk__in=[r.pk for r in back]).update(status=Registration.Status.WAITING)
    entered = set(Entrant.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    existing = set(Player.objects.filter(pk__in=record.get("dropped", [])).values_list("pk", flat=True))
    last = Entrant.objects.filter(tournament=tournament).aggregate(last=Max("seed"))["last"] or 0
    again = [pid for pid in record.get("dropped", []) if pid in existing and pid not in entered]
    Entrant.objects.bulk_create(
        [Entrant(tournament=tournament, player_id=pid, seed=last + n) for n, pid in enumerate(again, start=1)]
    )
    _seeds_in_order(tournament, [int(pid) for pid in record.get("order", [])])
    if back:
        notify(
            kind=Kind.WAITING_LIST,
            user_ids=[registration.player.user_id for registration in back],
            subject=f"the start of {tournament.name} is undone: you are on its waiting list again",
            lines=[
                f"The organiser undid the start of {tournament.name}. The place you moved up into at the start "
                "goes back to the entrant who had not checked in, and you are on the waiting list again, "
                "where you were.",
                "You move up, and get an email, if a place comes free before the tournament starts again.",
            ],
            path=_tournament_path(tournament),
        )


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
