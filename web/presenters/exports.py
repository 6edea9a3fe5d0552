"""A tournament's exports: standings and results as CSV rows, and its logs as one streamed zip archive.

The CSV is written by the `csv` module (quoting, one header line). The archive
holds each log's stored bytes verbatim, named so a log is found back from its
match, game and id: `match-<match id>-<key>/game-<n>-log-<log id>-<status>.json`.
It is written as it streams (a zip can be written forward only, with a data
descriptor after each member), so a request holds one chunk of logs at a time.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from tournaments.models import TournamentMatch
from tournaments.selectors import AnnulledMatch, StandingsView


@dataclass(frozen=True)
class LogEntry:
    """One stored log, with what names it in the archive."""

    pk: int
    match_id: int
    key: str
    game: int
    status: str
    data: bytes
    #: Played for the tournament, then set aside by a correction.
    annulled: bool = False


class GameSource(NamedTuple):
    """One decided game of a match: its number, who won, and what decided it (Game.DecidedBy)."""

    number: int
    winner_id: int | None
    decided_by: str


class _Echo:
    """A file that hands back what is written to it (for csv.writer and zipfile, which write to files)."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.offset = 0

    def write(self, data: bytes) -> int:
        self.chunks.append(bytes(data))
        self.offset += len(data)
        return len(data)

    def tell(self) -> int:
        return self.offset

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        out, self.chunks = b"".join(self.chunks), []
        return out


#: What makes a spreadsheet read a cell as a formula (OWASP's CSV injection list: = + - @ tab and carriage
#: return), and their full-width forms, which some spreadsheets read the same way.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def cell_text(value: object) -> object:
    """A cell a spreadsheet shows as written: text that would start a formula gets a leading apostrophe.

    Only text: numbers (a negative tie-break) stay numbers. Names are anyone's
    to choose, so `=HYPERLINK(...)` in a display name must not reach a
    spreadsheet as a live link."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerows([cell_text(value) for value in row] for row in rows)
    return buffer.getvalue()


@dataclass
class PlayerRecord:
    """One player's matches in a tournament, from its decided pairings: what standings.csv adds to the page."""

    played: int = 0
    won: int = 0
    lost: int = 0
    #: Seated in a pairing still to be played (or waiting for its opponent).
    to_play: bool = False
    #: The last pairing decided against them, as "round 2 of the winners' bracket".
    last_lost_in: str = ""
    last_result_won: bool = False


_UNDECIDED = (TournamentMatch.Status.WAITING, TournamentMatch.Status.READY)


def player_records(pairings: Iterable[TournamentMatch]) -> dict[int, PlayerRecord]:
    """Played, won and lost per player id, over the decided pairings of two or more seats (byes are not played).

    Pairings are taken in the order they were decided, so `last_lost_in` is the
    latest loss: in a knockout, the round a player went out in.
    """
    records: dict[int, PlayerRecord] = {}
    decided = []
    for pairing in pairings:
        if pairing.status in _UNDECIDED:
            for pk in pairing.seat_ids:
                records.setdefault(pk, PlayerRecord()).to_play = True
        elif pairing.status == TournamentMatch.Status.DECIDED and len(pairing.seat_ids) >= 2:
            decided.append(pairing)
    decided.sort(key=lambda pairing: (pairing.decided_at is None, pairing.decided_at, pairing.pk))
    for pairing in decided:
        for pk in pairing.seat_ids:
            record = records.setdefault(pk, PlayerRecord())
            record.played += 1
            record.last_result_won = pairing.winner_id == pk
            if record.last_result_won:
                record.won += 1
            else:
                record.lost += 1
                record.last_lost_in = f"round {pairing.round} of the {pairing.get_bracket_display().lower()}"
    return records


def _standing_status(standings: StandingsView, placed: bool, record: PlayerRecord) -> str:
    """Where a player stands in a bracket: placed, still in, or out (and since when); "" for a table's ranking."""
    if standings.kind != "placings":
        return ""
    if placed:
        return "placed"
    if record.to_play or record.last_result_won or not record.played:
        return "in"
    return f"out in {record.last_lost_in}"


def standings_rows(standings: StandingsView, records: dict[int, PlayerRecord]) -> list[list[object]]:
    """Header and one row per player: place, handle, name, status, played, won, lost, then each tie-break's value.

    `status` tells a knocked-out player from one still in while a bracket runs
    (its places are settled only at the end); a ranked format leaves it empty.
    """
    header: list[object] = ["place", "handle", "name", "status", "played", "won", "lost", *standings.tie_breaks]
    rows: list[list[object]] = [header]
    for row in standings.rows:
        values = [_number(row.values.get(key)) for key in standings.tie_breaks]
        record = records.get(row.player.pk, PlayerRecord())
        place = row.label or (row.rank if row.rank is not None else "")
        rows.append(
            [
                place,
                row.player.handle,
                row.player.display_name,
                _standing_status(standings, bool(row.label), record),
                record.played,
                record.won,
                record.lost,
                *values,
            ]
        )
    return rows


def _number(value: float | None) -> object:
    if value is None:
        return ""
    return int(value) if float(value).is_integer() else round(value, 4)


RESULTS_HEADER = [
    "round",
    "key",
    "name",
    "players",
    "score",
    "winner",
    "result_source",
    "games_decided_by",
    "counted",
    "decided_at",
    "match_id",
]


def _decided_by(sources: list[GameSource]) -> str:
    """Each decided game's true source, in order: "1 table; 2 organiser"."""
    return "; ".join(f"{game.number} {game.decided_by}" for game in sources)


def results_rows(
    pairings: Iterable[TournamentMatch],
    names: dict[str, str],
    *,
    annulled: Iterable[AnnulledMatch] = (),
    sources: dict[int, list[GameSource]] | None = None,
) -> list[list[object]]:
    """Header and one row per decided pairing, then one per match a correction annulled.

    A row says where it was, who played, the score or places, who won and how:
    `result_source` is the pairing's (its match, a bye, an organiser's
    correction) and `games_decided_by` what decided each of the match's games
    (a verified log, the table, an organiser after a dispute…). An annulled
    match keeps its row, `counted` saying which correction set it aside.
    """
    sources = sources or {}
    rows: list[list[object]] = [list(RESULTS_HEADER)]
    rounds = {}
    for pairing in pairings:
        rounds[pairing.key] = pairing.round
        if pairing.status != TournamentMatch.Status.DECIDED:
            continue
        seats = pairing.seats
        if len(seats) > 2:
            score = "-".join(str(place) for place in (pairing.places or []))
        else:
            score = f"{pairing.games_one}-{pairing.games_two}"
        rows.append(
            [
                pairing.round,
                pairing.key,
                names.get(pairing.key, pairing.key),
                " v ".join(seat.handle for seat in seats),
                score,
                pairing.winner.handle if pairing.winner is not None else "",
                pairing.result_source,
                _decided_by(sources.get(pairing.match_id, [])) if pairing.match_id else "",
                "yes",
                pairing.decided_at.isoformat() if pairing.decided_at else "",
                pairing.match_id or "",
            ]
        )
    for item in annulled:
        match = item.match
        games = sources.get(match.pk, [])
        players = match.players
        score = "-".join(str(sum(game.winner_id == player.pk for game in games)) for player in players)
        rows.append(
            [
                rounds.get(item.key, ""),
                item.key,
                names.get(item.key, item.key),
                " v ".join(player.handle for player in players),
                score if len(players) == 2 else "",
                match.winner.handle if match.winner is not None else "",
                "annulled",
                _decided_by(games),
                f"no: annulled by the correction of {item.correction_key}",
                match.finished_at.isoformat() if match.finished_at else "",
                match.pk,
            ]
        )
    return rows


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", text) or "_"


def log_name(entry: LogEntry) -> str:
    """`match-<id>-<key>/…`, and `annulled-match-<id>-<key>/…` for a match a correction set aside."""
    folder = f"{'annulled-' if entry.annulled else ''}match-{entry.match_id}-{_safe(entry.key)}"
    return f"{folder}/game-{entry.game}-log-{entry.pk}-{_safe(entry.status)}.json"


def logs_zip(entries: Iterable[LogEntry]) -> Iterator[bytes]:
    """The zip archive of these logs, as chunks: one log's member at a time."""
    sink = _Echo()
    with zipfile.ZipFile(sink, mode="w", compression=zipfile.ZIP_DEFLATED) as archive:  # type: ignore[arg-type]
        for entry in entries:
            with archive.open(log_name(entry), mode="w") as member:
                member.write(entry.data)
            yield sink.take()
    yield sink.take()  # the central directory
