"""`manage.py seed_demo`: an organiser, players, and matches with verified simulator logs.

The data shows every way a result comes about: verified logs, a correction
(with the matches it annulled, played again), a result that stood when its
confirmation window ran out (a lapse), results awaiting the opponent's
confirmation, and a dispute for an organiser. `manage.py audit_records` finds
nothing to say about it. Idempotent: a second run finds everything in place
and adds nothing.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import orjson
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from matches.models import Game, Match, Player
from matches.selectors import player_get
from matches.services import (
    challenge_accept,
    challenge_create,
    game_confirm,
    game_dispute_claim,
    game_report_result,
    games_lapse,
    match_create,
    organiser_grant,
    player_create,
)
from replays.models import MatchLog
from replays.services import log_submit, log_verify, solitaire_submit, solitaire_verify
from speedrules import simulate, verify_document
from tournaments.models import Tournament, TournamentMatch
from tournaments.services import entrant_add, pairing_correct, tournament_create, tournament_start

# Demo logins, printed for the person running the demo and in the README; both pass
# Django's password validators (AUTH_PASSWORD_VALIDATORS).
ADMIN = ("admin", "speed-organiser")
PLAYER_PASSWORD = "speed-player"  # noqa: S105 - demo data, printed for the person running the demo
PLAYERS = [
    ("alice", "Alice Moreau"),
    ("ben", "Ben Okafor"),
    ("chloe", "Chloé Martin"),
    ("dev", "Dev Patel"),
    ("emma", "Emma Lindqvist"),
    ("finn", "Finn O'Brien"),
    ("gina", "Gina Rossi"),
    ("hugo", "Hugo Laurent"),
]
# (players, ruleset, series, the winning seat of each game in turn; "x" is a rejected log first)
MATCHES: list[tuple[tuple[str, str], str, dict[str, int], list[int | str]]] = [
    (("alice", "ben"), "speed", {"best_of": 3}, [0, 1, 0]),
    (("chloe", "dev"), "doubles", {"best_of": 3}, [1]),
    (("emma", "finn"), "jokers-wild", {"first_to": 2}, [1, 1]),
    (("alice", "chloe"), "california", {"best_of": 1}, [1]),
    (("ben", "dev"), "runs-at-once", {"best_of": 3}, ["x", 0, 1]),
    (("finn", "alice"), "seven-card-stacks", {"best_of": 1}, ["x"]),
    (("ben", "emma"), "three-card-hands", {"best_of": 1}, [0]),
    (("chloe", "finn"), "spit", {"best_of": 3}, [0, 1, 0]),
    (("dev", "emma"), "double-spit", {"best_of": 1}, [1]),
]
# Tables of three and four, and a timed match: (players, ruleset, series and options, the seat whose
# simulated log wins each game in turn). The organiser's verified logs decide them; the three-way
# match's last game is a player's log that every other player must confirm (one has, one has not).
TABLES: list[tuple[tuple[str, ...], str, dict[str, Any], list[int]]] = [
    (("alice", "ben", "chloe", "dev"), "four-way", {"best_of": 3}, [2, 0, 2, 1]),
    (("emma", "finn", "gina"), "three-way", {"first_to": 6}, [1, 0]),
    (("hugo", "emma"), "speed", {"best_of": 3, "time_limit_ms": 10_000}, [0, 1, 0, 1, 0]),
]
# Speed Solitaire: (player, how many simulated runs), submitted by the player and verified.
SOLITAIRE = [("alice", 3), ("ben", 2), ("chloe", 2), ("dev", 1)]


def _next_ready(tournament: Tournament) -> TournamentMatch | None:
    """The tournament's next match ready to play, with its match and players."""
    return (
        TournamentMatch.objects.filter(tournament=tournament, status=TournamentMatch.Status.READY, match__isnull=False)
        .select_related("match__player_one", "match__player_two")
        .order_by("round", "position")
        .first()
    )


def _won_game(ruleset: str, names: list[str], seat: int, start: int) -> dict[str, Any]:
    for seed in range(start, start + 1000):
        document = simulate(ruleset, seed=seed, players=names)
        if document["result"].get("winner") == seat:
            return document
    raise RuntimeError(f"no simulated {ruleset} game won by seat {seat}")


def _rejected_game(ruleset: str, names: list[str], start: int) -> dict[str, Any]:
    """A real game with one card played out of turn: the engine rejects it (not_in_hand or no_fit)."""
    document = _won_game(ruleset, names, 0, start)
    plays = [i for i, event in enumerate(document["events"]) if event["type"] == "play" and "card" in event]
    target = document["events"][plays[len(plays) // 2]]
    target["player"] = 1 - target["player"]  # the other player does not hold that card
    assert not verify_document(document).valid
    return document


# (name, format, options, entrants in seed order, matches to play: None plays to the end)
TOURNAMENTS: list[tuple[str, str, dict[str, Any], list[str], int | None]] = [
    (
        # Corrected once finished (CORRECTION), then its annulled matches played again.
        "Spring Cup",
        Tournament.Format.SINGLE_ELIMINATION,
        {"best_of": 3, "ruleset": "speed", "options": {"third_place": True}},
        ["alice", "ben", "chloe", "dev", "emma", "finn", "gina", "hugo"],
        None,
    ),
    (
        "Autumn Swiss",
        Tournament.Format.SWISS,
        {
            "best_of": 1,
            "ruleset": "speed",
            "options": {"swiss_rounds": 3},
            "tie_breaks": ["match_wins", "buchholz", "game_wins", "card_margin"],
        },
        ["alice", "ben", "chloe", "dev", "emma", "finn"],
        None,
    ),
    (
        "Winter Open",
        Tournament.Format.DOUBLE_ELIMINATION,
        {"best_of": 1, "ruleset": "doubles"},
        ["gina", "hugo", "emma", "dev"],
        3,
    ),
]
# The finished bracket's first-round result the organiser corrects (dev v emma), and why.
CORRECTION = (
    "Spring Cup",
    "R1-2",
    "The score sheets of tables 1 and 2 were swapped; the sheet signed by both says so.",
)
# The event still running, where players' own logs wait for the other side.
CONFIRMING = "Winter Open"


class Command(BaseCommand):
    help = (
        "Create demo data: superuser admin / speed-organiser (an organiser), players, matches with verified logs, "
        "and tournaments (a finished bracket, a finished Swiss, a double elimination in progress)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        admin = self._admin()
        for handle, name in PLAYERS:
            if player_get(handle=handle) is None:
                player_create(handle=handle, display_name=name, password=PLAYER_PASSWORD)
        if Tournament.objects.exists() or Match.objects.filter(created_by=admin).exists():
            self.stdout.write("Demo data already there; nothing to add.")
            return
        for number, (handles, ruleset, series, outcomes) in enumerate(MATCHES):
            self._play(
                admin, handles=handles, ruleset=ruleset, series=series, outcomes=outcomes, seed_base=number * 100
            )
        for number, (name, format, tournament_options, entrants, limit) in enumerate(TOURNAMENTS):
            tournament = self._run_tournament(
                admin,
                name=name,
                format=format,
                options=tournament_options,
                entrants=entrants,
                limit=limit,
                seed=number,
            )
            if name == CORRECTION[0]:
                self._correct(admin, tournament, seed=number)
            if name == CONFIRMING:
                self._confirmations(tournament, seed=number)
        self._dispute(seed=9000)
        self._tables(admin, seed=50_000)
        self._solitaire()
        counts = {status: MatchLog.objects.filter(status=status).count() for status in MatchLog.Status.values}
        self.stdout.write(
            self.style.SUCCESS(
                f"Seeded {Player.objects.count()} players, {Match.objects.count()} matches, "
                f"logs: {counts}. Log in as {ADMIN[0]} / {ADMIN[1]} (players: <handle> / {PLAYER_PASSWORD})."
            )
        )

    def _admin(self) -> Any:
        user_model = get_user_model()
        username, password = ADMIN
        admin = user_model.objects.filter(username=username).first()
        if admin is None:
            admin = user_model.objects.create_superuser(username=username, password=password, email="")
        organiser_grant(user=admin)
        return admin

    def _run_tournament(
        self,
        admin: Any,
        *,
        name: str,
        format: str,
        options: dict[str, Any],
        entrants: list[str],
        limit: int | None,
        seed: int,
    ) -> Tournament:
        """Create, fill and start a tournament, then play its ready matches with simulated logs."""
        tournament = tournament_create(name=name, format=format, user=admin, **options)
        for number, handle in enumerate(entrants, start=1):
            entrant_add(tournament_id=tournament.pk, handle=handle, user=admin, seed=number)
        tournament_start(tournament_id=tournament.pk, user=admin)
        self._play_ready(admin, tournament, limit=limit, seed=seed)
        return tournament

    def _play_ready(self, admin: Any, tournament: Tournament, *, limit: int | None, seed: int, first: int = 0) -> None:
        """Play the tournament's ready matches with the organiser's verified logs, in bracket order.

        Each decided match advances the tournament through the services, as a
        verified log would; `limit` stops after that many matches.
        """
        rng = random.Random(seed + first * 1000)
        played = first
        while limit is None or played < limit:
            pairing = _next_ready(tournament)
            if pairing is None or pairing.match is None:
                break
            match = pairing.match
            handles = (match.player_one.handle, match.player_two.handle)
            winner = rng.randrange(2)  # who takes the series, and how many games the other takes first
            needed = match.series_length if match.series == "first_to" else match.series_length // 2 + 1
            outcomes: list[int | str] = [winner] * (needed - 1) + [1 - winner] * rng.randrange(needed)
            rng.shuffle(outcomes)
            outcomes.append(winner)
            self._play_games(
                admin,
                match=match,
                ruleset=tournament.ruleset_name or "speed",
                names=list(handles),
                outcomes=outcomes,
                seed_base=10_000 + seed * 1000 + played * 37,
            )
            played += 1

    def _correct(self, admin: Any, tournament: Tournament, *, seed: int) -> None:
        """The organiser corrects a first-round result of the finished bracket; the matches it set aside are replayed.

        The corrected match itself changes (its games say `correction`), the
        later matches its old winner played are annulled (kept, counted
        nowhere), the ratings are replayed, and the tournament reopens until
        the reset pairings are played again.
        """
        _, key, reason = CORRECTION
        pairing = TournamentMatch.objects.select_related("player_one", "player_two").get(tournament=tournament, key=key)
        loser = pairing.player_two if pairing.winner_id == pairing.player_one_id else pairing.player_one
        assert loser is not None
        pairing_correct(
            tournament_id=tournament.pk, key=key, winner=loser.handle, user=admin, reason=reason, confirm=True
        )
        self._play_ready(admin, tournament, limit=None, seed=seed, first=100)

    def _confirmations(self, tournament: Tournament, *, seed: int) -> None:
        """Players' own logs in the running event: one stood when its window ran out, one awaits the opponent.

        One side's verified log is that side's word: the game waits for the
        other side. The first such claim is left unanswered until its window
        closes (`games_lapse`, as the beat schedule runs it) and stands; the
        next one is left waiting for the opponent.
        """
        for step in range(2):
            pairing = _next_ready(tournament)
            if pairing is None or pairing.match is None:
                return
            match = pairing.match
            game = Game.objects.filter(match=match, status=Game.Status.OPEN).order_by("number").first()
            if game is None:
                return
            names = [match.player_one.handle, match.player_two.handle]
            document = _won_game(tournament.ruleset_name or "speed", names, step % 2, 20_000 + seed * 1000 + step * 10)
            log, _ = log_submit(game_id=game.pk, data=orjson.dumps(document), user=match.player_one.user)
            log_verify(log_id=log.pk)
            game.refresh_from_db()
            if step == 0 and game.confirm_by is not None:
                games_lapse(now=game.confirm_by + timedelta(seconds=1))  # a second after its window closed

    def _dispute(self, *, seed: int) -> None:
        """A match on its own, from a challenge: a log confirmed by the opponent, then a reported result the other
        player disputes."""
        gina, hugo = (player_get(handle=handle) for handle in ("gina", "hugo"))
        assert gina is not None and hugo is not None
        challenge = challenge_create(user=gina.user, challenged="hugo", ruleset="speed", best_of=3)
        match = challenge_accept(challenge_id=challenge.pk, user=hugo.user).match
        assert match is not None
        first = Game.objects.get(match=match, number=1)
        log, _ = log_submit(
            game_id=first.pk, data=orjson.dumps(_won_game("speed", ["gina", "hugo"], 0, seed)), user=gina.user
        )
        log_verify(log_id=log.pk)
        game_confirm(game_id=first.pk, user=hugo.user)
        second = Game.objects.get(match=match, number=2)
        game_report_result(game_id=second.pk, user=hugo.user, winner="hugo")
        game_dispute_claim(
            game_id=second.pk,
            user=gina.user,
            reason="I won game 2 by four cards; hugo reported the game we played before.",
        )

    def _tables(self, admin: Any, *, seed: int) -> None:
        """A four-way and a three-way table and a timed match, decided game by game by simulated, verified logs.

        The games go on until the series rule ends the match (a table's best of
        three can need another game when two players stay equal on every
        tie-break); the three-way match stops with a player's claim to confirm.
        """
        for number, (handles, ruleset, options, winners) in enumerate(TABLES):
            match = match_create(players=list(handles), ruleset=ruleset, created_by=admin, **options)
            names = list(handles)
            for step, winner in enumerate(winners):
                game = Game.objects.filter(match=match, status=Game.Status.OPEN).order_by("number").first()
                if game is None:
                    break
                document = _won_game(ruleset, names, winner, seed + number * 1000 + step * 10)
                log, _ = log_submit(game_id=game.pk, data=orjson.dumps(document), user=admin)
                log_verify(log_id=log.pk)
            if ruleset == "three-way":
                self._table_claim(match, names, seed=seed + 5000)

    def _table_claim(self, match: Match, names: list[str], *, seed: int) -> None:
        """A player's own log at a table is a claim: one other player confirms it, the last has yet to."""
        game = Game.objects.filter(match=match, status=Game.Status.OPEN).order_by("number").first()
        players = [player_get(handle=handle) for handle in names]
        if game is None or any(player is None or player.user is None for player in players):
            return
        claimant, confirming = players[0], players[1]
        assert claimant is not None and confirming is not None
        document = _won_game("three-way", names, 2, seed)
        log, _ = log_submit(game_id=game.pk, data=orjson.dumps(document), user=claimant.user)
        log_verify(log_id=log.pk)
        game.refresh_from_db()
        if game.status == Game.Status.AWAITING_CONFIRMATION:
            game_confirm(game_id=game.pk, user=confirming.user)

    def _solitaire(self) -> None:
        """Solitaire runs for the leaderboard, each player's own, verified here (with or without workers)."""
        for number, (handle, runs) in enumerate(SOLITAIRE):
            player = player_get(handle=handle)
            assert player is not None and player.user is not None
            for run_number in range(runs):
                document = simulate("solitaire", seed=70_000 + number * 100 + run_number, players=[handle])
                run, _ = solitaire_submit(data=orjson.dumps(document), user=player.user)
                solitaire_verify(run_id=run.pk)

    def _play(
        self,
        admin: Any,
        *,
        handles: tuple[str, str],
        ruleset: str,
        series: dict[str, int],
        outcomes: list[int | str],
        seed_base: int,
    ) -> None:
        match = match_create(players=list(handles), ruleset=ruleset, created_by=admin, **series)
        self._play_games(
            admin, match=match, ruleset=ruleset, names=list(handles), outcomes=outcomes, seed_base=seed_base
        )

    def _play_games(
        self,
        admin: Any,
        *,
        match: Match,
        ruleset: str,
        names: list[str],
        outcomes: list[int | str],
        seed_base: int,
    ) -> None:
        """Submit and verify one simulated log per outcome until the match is decided."""
        for step, outcome in enumerate(outcomes):
            game = Game.objects.filter(match=match, status=Game.Status.OPEN).order_by("number").first()
            if game is None:
                return
            start = seed_base + step * 10
            if outcome == "x":  # a rejected log; the game stays open for the next one
                document = _rejected_game(ruleset, names, start)
            else:
                document = _won_game(ruleset, names, int(outcome), start)
            log, _ = log_submit(game_id=game.pk, data=orjson.dumps(document), user=admin)
            # Verified here, so the demo is complete with or without workers running;
            # the enqueued task then finds it judged and does nothing.
            log_verify(log_id=log.pk)
