"""The one guard around the engine: a bug in it is caught, logged and said in words; a result passes through."""

from __future__ import annotations

import logging

import pytest

from replays.services.engine_call import EngineFailure, engine_call
from speedrules import verify_bytes


def test_a_result_passes_through() -> None:
    verdict = engine_call(lambda: verify_bytes(b'{"format": "speed-log/1"}'), what="a log")
    assert not isinstance(verdict, EngineFailure)
    assert not verdict.valid  # a bad log is a verdict, not a failure


def test_an_exception_is_a_failure_with_its_reason_and_a_logged_traceback(caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> int:
        raise KeyError("seat")

    with caplog.at_level(logging.ERROR, logger="replays.services.engine_call"):
        outcome = engine_call(broken, what="log 7")
    assert isinstance(outcome, EngineFailure) and isinstance(outcome.error, KeyError)
    assert outcome.reason == "The verifier failed on this log (KeyError); an operator will look."
    (record,) = caplog.records
    assert record.getMessage() == "engine failed on log 7" and record.exc_info is not None
