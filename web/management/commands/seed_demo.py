"""`manage.py seed_demo`: an organiser, players, and matches with verified simulator logs.

Idempotent: a second run finds everything in place and adds nothing.
"""

from __future__ import annotations

import random
from typing import Any

import orjson
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from matches.models import Game, Match, Player
from matches.selectors import player_get
from matches.services import match_create, organiser_grant, player_create
from replays.engine import simulate, verify_document
from replays.models import MatchLog
from replays.services import log_submit, log_verify
from tournaments.models import Tournament, TournamentMatch
from tournaments.services import entrant_add, tournament_create, tournament_start

ADMIN = ("admin", "admin")
PLAYER_PASSWORD = "speed"  # noqa: S105 - demo data, printed for the person running the demo
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
]


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
        "Spring Cup",
        Tournament.Format.SINGLE_ELIMINATION,
        {"best_of": 3, "ruleset": "speed", "third_place": True},
        ["alice", "ben", "chloe", "dev", "emma", "finn", "gina", "hugo"],
        None,
    ),
    (
        "Autumn Swiss",
        Tournament.Format.SWISS,
        {
            "best_of": 1,
            "ruleset": "speed",
            "swiss_rounds": 3,
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


class Command(BaseCommand):
    help = (
        "Create demo data: superuser admin/admin (an organiser), players, matches with verified logs, "
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
            self._run_tournament(
                admin,
                name=name,
                format=format,
                options=tournament_options,
                entrants=entrants,
                limit=limit,
                seed=number,
            )
        counts = {status: MatchLog.objects.filter(status=status).count() for status in MatchLog.Status.values}
        self.stdout.write(
            self.style.SUCCESS(
                f"Seeded {Player.objects.count()} players, {Match.objects.count()} matches, "
                f"logs: {counts}. Log in as admin / admin (players: <handle> / {PLAYER_PASSWORD})."
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
    ) -> None:
        """Create, fill and start a tournament, then play its ready matches with simulated logs.

        Each decided match advances the tournament through the services, as a
        verified log from a player would; `limit` stops after that many matches.
        """
        tournament = tournament_create(name=name, format=format, user=admin, **options)
        for number, handle in enumerate(entrants, start=1):
            entrant_add(tournament_id=tournament.pk, handle=handle, user=admin, seed=number)
        tournament_start(tournament_id=tournament.pk, user=admin)
        rng = random.Random(seed)
        played = 0
        while limit is None or played < limit:
            pairing = (
                TournamentMatch.objects.filter(
                    tournament=tournament, status=TournamentMatch.Status.READY, match__isnull=False
                )
                .select_related("match__player_one", "match__player_two")
                .order_by("round", "position")
                .first()
            )
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
