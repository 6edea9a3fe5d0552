"""Every change to tournaments (HackSoft services: `<entity>_<action>`, keyword-only), by sub-domain.

- `lifecycle`: `tournament_create` and `tournament_update` (the format's `options` checked by its schema),
  `tournament_start`, `tournaments_start_due` (the beat's: events that run themselves start on time),
  `tournament_start_undo`, `tournament_delete`
- `entrants`: `entrant_add`, `entrant_remove`
- `advancement`: `tournament_match_decided` (a decided match advances its tournament)
- `pairing_corrections`: `pairing_correct`
- `ratings`: `ratings_record_match`, `ratings_recompute` (ratings replayed from the ordered results)
- `pairings`: the pairing manager, the one writer of pairing rows and their matches: it asks the
  format for a plan (`tournaments.plans.PairingPlan`) and saves it; called by the services above
  with the tournament locked
- `running`, `registration`: the floor (calls, scores) and the entry before the start
- `entry`: the cap, the waiting list and the deadline; `seeding`: the seeds set at the start (by hand,
  rating or draw); `schedule`: the start time, rounds' "not before" times, players' calendar tokens

Each service that touches a running tournament locks its row first
(`common.tournament_lock`). What an organiser can fix in a format or a
generator (`GeneratorUserError`) becomes `Invalid` in one place
(`common.organiser_fixable`).
"""

from .advancement import tournament_match_decided
from .entrants import MAX_ENTRANTS, entrant_add, entrant_remove
from .lifecycle import (
    TournamentSettings,
    tournament_create,
    tournament_delete,
    tournament_start,
    tournament_start_undo,
    tournament_update,
    tournaments_start_due,
)
from .pairing_corrections import pairing_correct
from .ratings import ratings_recompute, ratings_record_match

__all__ = [
    "MAX_ENTRANTS",
    "TournamentSettings",
    "entrant_add",
    "entrant_remove",
    "pairing_correct",
    "ratings_recompute",
    "ratings_record_match",
    "tournament_create",
    "tournament_delete",
    "tournament_match_decided",
    "tournament_start",
    "tournament_start_undo",
    "tournament_update",
    "tournaments_start_due",
]
