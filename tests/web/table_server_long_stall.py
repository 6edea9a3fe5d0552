"""The browser tests' table settings with a stall long enough for a page to be seen choosing where its
draw pile's card goes."""

from tests.web.table_server_settings import *  # noqa: F403

SPEED_TABLE_SETTINGS = {**SPEED_TABLE_SETTINGS, "stall_ms": 6000}  # noqa: F405
