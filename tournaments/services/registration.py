"""Before the start: registration, approval, check-in, bulk entry, re-seeding, and a start that drops no-shows.

Players register themselves while an organiser keeps registration open; each
registration waits for an organiser's approval (or, with `auto_approve`, is
approved as it arrives), which enters the player after the last seed (or, when
the event is full, puts it on the waiting list). Once
an organiser opens check-in, entrants check themselves in (or an organiser
checks them in), and `tournament_start_checked` drops those who did not, and
moves the waiting list up into their places, before it starts the tournament.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from core.errors import Conflict, Invalid, NotAllowed, NotFound
from matches.models import Player
from matches.selectors import player_get, signed_in, user_player
from matches.services import AnyUser, player_create
from matches.services.notifications import Kind, notify

from ..models import Entrant, Registration, Tournament
from .common import require_organiser, require_setup, tournament_lock
from .entrants import entrant_add, entrant_enter
from .entry import entry_is_full, no_shows_drop, registration_deadline_passed, waiting_joined_notify
from .lifecycle import TournamentSettings, tournament_create, tournament_start, tournament_update

#: Lines one pasted list may hold (a bigger field is split over several pastes).
MAX_BULK_LINES = 512


@transaction.atomic
def tournament_create_described(
    *, user: AnyUser, description: str = "", starts_at: datetime | None = None, **fields: Any
) -> Tournament:
    """`tournament_create` with what the public page says of the event and when it starts."""
    tournament = tournament_create(user=user, **fields)
    tournament.description = description.strip()
    tournament.starts_at = starts_at
    tournament.save(update_fields=["description", "starts_at"])
    return tournament


@transaction.atomic
def tournament_update_described(
    *, tournament_id: int, user: AnyUser, description: str = "", starts_at: datetime | None = None, **fields: Any
) -> Tournament:
    """`tournament_update` (the same fields as `tournament_create`) with what the public page says, before the start."""
    tournament = tournament_update(tournament_id=tournament_id, user=user, settings=TournamentSettings(**fields))
    tournament.description = description.strip()
    tournament.starts_at = starts_at
    tournament.save(update_fields=["description", "starts_at"])
    return tournament


@transaction.atomic
def tournament_registration_set(*, tournament_id: int, user: AnyUser, open: bool) -> Tournament:
    """Open or close self-registration (before the start)."""
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    tournament.registration_open = open
    tournament.save(update_fields=["registration_open"])
    return tournament


@transaction.atomic
def tournament_checkin_set(*, tournament_id: int, user: AnyUser, open: bool) -> Tournament:
    """Open or close check-in (before the start); while it is open, the start drops whoever has not checked in."""
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    tournament.checkin_open = open
    tournament.save(update_fields=["checkin_open"])
    return tournament


@transaction.atomic
def registration_create(*, tournament_id: int, user: AnyUser) -> Registration:
    """The signed-in player asks to enter; an organiser approves or declines, or, with the tournament's
    `auto_approve`, the approval is made at once (entered, or on the waiting list when the event is full)."""
    me = user_player(user=user)
    if me is None:
        raise NotAllowed("Sign up as a player first: only players register for tournaments.")
    tournament = tournament_lock(tournament_id)
    if tournament.status != Tournament.Status.SETUP or not tournament.registration_open:
        raise Conflict(f"Registration for {tournament.name!r} is closed.")
    if registration_deadline_passed(tournament):
        closes = timezone.localtime(tournament.registration_closes_at)
        raise Conflict(f"Registration for {tournament.name!r} closed at {closes:%d %b %Y, %H:%M %Z}.")
    if Entrant.objects.filter(tournament=tournament, player=me).exists():
        raise Invalid(f"You are already entered in {tournament.name!r}.")
    registration, created = Registration.objects.get_or_create(tournament=tournament, player=me)
    if not created and registration.status == Registration.Status.DECLINED:
        raise Conflict("An organiser declined your registration; ask them if you think that is a mistake.")
    if tournament.auto_approve and registration.status == Registration.Status.PENDING:
        return _registration_settle(registration, tournament, approve=True, decided_by=None)
    return registration


@transaction.atomic
def registration_withdraw(*, tournament_id: int, user: AnyUser) -> None:
    """The signed-in player takes back a registration waiting for approval or on the waiting list."""
    me = user_player(user=user)
    tournament = tournament_lock(tournament_id)
    deleted, _ = Registration.objects.filter(
        tournament=tournament, player=me, status__in=[Registration.Status.PENDING, Registration.Status.WAITING]
    ).delete()
    if not deleted:
        raise NotFound("You have no registration waiting for approval here.")


@transaction.atomic
def registration_decide(*, registration_id: int, user: AnyUser, approve: bool) -> Registration:
    """An organiser approves (the player is entered after the last seed) or declines a registration.

    An approval that finds the event full (`Tournament.max_entrants`) puts the
    registration on the waiting list instead; it moves up when a place frees.
    """
    require_organiser(user)
    registration = Registration.objects.select_related("player").filter(pk=registration_id).first()
    if registration is None:
        raise NotFound(f"There is no registration {registration_id}.")
    tournament = tournament_lock(registration.tournament_id)
    require_setup(tournament)
    registration = Registration.objects.select_related("player").get(pk=registration_id)  # re-read under the lock
    if registration.status != Registration.Status.PENDING:
        raise Conflict(f"{registration.player.handle}'s registration is already {registration.status}.")
    return _registration_settle(registration, tournament, approve=approve, decided_by=signed_in(user))


def _registration_settle(
    registration: Registration, tournament: Tournament, *, approve: bool, decided_by: User | None
) -> Registration:
    """Decide a pending registration, the tournament locked: entered, on the waiting list (full) or declined.

    The one approval: an organiser's (`registration_decide`) and one the
    tournament makes itself (`auto_approve`, `decided_by` None) enter and email alike.
    """
    now = timezone.now()
    if approve and entry_is_full(tournament):
        registration.status = Registration.Status.WAITING
        registration.waiting_since = now
    elif approve:
        entrant_enter(tournament, handle=registration.player.handle)
        registration.status = Registration.Status.APPROVED
    else:
        registration.status = Registration.Status.DECLINED
    registration.decided_by = decided_by
    registration.decided_at = now
    registration.save(update_fields=["status", "waiting_since", "decided_by", "decided_at"])
    if registration.status == Registration.Status.WAITING:
        waiting_joined_notify(registration, tournament)
    if registration.status == Registration.Status.APPROVED:
        notify(
            kind=Kind.REGISTRATION_APPROVED,
            user_ids=[registration.player.user_id],
            subject=f"you are entered in {tournament.name}",
            lines=[
                f"Your registration for {tournament.name} is approved: you are entered.",
                "The tournament's page shows when it starts and, once it has, your matches.",
            ],
            path=reverse("web:tournament_detail", args=[tournament.pk]),
        )
    return registration


@transaction.atomic
def registrations_approve_all(*, tournament_id: int, user: AnyUser) -> list[Registration]:
    """Approve every pending registration, oldest first, as one approval each would (`registration_decide`):
    once the event is full the rest go on the waiting list in that order."""
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    pending = Registration.objects.filter(tournament=tournament, status=Registration.Status.PENDING)
    ids = list(pending.order_by("created_at", "pk").values_list("pk", flat=True))
    return [registration_decide(registration_id=pk, user=user, approve=True) for pk in ids]


@transaction.atomic
def entrant_check_in(*, tournament_id: int, user: AnyUser, handle: str | None = None, present: bool = True) -> Entrant:
    """Check an entrant in while check-in is open: oneself (a player), or anyone (an organiser, `handle`).

    `present=False` undoes it (an organiser's override either way).
    """
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    if handle is None:
        player = user_player(user=user)
        if player is None:
            raise NotAllowed("Only players check in.")
    else:
        require_organiser(user)
        player = player_get(handle=handle)
        if player is None:
            raise NotFound(f"There is no player with handle {handle!r}.")
    if not tournament.checkin_open and handle is None:
        raise Conflict(f"Check-in for {tournament.name!r} is not open.")
    entrant = Entrant.objects.filter(tournament=tournament, player=player).first()
    if entrant is None:
        raise NotFound(f"{player.handle!r} is not entered in {tournament.name!r}.")
    entrant.checked_in_at = timezone.now() if present else None
    entrant.save(update_fields=["checked_in_at"])
    return entrant


@dataclass(frozen=True)
class CheckedStart:
    """What `tournament_start_checked` did: the tournament, who it dropped for not checking in, who moved up."""

    tournament: Tournament
    dropped: list[str]
    moved_up: list[str]


@transaction.atomic
def tournament_start_checked(*, tournament_id: int, user: AnyUser) -> CheckedStart:
    """Start the tournament; while check-in is open, first drop the entrants who did not check in.

    The first on the waiting list move up into the places the no-shows leave
    (`entry.no_shows_drop`); an undone start puts both back. The organiser sees
    who was dropped and who moved up.
    """
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    dropped: list[str] = []
    moved: list[str] = []
    tournament.start_entry = None
    if tournament.checkin_open:
        dropped, moved = no_shows_drop(tournament)
    tournament.registration_open = tournament.checkin_open = False
    tournament.save(update_fields=["registration_open", "checkin_open", "start_entry"])
    started = tournament_start(tournament_id=tournament.pk, user=user)
    return CheckedStart(started, dropped, moved)


@dataclass(frozen=True)
class BulkLine:
    """One line of a pasted list: a handle and, for a player not yet known, a display name."""

    handle: str
    display_name: str


def bulk_lines_parse(text: str) -> list[BulkLine]:
    """Lines "handle" or "handle, Display Name" (a tab works as the comma), blank lines skipped, in order."""
    lines: list[BulkLine] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        handle, _, name = line.replace("\t", ",").partition(",")
        lines.append(BulkLine(handle.strip(), name.strip()))
    if len(lines) > MAX_BULK_LINES:
        raise Invalid(f"Paste at most {MAX_BULK_LINES} players at a time.", extra={"field": "players"})
    return lines


@transaction.atomic
def entrants_add_bulk(*, tournament_id: int, lines: Sequence[BulkLine], user: AnyUser) -> list[Entrant]:
    """Enter players in the order given, after the last seed; players not yet known are created without a login.

    All or nothing: a bad line leaves the entry as it was, with the line's number in the message.
    """
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    entered: list[Entrant] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if line.handle.lower() in seen:
            raise Invalid(f"Line {number}: {line.handle!r} is listed twice.", extra={"field": "players"})
        seen.add(line.handle.lower())
        try:
            player = player_get(handle=line.handle) or player_create(
                handle=line.handle, display_name=line.display_name or line.handle
            )
            entered.append(entrant_add(tournament_id=tournament.pk, handle=player.handle, user=user))
        except Invalid as exc:
            raise Invalid(f"Line {number}: {exc.message}", extra={"field": "players"}) from exc
    return entered


@transaction.atomic
def entrant_enter_new(
    *, tournament_id: int, handle: str, display_name: str, user: AnyUser, seed: int | None = None
) -> Entrant:
    """Enter one player by handle; a handle nobody has yet, given with a name, becomes a new player without a login."""
    require_organiser(user)
    player: Player | None = player_get(handle=handle)
    if player is None and not display_name.strip():
        # A mistyped handle should not quietly become a new player: a new one needs a name.
        raise Invalid(
            f"There is no player with handle {handle!r}; give a name too to create them (without a login).",
            extra={"field": "player"},
        )
    if player is None:
        tournament = tournament_lock(tournament_id)
        require_setup(tournament)  # no player is created for an entry that cannot happen
        player = player_create(handle=handle, display_name=display_name)
    return entrant_add(tournament_id=tournament_id, handle=player.handle, user=user, seed=seed)


@transaction.atomic
def entrants_reseed(*, tournament_id: int, handles: Sequence[str], user: AnyUser) -> list[Entrant]:
    """Give the entrants seeds 1..n in the order of `handles` (every entrant exactly once), before the start."""
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    require_setup(tournament)
    entrants = {
        e.player.handle.lower(): e for e in Entrant.objects.filter(tournament=tournament).select_related("player")
    }
    wanted = [handle.strip().lower() for handle in handles if handle.strip()]
    if sorted(wanted) != sorted(entrants) or len(set(wanted)) != len(wanted):
        missing = sorted(set(entrants) - set(wanted))
        unknown = sorted(set(wanted) - set(entrants))
        detail = "; ".join(
            part
            for part in (
                f"missing: {', '.join(missing)}" if missing else "",
                f"not entered: {', '.join(unknown)}" if unknown else "",
            )
            if part
        )
        raise Invalid(f"List every entrant exactly once ({detail or 'a handle is listed twice'}).")
    # Out of the way first (the seed is unique per tournament), then into place.
    offset = len(entrants) + max((e.seed for e in entrants.values()), default=0)
    for entrant in entrants.values():
        entrant.seed += offset
        entrant.save(update_fields=["seed"])
    ordered = [entrants[handle] for handle in wanted]
    for number, entrant in enumerate(ordered, start=1):
        entrant.seed = number
        entrant.save(update_fields=["seed"])
    return ordered
