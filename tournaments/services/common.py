"""What every tournament service starts with: the organiser check, the tournament lock, the one error translation."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from core.errors import Conflict, Invalid, NotAllowed, NotFound
from matches.selectors import user_is_organiser
from matches.services import AnyUser
from tournaments.generators import GeneratorUserError

from ..cache import tournament_changed
from ..models import Tournament


def require_organiser(user: AnyUser) -> None:
    if not user_is_organiser(user=user):
        raise NotAllowed("Only organisers can run tournaments.")


def tournament_lock(tournament_id: int) -> Tournament:
    """The tournament row, locked until the transaction ends: its changes apply one after the other.

    Every change to a tournament takes this lock (a result that lands, a
    correction, a call to a station, the start, an entrant), so this is where
    its cached pages are invalidated (`tournaments.cache`), at once and at commit.
    """
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    tournament_changed(tournament_id=tournament.pk)
    return tournament


def require_setup(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.SETUP:
        raise Conflict(f"{tournament.name!r} has started; entrants can only change before the start.")


@contextmanager
def organiser_fixable() -> Iterator[None]:
    """Translate the generators' and formats' `GeneratorUserError` into `Invalid`, with its message.

    The one place that translation happens: whatever an organiser can fix
    (too few entrants for the groups, a result that does not fit) reaches them
    as a 400 or a form error; any other exception is a bug and stays one.
    """
    try:
        yield
    except GeneratorUserError as exc:
        raise Invalid(str(exc)) from exc
