"""Every change to players, matches and games (HackSoft services: `<entity>_<action>`, keyword-only).

- `challenges`: a player challenges another; the match is made only when the other accepts;
- `players`: creating players, granting the organiser role;
- `matches`: creating matches (rulesets and series), finishing them (`match_finish`, the
  one place a match becomes decided; it then calls the listeners of `matches.listeners`);
- `games`: the match row lock; evidence, confirmation, disputes, settlement and lapses of games
  (the entry points take a game's id; the helpers under the lock take the locked game);
- `results`: a game's result as people give it (places by handle, a team's winner) and as a game keeps it;
- `result_corrections`: a correction from above turns a finished match round, sets, voids or adds some of
  its games, or annuls a match;
- `result_writer`: the one writer of games, their history (`ResultChange`) and a match's outcome: the
  services above work out each change and hand it there (`game_record_change`, `match_outcome_write`).
"""

from ..selectors import AnyUser
from .bulk import match_create_bulk as match_create_bulk  # a tournament's round in a few statements
from .challenges import (
    challenge_accept,
    challenge_create,
    challenge_decline,
    challenge_withdraw,
    challenges_expire,
)
from .games import (
    GAME_MATCH_PLAYERS,
    game_apply_evidence,
    game_confirm,
    game_dispute_claim,
    game_forfeit,
    game_lock,
    game_report_result,
    game_set_result,
    games_lapse,
    require_match_live,
)
from .matches import MAX_SERIES_LENGTH, match_create, match_finish, ruleset_resolve, series_resolve
from .players import HANDLE_PATTERN, organiser_grant, player_create, user_email_set, user_time_zone_set
from .result_corrections import (
    PairCorrection,
    TableCorrection,
    match_annul,
    match_correct,
    match_correct_games,
    match_correct_places,
    pair_correction_plan,
    table_correction_plan,
)
from .result_writer import game_record_change, game_state
from .results import places_from_handles

__all__ = [
    "GAME_MATCH_PLAYERS",
    "HANDLE_PATTERN",
    "MAX_SERIES_LENGTH",
    "AnyUser",
    "PairCorrection",
    "TableCorrection",
    "challenge_accept",
    "challenge_create",
    "challenge_decline",
    "challenge_withdraw",
    "challenges_expire",
    "game_apply_evidence",
    "game_confirm",
    "game_dispute_claim",
    "game_forfeit",
    "game_lock",
    "game_record_change",
    "game_report_result",
    "game_set_result",
    "game_state",
    "games_lapse",
    "match_annul",
    "match_correct",
    "match_correct_games",
    "match_correct_places",
    "match_create",
    "match_finish",
    "organiser_grant",
    "pair_correction_plan",
    "places_from_handles",
    "player_create",
    "require_match_live",
    "ruleset_resolve",
    "series_resolve",
    "table_correction_plan",
    "user_email_set",
    "user_time_zone_set",
]
