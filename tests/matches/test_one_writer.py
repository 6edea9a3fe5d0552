"""One writer per record (docs/architecture.md, "Who writes the results"): a game, its history and a match's
outcome are written in `matches/services/result_writer.py` and nowhere else.

The other services work out a change and hand it to the writer. This reads the source tree (everything the
project runs, but its tests and migrations) and names each write to `Game` or `ResultChange`, or to a match's
`status`, `winner` or `finished_at`, made anywhere else, so a new one fails here rather than in review.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WRITER = Path("matches/services/result_writer.py")
#: Fabricated results, never a served site's: the page benchmark marks thousands of matches finished at once
#: (installed only with DEBUG or SPEED_BENCHMARKS=1). Its Match outcome writes only; a game is never written there.
MATCH_OUTCOME_ALLOWED = {Path("benchmarks/management/commands/bench_pages.py")}

_WRITES = {"save", "delete", "update", "bulk_update", "bulk_create", "create", "get_or_create", "update_or_create"}
_RECORDS = {"Game", "ResultChange"}
_RELATED = {"games", "changes"}  # a match's games and its history, as related managers
_INSTANCE = re.compile(r"(^|_)games?$")  # game, games[...], added_game, self.game
_MATCH_INSTANCE = re.compile(r"(^|_)match$")
_OUTCOME = {"status", "winner", "winner_id", "finished_at"}


def _chain(node: ast.expr) -> tuple[list[str], list[str]]:
    """The names and attributes a call's receiver is built from (`Game.objects.filter(...)`: Game, objects...)."""
    names: list[str] = []
    attributes: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            attributes.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            if isinstance(node, ast.Name):
                names.append(node.id)
            return names, attributes


def _receiver_name(node: ast.expr) -> str:
    """The identifier a method is called on: `game` in `game.save()`, `self.game.save()`, `games[0].save()`."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _strings(node: ast.expr) -> set[str]:
    return {item.value for item in ast.walk(node) if isinstance(item, ast.Constant) and isinstance(item.value, str)}


def writes(source: str) -> list[tuple[int, str]]:
    """Each write to a game, its history or a match's outcome in this module: (line, what)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name) and node.func.id in _RECORDS:
            found.append((node.lineno, f"{node.func.id}(...)"))
            continue
        if not isinstance(node.func, ast.Attribute) or node.func.attr not in _WRITES:
            continue
        method = node.func.attr
        names, attributes = _chain(node.func.value)
        record = next((name for name in names if name in _RECORDS), None)
        if record is not None:
            found.append((node.lineno, f"{record}.{method}"))
        elif _RELATED & set(attributes):
            found.append((node.lineno, f"{next(a for a in attributes if a in _RELATED)}.{method}"))
        elif method in ("save", "delete") and _INSTANCE.search(_receiver_name(node.func.value)):
            found.append((node.lineno, f"{_receiver_name(node.func.value)}.{method}"))
        elif "Match" in names and method in ("update", "bulk_update"):
            # `update(**fields)` may set anything: it counts as a write of the outcome.
            fields = {keyword.arg or "**" for keyword in node.keywords}
            fields |= {string for arg in node.args for string in _strings(arg)}
            if (_OUTCOME | {"**"}) & fields:
                found.append((node.lineno, f"Match.{method}({', '.join(sorted((_OUTCOME | {'**'}) & fields))})"))
        elif method == "save" and _MATCH_INSTANCE.search(_receiver_name(node.func.value)):
            found.append((node.lineno, f"{_receiver_name(node.func.value)}.save"))
    return sorted(found)


def _modules() -> list[Path]:
    skipped = {"tests", ".venv", "node_modules", "static", "templates"}
    return sorted(
        path.relative_to(ROOT)
        for path in ROOT.rglob("*.py")
        if not skipped & set(path.relative_to(ROOT).parts) and "migrations" not in path.parts
    )


def test_nothing_but_the_writer_writes_a_game_its_history_or_a_match_outcome() -> None:
    modules = _modules()
    assert Path("matches/services/games.py") in modules and Path("play/services/finish.py") in modules
    outside = []
    for path in modules:
        if path == WRITER:
            continue
        for line, what in writes((ROOT / path).read_text()):
            if path in MATCH_OUTCOME_ALLOWED and what.startswith("Match."):
                continue
            outside.append(f"{path}:{line}: {what}")
    assert outside == [], "write these through matches/services/result_writer.py:\n" + "\n".join(outside)


def test_the_writer_is_where_the_writes_are() -> None:
    # The check above can fail: it finds the writer's own writes.
    found = {what for _, what in writes((ROOT / WRITER).read_text())}
    assert {"game.save", "ResultChange.create", "Game.bulk_create", "Game.update", "Match.update(**)"} <= found, found
    assert any(what.startswith("Game(") for what in found)


def test_each_way_of_writing_is_found() -> None:
    source = """
Game.objects.filter(pk=1).update(status="void")
Game.objects.create(match=match, number=2)
ResultChange.objects.bulk_create(rows)
game.save(update_fields=["winner"])
self.game.save()
games[0].delete()
match.games.filter(status="open").update(confirm_by=None)
match.changes.create(kind="correction")
Game(match=match, number=3)
Match.objects.filter(pk=1).update(winner=player)
Match.objects.bulk_update(rows, ["status", "winner"])
Match.objects.filter(pk=1).update(**fields)
match.save()
Match.objects.filter(pk=1).update(player_one_id=2)
pairing.save(update_fields=["winner"])
scores.update(more)
"""
    assert [line for line, _ in writes(source)] == list(range(2, 15)), writes(source)
