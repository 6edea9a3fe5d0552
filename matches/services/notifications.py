"""Emails that tell a person something waits on them, through the outbox (`outbox`) and Django's email backend.

Eight kinds (`Kind`), each a flag of `NotificationPreference` that its person can
turn off (no row: all on). The services that make the change call `notify`
explicitly, inside their transaction, with the text and the users it is for;
`notify` writes one outbox row per user (one INSERT, in that transaction) and a
Celery task sends them when it commits; rows a broker outage kept from their
task are sent by the beat's sweep. Who has an address and wants this kind is
read at send time, and so is their time zone: a time in the text is an
`email_times.email_time` mark, which the outbox writes in the recipient's zone. A change rolled back sends nothing, a mail server that fails
never undoes a committed result, and the change itself (a verified log's claim
under the match lock) reads nothing more: it writes the one INSERT.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

from core.errors import NotAllowed

from ..email_times import email_time
from ..listeners import match_organisers
from ..models import Game, Match, NotificationPreference
from ..selectors import ORGANISERS_GROUP, AnyUser
from .outbox import outbox_write, site_url

User = get_user_model()

#: The organisers a dispute in a match of no event goes to, at most (any organiser may settle it).
MAX_CASUAL_ORGANISERS = 20


class Kind(StrEnum):
    """A kind of email: the name of its flag on `NotificationPreference`."""

    CLAIM_WAITING = "claim_waiting"
    MATCH_CALLED = "match_called"
    REGISTRATION_APPROVED = "registration_approved"
    DISPUTE = "dispute"
    WAITING_LIST = "waiting_list"
    CHALLENGE_RECEIVED = "challenge_received"
    CHALLENGE_ANSWERED = "challenge_answered"
    TABLE_WAITING = "table_waiting"


def notify(*, kind: Kind, user_ids: Iterable[int | None], subject: str, lines: Sequence[str], path: str) -> None:
    """Email these users about `kind`: their outbox rows, sent once the current transaction commits.

    One statement, the INSERT (none when nobody is named): who has an address
    and has not turned this kind off is read by the task, after the commit.
    """
    ids = sorted({user_id for user_id in user_ids if user_id is not None})
    if not ids:
        return
    body = "\n\n".join(
        [
            *lines,
            site_url(path),
            "You get this email because it is on in your settings; turn it off at "
            + site_url(reverse("web:notifications")),
        ]
    )

    outbox_write(kind=kind.value, user_ids=ids, subject=f"Speed: {subject}", body=body)


def notification_preferences_get(*, user_id: int) -> NotificationPreference:
    """The user's preferences (an unsaved row with every kind on when they never changed them)."""
    return NotificationPreference.objects.filter(user_id=user_id).first() or NotificationPreference(user_id=user_id)


@transaction.atomic
def notification_preferences_set(*, user: AnyUser, kinds: Iterable[str]) -> NotificationPreference:
    """Turn on exactly these kinds of email for the signed-in user (the others off)."""
    if user is None or not user.is_authenticated:
        raise NotAllowed("Sign in to choose your emails.")
    on = set(kinds)
    values = {kind.value: kind.value in on for kind in Kind}
    preference, _ = NotificationPreference.objects.update_or_create(user_id=user.pk, defaults=values)
    return preference


def _match_path(match: Match) -> str:
    return reverse("web:match_detail", args=[match.pk])


_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def _claim_words(state: dict[str, object]) -> str:
    """What a claim says: "ann won", "a void game", or a table's places ("cy 1st, ann 2nd, bo 3rd, di 4th")."""
    places = state.get("claimed_places")
    if isinstance(places, dict) and places:
        ranked = sorted(places.items(), key=lambda item: (item[1], item[0]))
        return ", ".join(f"{handle} {_ORDINALS.get(place, f'{place}th')}" for handle, place in ranked)
    return f"{state['claimed_winner']} won" if state.get("claimed_winner") else "a void game"


def notify_game_change(*, game: Game, before: dict[str, object], after: dict[str, object], reason: str = "") -> None:
    """A change of a game's result that waits on someone: a new claim (the other side) or a dispute (the organiser).

    Called by `game_record_change`, the one writer of a game's history, under the match lock.
    """
    match = game.match
    status = after.get("status")
    players = match.players
    handles = [player.handle for player in players]
    # As the pages title a match: "ann v bo", a table "ann, bo and cy".
    title = " v ".join(handles) if len(handles) == 2 else ", ".join(handles[:-1]) + " and " + handles[-1]
    if status == Game.Status.AWAITING_CONFIRMATION and game.claimed_by_id is not None:
        if before.get("status") == status and all(
            before.get(key) == after.get(key) for key in ("claimed_winner", "claimed_places")
        ):
            return  # the same claim again (a second log saying it): already told
        side = match.team_of(game.claimed_by_id) if match.is_team else (game.claimed_by_id,)
        claimer = next((player for player in players if player.pk == game.claimed_by_id), None)
        claim = _claim_words(after)
        deadline = f" If nobody disputes it, it stands at {email_time(game.confirm_by)}." if game.confirm_by else ""
        notify(
            kind=Kind.CLAIM_WAITING,
            user_ids=[player.user_id for player in players if player.pk not in side],
            subject=f"confirm game {game.number} of {title}",
            lines=[
                f"{claimer.handle if claimer else 'Your opponent'} says game {game.number} of {title} ended: {claim}.",
                f"Confirm it if that is right, or dispute it and say why.{deadline}",
            ],
            path=_match_path(match),
        )
    elif status == Game.Status.DISPUTED and before.get("status") != status:
        organisers = match_organisers(match_id=match.pk)
        if organisers is None:
            organisers = list(
                User.objects.filter(groups__name=ORGANISERS_GROUP, is_active=True).values_list("pk", flat=True)[
                    :MAX_CASUAL_ORGANISERS
                ]
            )
        why = f" The reason given: “{reason}”." if reason else ""
        notify(
            kind=Kind.DISPUTE,
            user_ids=organisers,
            subject=f"game {game.number} of {title} is disputed",
            lines=[
                f"Game {game.number} of {title} is disputed and waits for an organiser to settle it.{why}",
                "Set its result on the match page.",
            ],
            path=_match_path(match),
        )
