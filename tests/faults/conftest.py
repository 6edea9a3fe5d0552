"""The fault tests send tasks through Redis as the pipeline tests do: their `broker` fixture."""

from tests.replays.test_pipeline import broker  # noqa: F401 - a fixture, found by pytest here
