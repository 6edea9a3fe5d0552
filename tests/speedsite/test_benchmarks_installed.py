"""The benchmarks are not installed in production settings (DEBUG off), only where asked for."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.apps import apps
from django.conf import settings

PROBE = (
    "import django; django.setup(); from django.apps import apps; from django.conf import settings; "
    "print(apps.is_installed('benchmarks'), settings.DEBUG)"
)


def installed_under(**environment: str) -> str:
    """What a fresh process with the production settings module and this environment says."""
    inherited = {
        k: v for k, v in os.environ.items() if k not in {"DEBUG", "SPEED_BENCHMARKS", "DJANGO_SETTINGS_MODULE"}
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        env={**inherited, "DJANGO_SETTINGS_MODULE": "speedsite.settings", **environment},
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        pytest.param(
            {"DEBUG": "0", "SECRET_KEY": "a-production-key-for-this-test-only"}, "False False", id="production"
        ),
        pytest.param(
            {"DEBUG": "0", "SECRET_KEY": "a-production-key-for-this-test-only", "SPEED_BENCHMARKS": "1"},
            "True False",
            id="production-asking-for-them",
        ),
        pytest.param({"DEBUG": "1"}, "True True", id="development"),
    ],
)
def test_the_benchmarks_app_is_installed_only_in_development_or_when_asked_for(
    environment: dict[str, str], expected: str
) -> None:
    assert installed_under(**environment) == expected


def test_the_test_settings_install_the_benchmarks() -> None:
    assert apps.is_installed("benchmarks")
