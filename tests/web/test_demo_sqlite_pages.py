"""The demo's database (SQLite) runs every page the site serves, not only the demo's own commands.

The suite runs on PostgreSQL; a query that only SQLite refuses (CONCAT_WS before
SQLite 3.44 made every tournament's live poll a 500) shows up only here. A fresh
SQLite file is migrated and seeded, then `sqlite_crawl` walks every page as a
visitor, the organiser and a player.
"""

from __future__ import annotations

import json

from tests.replays.test_demo_sqlite import manage


def test_every_page_of_the_demo_answers_on_sqlite(tmp_path):
    database = tmp_path / "demo.sqlite3"
    manage("migrate", "--noinput", database=database)
    manage("seed_demo", database=database)
    printed = manage("shell", "-c", "from tests.web.sqlite_crawl import main; main()", database=database)
    report = json.loads(next(line for line in printed.splitlines() if line.startswith("{")))
    assert report.pop("unreached") == []
    for visitor, walked in report.items():
        assert walked["failures"] == [], visitor
        assert walked["pages"] > 100, visitor
