"""Exact statement counts of `log_verify` in its common cases, as production runs them.

Counted with `tests.queries.assert_database_query_count`: the savepoint a test's
transaction turns `log_verify`'s own atomic into is left out (in production it
is the BEGIN and COMMIT), and every statement is listed when a count changes.
Each case runs on a short match and on a long one with games already played:
the count must not grow with the match (no query per game).
"""

from __future__ import annotations

import orjson
import pytest

from matches.models import Game, Match
from matches.services import game_set_result
from replays.models import MatchLog
from replays.services import log_submit, log_verify
from tests.factories import make_match, make_players, make_tournament, ready, tampered, won_log
from tests.queries import assert_database_query_count
from tournaments.models import TournamentMatch

pytestmark = pytest.mark.django_db

# The lock; the log with its game, match, players and submitter; the verdict; the game's logs
# as evidence. A claim, a decision or a dispute then writes the game and its history row.
JUDGED = 4
WRITTEN = JUDGED + 2
# A claim also tells the other side: its email's outbox row, one INSERT under the match lock. The
# email used to cost nothing here (a task queued at the commit), and a broker down then lost it;
# one statement more is the price of an email that survives the outage.
CLAIMED = WRITTEN + 1
# A decision then reads the match's games for the series: it opens the next game, or ends the
# match: its row; the ratings listener (the match read by its id, as listeners take ids; both
# ratings made if missing, locked, a later rating looked for, the match's games read, both
# ratings written, their history); the tournaments listener's look for a tournament the match is in.
# The next game opened, the play listener asks whether it is a called match's played at the tables.
DECIDED_MID_MATCH = WRITTEN + 3
DECIDED_MATCH = WRITTEN + 10


def played_to(match: Match, *, wins: tuple[int, int], organiser) -> Game:
    """Let an organiser decide games until the players have these wins; the open game that follows."""
    one, two = match.player_one, match.player_two
    for winner in [one] * wins[0] + [two] * wins[1]:
        game = match.games.get(status=Game.Status.OPEN)
        game_set_result(game_id=game.pk, user=organiser, winner=winner.handle)
    return match.games.get(status=Game.Status.OPEN)


def pending_log(match: Match, *, winner_seat: int, user, bad: bool = False) -> MatchLog:
    game = match.games.get(status=Game.Status.OPEN)
    names = [match.player_one.handle, match.player_two.handle]
    document = won_log(match.ruleset_name or "speed", names, winner_seat=winner_seat, start=game.number * 100)
    data = orjson.dumps(tampered(document) if bad else document)
    log, _ = log_submit(game_id=game.pk, data=data, user=user, enqueue=False)
    return log


# A short match, and a long one with games already played (the wins before the log).
SIZES = [pytest.param(3, (0, 0), id="game-1-of-3"), pytest.param(9, (3, 3), id="game-7-of-9")]


@pytest.mark.parametrize(("best_of", "wins"), SIZES)
def test_a_claim_from_one_sides_log(organiser, best_of: int, wins: tuple[int, int]) -> None:
    one, two = make_players(2)
    match = make_match(one, two, best_of=best_of)
    game = played_to(match, wins=wins, organiser=organiser)
    log = pending_log(match, winner_seat=0, user=one.user)
    with assert_database_query_count(CLAIMED):
        log_verify(log_id=log.pk)
    game.refresh_from_db()
    assert (game.status, game.claimed_winner, game.claimed_by) == (Game.Status.AWAITING_CONFIRMATION, one, one)


@pytest.mark.parametrize(("best_of", "wins"), SIZES)
def test_a_log_deciding_a_game_mid_match(organiser, best_of: int, wins: tuple[int, int]) -> None:
    one, two = make_players(2)
    match = make_match(one, two, best_of=best_of)
    game = played_to(match, wins=wins, organiser=organiser)
    log = pending_log(match, winner_seat=0, user=organiser)
    with assert_database_query_count(DECIDED_MID_MATCH):
        log_verify(log_id=log.pk)
    game.refresh_from_db()
    assert (game.status, game.winner) == (Game.Status.DECIDED, one)
    assert match.games.filter(number=game.number + 1, status=Game.Status.OPEN).exists()


@pytest.mark.parametrize(
    ("best_of", "wins"), [pytest.param(1, (0, 0), id="best-of-1"), pytest.param(9, (4, 3), id="game-8-of-9")]
)
def test_a_log_ending_the_match(organiser, best_of: int, wins: tuple[int, int]) -> None:
    one, two = make_players(2)
    match = make_match(one, two, best_of=best_of)
    played_to(match, wins=wins, organiser=organiser)
    log = pending_log(match, winner_seat=0, user=organiser)
    with assert_database_query_count(DECIDED_MATCH):
        log_verify(log_id=log.pk)
    match.refresh_from_db()
    assert (match.status, match.winner_id) == (Match.Status.FINISHED, one.pk)


@pytest.mark.parametrize(("best_of", "wins"), SIZES)
def test_a_rejected_log(organiser, best_of: int, wins: tuple[int, int]) -> None:
    one, two = make_players(2)
    match = make_match(one, two, best_of=best_of)
    game = played_to(match, wins=wins, organiser=organiser)
    log = pending_log(match, winner_seat=0, user=one.user, bad=True)
    with assert_database_query_count(JUDGED):  # the game stays open: nothing else is written
        log_verify(log_id=log.pk)
    log.refresh_from_db()
    game.refresh_from_db()
    assert (log.status, log.code, game.status) == (MatchLog.Status.REJECTED, "result_mismatch", Game.Status.OPEN)


def test_a_tournament_match_ended_by_a_log(organiser) -> None:
    """As a match that ends, then the tournaments listener records the result and advances the bracket."""
    players = make_players(4)
    tournament = make_tournament(organiser, players, format="single_elimination")
    pairing = ready(tournament)[0]
    match = Match.objects.select_related("player_one", "player_two").get(pk=pairing.match_id)
    log = pending_log(match, winner_seat=0, user=organiser)
    with assert_database_query_count(DECIDED_MATCH + 8):
        log_verify(log_id=log.pk)
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner_id) == (TournamentMatch.Status.DECIDED, match.player_one_id)


@pytest.mark.parametrize("best_of", [3, 1], ids=["mid-match", "match-ending"])
def test_a_log_that_decides_a_game_records_its_submitter_as_who_decided_it(organiser, best_of: int) -> None:
    """A game decided by a log names the log's submitter whether or not the match ends with it
    (the retired SQL path left it empty mid-match)."""
    one, two = make_players(2)
    match = make_match(one, two, best_of=best_of)
    game = match.games.get()
    log_verify(log_id=pending_log(match, winner_seat=1, user=organiser).pk)
    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_by) == (Game.Status.DECIDED, two, Game.DecidedBy.LOG)
    assert game.decided_by_user == organiser
    assert game.changes.get(kind="decision").made_by == organiser
