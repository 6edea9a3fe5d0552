"""The hypothesis profile the suite runs under: CI's is derandomised, and neither has a deadline."""

from __future__ import annotations

import os

from hypothesis import settings


def test_the_loaded_profile_has_no_deadline_and_ci_is_derandomised() -> None:
    current = settings()
    assert current.deadline is None
    if os.environ.get("CI") == "true" and "HYPOTHESIS_PROFILE" not in os.environ:
        assert current.derandomize
    assert settings.get_profile("ci").derandomize and settings.get_profile("ci").deadline is None
