"""Reads for the challenges "My matches" shows: received and sent while open, and the answers of the last day."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from matches.models import Challenge, Player
from matches.selectors import challenges_of

#: Challenges the page lists at most, and how long an answered one stays on it.
CHALLENGES_LIMIT = 40
ANSWERED_SHOWN_FOR = timedelta(days=1)


@dataclass(frozen=True)
class MyChallenges:
    received: list[Challenge]
    sent: list[Challenge]
    # Answered in the last day, either way round: an accepted one links to its match.
    answered: list[Challenge]


def my_challenges(*, player: Player) -> MyChallenges:
    """The player's open challenges (not yet past their time) and those answered lately, in one query."""
    now = timezone.now()
    rows = list(
        challenges_of(player=player).filter(
            Q(status=Challenge.Status.OPEN, expires_at__gt=now)
            | Q(
                status__in=[Challenge.Status.ACCEPTED, Challenge.Status.DECLINED],
                answered_at__gte=now - ANSWERED_SHOWN_FOR,
            )
        )[:CHALLENGES_LIMIT]
    )
    waiting = [row for row in rows if row.status == Challenge.Status.OPEN]
    return MyChallenges(
        received=[row for row in waiting if row.challenged_id == player.pk],
        sent=[row for row in waiting if row.challenger_id == player.pk],
        answered=[row for row in rows if row.status != Challenge.Status.OPEN],
    )
