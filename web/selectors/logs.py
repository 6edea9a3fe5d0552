"""Reads of the log pages: a log for its page or its replay, the logs of a match's games, what a user may submit for."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import orjson
from django.db.models import QuerySet

from matches.models import Game
from matches.selectors import MATCH_PLAYERS, AnyUser, user_is_organiser, user_player
from replays.models import MatchLog
from speedrules import LogError, ruleset_from_json
from tournaments.models import TournamentMatch
from web.presenters.seats import players_title
from web.selectors.matches import in_any_seat
from web.selectors.tournaments import names_of

_LOG_SUMMARY_DEFER = ("data",)


#: A log's (or a game's) match with every seat's player, for select_related.
_GAME_MATCH_PLAYERS = tuple(f"game__match__{seat}" for seat in MATCH_PLAYERS)


def logs_latest_verified(*, limit: int = 8) -> list[MatchLog]:
    """The most recently verified logs of matches with their game, match and players (one query)."""
    return list(
        MatchLog.objects.defer(*_LOG_SUMMARY_DEFER)
        .filter(status=MatchLog.Status.VERIFIED, game__isnull=False)  # a practice game is nobody's news
        .select_related("winner", *_GAME_MATCH_PLAYERS)
        .order_by("-verified_at", "-id")[:limit]
    )


def logs_by_game(*, games: Iterable[Game]) -> dict[int, list[MatchLog]]:
    """Every log of these games, newest first, keyed by game id (one query)."""
    ids = [game.pk for game in games]
    found: dict[int, list[MatchLog]] = defaultdict(list)
    if not ids:
        return found
    logs = MatchLog.objects.defer(*_LOG_SUMMARY_DEFER).filter(game_id__in=ids).select_related("winner")
    for log in logs.order_by("-submitted_at", "-id"):
        if log.game_id is not None:  # always, as filtered: only a practice log has no game
            found[log.game_id].append(log)
    return found


def log_get_for_page(*, log_id: int, with_data: bool = False) -> MatchLog | None:
    """One log with its game, match and players; the document bytes only when asked for."""
    logs = MatchLog.objects.all() if with_data else MatchLog.objects.defer(*_LOG_SUMMARY_DEFER)
    return logs.select_related("winner", *_GAME_MATCH_PLAYERS, "game__winner").filter(pk=log_id).first()


def log_seat_names(*, log: MatchLog) -> list[str]:
    """The log's own `players` list (its seat order), else the match's handles in seat order (none: practice).

    The replay's event descriptions name seats by these strings, so the viewer
    must label seats the same way; the match's player order may differ.
    """
    try:
        names = orjson.loads(bytes(log.data)).get("players")
    except (orjson.JSONDecodeError, AttributeError, TypeError):
        names = None
    if isinstance(names, list) and names and all(isinstance(name, str) for name in names):
        return names
    return [] if log.game is None else [player.handle for player in log.game.match.players]


def ruleset_pack_size(*, ruleset: object) -> int | None:
    """The pack of a match's ruleset (52 per deck plus jokers), None when it is not a valid ruleset."""
    try:
        return ruleset_from_json(ruleset).pack_size
    except LogError:
        return None


def games_open_for_submission(*, user: AnyUser) -> QuerySet[Game]:
    """Games a log can be submitted for by this user: open or disputed, in matches they play (all, for organisers)."""
    games = (
        Game.objects.filter(status__in=[Game.Status.OPEN, Game.Status.DISPUTED])
        .select_related(*(f"match__{seat}" for seat in MATCH_PLAYERS))
        .order_by("-match__created_at", "match_id", "number")
    )
    if user_is_organiser(user=user):
        return games
    me = user_player(user=user)
    if me is None:
        return games.none()
    return games.filter(in_any_seat(me, via="match__"))


@dataclass(frozen=True)
class SubmissionGroup:
    """Games of one tournament round and ruleset (or of matches outside tournaments), for the submit page."""

    label: str
    games: list[tuple[Game, str]]  # each game with its label


def games_grouped(*, games: QuerySet[Game]) -> list[SubmissionGroup]:
    """The games a user may submit for, grouped by tournament, round and ruleset (three queries)."""
    rows = list(games.select_related(*(f"match__{seat}" for seat in MATCH_PLAYERS))[:200])
    pairings = {
        pairing.match_id: pairing
        for pairing in TournamentMatch.objects.filter(match_id__in=[game.match_id for game in rows]).select_related(
            "tournament"
        )
    }
    names = names_of(pairings.values())
    groups: dict[tuple[str, ...], list[tuple[Game, str]]] = defaultdict(list)
    for game in rows:
        match = game.match
        pairing = pairings.get(game.match_id)
        ruleset = (match.ruleset_name or "custom").replace("-", " ").capitalize()
        state = " (disputed)" if game.status == Game.Status.DISPUTED else ""
        players = f"{players_title([p.handle for p in match.players])}, game {game.number}{state}"
        if pairing is not None:
            round_label = names[pairing.pk].split(",")[0] if pairing.bracket in ("round_robin", "swiss") else ""
            key = (pairing.tournament.name, round_label or "", ruleset)
            label = f"{names[pairing.pk]}: {players}"
        else:
            key = ("Matches outside tournaments", "", ruleset)
            label = f"Match {match.pk}: {players}"
        groups[key].append((game, label))
    return [SubmissionGroup(" · ".join(part for part in key if part), items) for key, items in groups.items()]
