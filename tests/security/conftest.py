"""Fixtures for the security tests: a clean throttle cache around each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_throttles() -> Iterator[None]:
    """The login throttles count in the cache, which outlives a test's transaction: start and end clean."""
    cache.clear()
    yield
    cache.clear()
