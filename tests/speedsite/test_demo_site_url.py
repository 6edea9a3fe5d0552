"""The demo's emails link to where the demo answers: scripts/demo.sh sets SPEED_SITE_URL from ADDRPORT.

The script runs for real, in a copy of the checkout's layout whose `.venv/bin/python`
only records what it was asked and with which SPEED_SITE_URL (setting up a venv
and serving are tests/replays/test_demo_sqlite.py's and the browser tests' part).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

SCRIPTS = Path(settings.BASE_DIR) / "scripts"


def run_demo(tmp_path: Path, **env: str) -> list[str]:
    (tmp_path / "scripts").mkdir()
    for name in ("demo.sh", "site_url.sh"):
        shutil.copy(SCRIPTS / name, tmp_path / "scripts" / name)
    (tmp_path / "scripts" / "bootstrap.sh").write_text("true\n")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text('#!/usr/bin/env bash\necho "$SPEED_SITE_URL $*" >> "$(dirname "$0")/../../calls"\n')
    python.chmod(0o755)
    base = {key: value for key, value in os.environ.items() if key not in ("ADDRPORT", "SPEED_SITE_URL")}
    run = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "demo.sh")],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return (tmp_path / "calls").read_text().splitlines()


@pytest.mark.parametrize(
    ("addrport", "url"),
    [
        (None, "http://127.0.0.1:8000"),
        ("8080", "http://127.0.0.1:8080"),
        ("127.0.0.1:9001", "http://127.0.0.1:9001"),
        ("localhost:6666", "http://localhost:6666"),
        ("[::1]:8000", "http://[::1]:8000"),
    ],
)
def test_every_step_of_the_demo_links_to_the_address_it_serves_on(tmp_path, addrport, url):
    calls = run_demo(tmp_path, **({"ADDRPORT": addrport} if addrport else {}))
    assert [call.split(" ", 1)[0] for call in calls] == [url] * 3  # migrate, seed_demo, runserver
    assert calls[-1].endswith(f"runserver {addrport or '127.0.0.1:8000'}")


def test_a_demo_on_every_interface_links_to_this_machines_name(tmp_path):
    calls = run_demo(tmp_path, ADDRPORT="0.0.0.0:8000")
    host = calls[-1].split(" ", 1)[0].removeprefix("http://").rsplit(":", 1)[0]
    assert host not in ("0.0.0.0", "") and calls[-1].startswith(f"http://{host}:8000 ")


def test_an_address_given_is_kept(tmp_path):
    calls = run_demo(tmp_path, ADDRPORT="8080", SPEED_SITE_URL="https://demo.example.org")
    assert {call.split(" ", 1)[0] for call in calls} == {"https://demo.example.org"}
