"""Challenges: a player asks another to a casual match, and only the other's yes makes it.

`challenge_create` checks the match's settings as `match_create` does (the same
`match_settings_resolve`) and stores them; `challenge_accept` makes the match
through `match_create` under the challenge row's lock, so two accepts at once
make one match; the other answers (`challenge_decline`, `challenge_withdraw`)
take the same lock. An open challenge past `expires_at` is expired: every
service reads it so, and `challenges_expire` (the beat's sweep) writes it down.
Each party is told by email, through the outbox, in the change's transaction.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from core.errors import Conflict, Invalid, NotAllowed, NotFound

from ..models import Challenge, Match, Player
from ..selectors import AnyUser, challenge_status, player_get, user_player
from .matches import match_create, match_settings_resolve
from .notifications import Kind, notify

#: How long a challenge waits for its answer unless its challenger says otherwise.
CHALLENGE_LIFETIME = timedelta(days=1)


def challenge_terms(challenge: Challenge) -> str:
    """The match a challenge asks for, in words: "best of 3 of speed, timed (90 s a game)"."""
    series = "best of" if challenge.series == Match.Series.BEST_OF else "first to"
    timed = f", timed ({challenge.time_limit_ms / 1000:g} s a game)" if challenge.time_limit_ms else ""
    return f"{series} {challenge.series_length} of {challenge.ruleset_name or 'a custom ruleset'}{timed}"


def _utc(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%d %b, %H:%M} UTC"


def _pair(one: Player, two: Player) -> Q:
    return Q(challenger=one, challenged=two) | Q(challenger=two, challenged=one)


@transaction.atomic
def challenge_create(
    *,
    user: AnyUser,
    challenged: str,
    ruleset: object = "speed",
    best_of: int | None = None,
    first_to: int | None = None,
    time_limit_ms: int | None = None,
    lifetime: timedelta = CHALLENGE_LIFETIME,
) -> Challenge:
    """The signed-in player challenges the player with handle `challenged` to a two-player match.

    Refused: a user who is not a player, oneself, a handle nobody has, a player
    with no account to answer with, settings a match would refuse, and a second
    open challenge between the same two players (either way round).
    """
    me = user_player(user=user)
    if me is None:
        raise NotAllowed("Only players challenge other players; sign in as a player.")
    opponent = player_get(handle=challenged)
    if opponent is None:
        raise Invalid(f"No player with handle {challenged!r}.", extra={"field": "challenged"})
    if opponent.pk == me.pk:
        raise Invalid("You cannot challenge yourself: name another player.", extra={"field": "challenged"})
    if opponent.user_id is None:
        raise Invalid(
            f"{opponent.handle} has no account to answer a challenge with; ask an organiser for the match.",
            extra={"field": "challenged"},
        )
    settings = match_settings_resolve(
        seats=2, ruleset=ruleset, best_of=best_of, first_to=first_to, time_limit_ms=time_limit_ms
    )
    # Both players' rows, in id order: two challenges between them at once (either way round) queue here.
    list(Player.objects.select_for_update().filter(pk__in=[me.pk, opponent.pk]).order_by("pk"))
    now = timezone.now()
    Challenge.objects.filter(_pair(me, opponent), status=Challenge.Status.OPEN, expires_at__lte=now).update(
        status=Challenge.Status.EXPIRED
    )
    existing = Challenge.objects.filter(_pair(me, opponent), status=Challenge.Status.OPEN).first()
    if existing is not None:
        if existing.challenger_id == me.pk:
            raise Conflict(
                f"You already challenged {opponent.handle} (challenge {existing.pk}, open until "
                f"{_utc(existing.expires_at)}): withdraw it to send another.",
                extra={"field": "challenged", "challenge": existing.pk},
            )
        raise Conflict(
            f"{opponent.handle} has already challenged you (challenge {existing.pk}): accept or decline theirs.",
            extra={"field": "challenged", "challenge": existing.pk},
        )
    challenge = Challenge.objects.create(
        challenger=me,
        challenged=opponent,
        ruleset=settings.ruleset.to_json(),
        ruleset_name=settings.ruleset_name,
        series=settings.series,
        series_length=settings.series_length,
        time_limit_ms=settings.time_limit_ms,
        expires_at=now + lifetime,
    )
    notify(
        kind=Kind.CHALLENGE_RECEIVED,
        user_ids=[opponent.user_id],
        subject=f"{me.handle} challenges you to a match",
        lines=[
            f"{me.handle} challenges you to a match: {challenge_terms(challenge)}.",
            f"Accept or decline it under My matches before {_utc(challenge.expires_at)}, when it expires.",
        ],
        path=reverse("web:my_matches"),
    )
    return challenge


def _answerable(challenge_id: int, user: AnyUser, *, by_challenged: bool, doing: str, done: str) -> Challenge:
    """The challenge, its row locked, once `user` may `doing` it (the challenged player answers, its challenger
    withdraws) and it is still open: else the refusal, having changed nothing."""
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger", "challenged")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None:
        raise NotFound(f"There is no challenge {challenge_id}.")
    _require_party(challenge, user, challenged=by_challenged, doing=doing)
    _require_open(challenge, done)
    return challenge


def _answered(challenge: Challenge, status: str, match: Match | None = None) -> None:
    challenge.status = status
    challenge.match = match
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "match", "answered_at"])


def _require_open(challenge: Challenge, doing: str) -> None:
    """Refuse to `doing` a challenge already answered, withdrawn or expired (as read now)."""
    status = challenge_status(challenge, now=timezone.now())
    if status == Challenge.Status.EXPIRED:
        raise Conflict(
            f"This challenge expired at {_utc(challenge.expires_at)}, so it cannot be {doing} now; "
            "a new challenge can be sent.",
            extra={"status": status},
        )
    if status != Challenge.Status.OPEN:
        raise Conflict(f"This challenge is already {status}, so it cannot be {doing}.", extra={"status": status})


def _require_party(challenge: Challenge, user: AnyUser, *, challenged: bool, doing: str) -> None:
    """Only the challenged player answers a challenge, and only its challenger withdraws it."""
    me = user_player(user=user)
    party = challenge.challenged if challenged else challenge.challenger
    if me is not None and me.pk == party.pk:
        return
    if challenged:
        raise NotAllowed(f"Only {party.handle}, who was challenged, can {doing} this challenge.")
    raise NotAllowed(f"Only {party.handle}, who made this challenge, can withdraw it.")


def _tell_challenger(challenge: Challenge, *, answer: str, lines: list[str], path: str) -> None:
    notify(
        kind=Kind.CHALLENGE_ANSWERED,
        user_ids=[challenge.challenger.user_id],
        subject=f"{challenge.challenged.handle} {answer} your challenge",
        lines=lines,
        path=path,
    )


@transaction.atomic
def challenge_accept(*, challenge_id: int, user: AnyUser) -> Challenge:
    """The challenged player says yes: the match is made (through `match_create`) and the challenger told.

    Under the challenge row's lock, so a second accept waits, then finds it accepted.
    """
    challenge = _answerable(challenge_id, user, by_challenged=True, doing="accept", done="accepted")
    match = match_create(
        players=[challenge.challenger.handle, challenge.challenged.handle],
        ruleset=challenge.ruleset,
        best_of=challenge.series_length if challenge.series == Match.Series.BEST_OF else None,
        first_to=challenge.series_length if challenge.series == Match.Series.FIRST_TO else None,
        time_limit_ms=challenge.time_limit_ms,
        created_by=user,
        agreed=True,
        rated=False,
    )
    _answered(challenge, Challenge.Status.ACCEPTED, match)
    _tell_challenger(
        challenge,
        answer="accepted",
        lines=[
            f"{challenge.challenged.handle} accepted your challenge ({challenge_terms(challenge)}).",
            "Your match is made: play it at a table from its page, or report its games there.",
        ],
        path=reverse("web:match_detail", args=[match.pk]),
    )
    return challenge


@transaction.atomic
def challenge_decline(*, challenge_id: int, user: AnyUser) -> Challenge:
    """The challenged player says no: no match, and the challenger told."""
    challenge = _answerable(challenge_id, user, by_challenged=True, doing="decline", done="declined")
    _answered(challenge, Challenge.Status.DECLINED)
    _tell_challenger(
        challenge,
        answer="declined",
        lines=[f"{challenge.challenged.handle} declined your challenge ({challenge_terms(challenge)})."],
        path=reverse("web:player_detail", args=[challenge.challenged.handle]),
    )
    return challenge


@transaction.atomic
def challenge_withdraw(*, challenge_id: int, user: AnyUser) -> Challenge:
    """The challenger takes an open challenge back before it is answered."""
    challenge = _answerable(challenge_id, user, by_challenged=False, doing="withdraw", done="withdrawn")
    _answered(challenge, Challenge.Status.WITHDRAWN)
    return challenge


def challenges_expire() -> int:
    """Write down as expired every open challenge past its time (the beat's sweep); how many."""
    return Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__lte=timezone.now()).update(
        status=Challenge.Status.EXPIRED
    )
