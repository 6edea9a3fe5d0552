"""A Schemathesis check for the Speed API, loaded by test_schemathesis.py (SCHEMATHESIS_HOOKS).

Writes may answer a schema-valid body 400 when it breaks a rule of the game or the
event (schemathesis.toml); this check keeps that from hiding a schema that promises
too much: a 400 from the input serializers (the project's error shape with
`extra.fields`) to a schema-valid request means the schema let through a shape the
API refuses.
"""

from __future__ import annotations

import ast
import threading
from typing import Any

import schemathesis

# CPython 3.11 keeps the AST converter's recursion depth per interpreter, not per
# thread (gh-106905, fixed in later versions): two workers parsing at once can fail
# with "SystemError: AST constructor recursion depth mismatch". Hypothesis parses
# source to describe the lambdas Schemathesis filters with, so with two workers a
# schema change alone could turn that race into a runtime error. One parse at a time.
_parse = ast.parse
_parse_lock = threading.Lock()


def _parse_one_at_a_time(*args: Any, **kwargs: Any) -> Any:
    with _parse_lock:
        return _parse(*args, **kwargs)


ast.parse = _parse_one_at_a_time  # type: ignore[assignment]


@schemathesis.check
def schema_valid_bodies_pass_the_serializers(ctx: Any, response: Any, case: Any) -> bool | None:
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
        return None
    try:
        body = response.json()
    except ValueError:
        return None  # not the project's error shape: the built-in checks judge it
    extra = body.get("extra") if isinstance(body, dict) else None
    if isinstance(extra, dict) and extra.get("fields"):
        raise AssertionError(f"A schema-valid request was refused for its shape: {body.get('message')}")
    return None
