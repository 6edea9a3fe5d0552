"""The settings of the Daphne that the table page's browser tests start: the tests' own, with the
spec's time for the players to sit down and ready (a page logs in and loads first)."""

from speedsite.test_settings import *  # noqa: F403

SPEED_TABLE_SETTINGS = {**SPEED_TABLE_SETTINGS, "abandon_ms": 60000}  # noqa: F405
