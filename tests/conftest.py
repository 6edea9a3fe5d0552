"""Fixtures for every suite: API clients, an organiser, three players, on-commit capture.

The data behind them is made by tests/factories.py; the browser fixtures live in
tests/web/conftest.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core.site_cache import GENERATION_KEY
from matches.models import Player
from tests.factories import make_player, make_user

# Hypothesis's profiles. Neither has a deadline: examples that touch the database
# take as long as the shared machine lets them, and a deadline there only fails at
# random. CI (which sets CI=true) also derandomises, so a red run can be rerun as it
# was; on a developer's machine examples stay random to keep finding new cases.
settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci", deadline=None, derandomize=True, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") == "true" else "dev"))


@pytest.fixture(autouse=True)
def _site_lists_fresh() -> None:
    """A new generation of the site lists' cache for each test.

    The lists are site-wide, not keyed by ids that a later test never reuses:
    without this, a test would be served a list cached by an earlier one whose
    rows were rolled back (a rollback invalidates nothing).
    """
    cache.delete(GENERATION_KEY)


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def client_for() -> Callable[[AbstractBaseUser], APIClient]:
    """An API client authenticated with the user's token, as a recording app would be."""

    def make(user: AbstractBaseUser) -> APIClient:
        client = APIClient()
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


@pytest.fixture
def capture(django_capture_on_commit_callbacks: Any) -> Any:
    """Run what a commit enqueues (verification, in-process): `with capture(execute=True): ...`."""
    return django_capture_on_commit_callbacks


@pytest.fixture
def organiser(db: None) -> AbstractBaseUser:
    return make_user("orga", organiser=True)


@pytest.fixture
def alice(db: None) -> Player:
    return make_player("alice")


@pytest.fixture
def ben(db: None) -> Player:
    return make_player("ben")


@pytest.fixture
def carol(db: None) -> Player:
    return make_player("carol")
