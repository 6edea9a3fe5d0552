"""The one reader of JSON that clients send: the API's bodies and the logs (match logs, solitaire runs).

The same limits for every one, so no path breaks where another answers 400:

- strict JSON: no NaN or Infinity; integers of any size (the standard library's
  reading where orjson's 64 bits end, as the engine reads them);
- nested at most `MAX_DEPTH` levels. A speed-log/1 document is a few levels
  deep; a thousand levels parse (orjson allows 1024) but then break whatever
  walks them recursively (a repr in a message, the engine, a JSON encoder),
  and Python's own parser raises RecursionError deeper still;
- no NUL character and no lone surrogate in any string (PostgreSQL cannot store
  the one, UTF-8 cannot write the other).

`JSONDocumentError` (a ValueError) says which limit, in words a client can act on.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

#: Deeper than any document the API or the log formats define, far below the depth that breaks recursion.
MAX_DEPTH = 64


class JSONDocumentError(ValueError):
    """The bytes are not a JSON document within the limits; the message says why."""


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def json_read(data: bytes | str) -> Any:
    """The JSON value of `data` within the limits above, or `JSONDocumentError`."""
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as fast_error:
        if "depth" in str(fast_error):
            raise JSONDocumentError(f"the document is nested more than {MAX_DEPTH} levels deep") from None
        try:  # the standard parser accepts integers orjson refuses (beyond 64 bits)
            document = json.loads(data, parse_constant=_refuse_constant)
        except RecursionError:
            raise JSONDocumentError(f"the document is nested more than {MAX_DEPTH} levels deep") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise JSONDocumentError(str(exc).encode("ascii", "backslashreplace").decode()) from None
    problem = _problem(document)
    if problem:
        raise JSONDocumentError(problem)
    return document


def _problem(document: Any) -> str | None:
    """What breaks a limit in the parsed document (depth, a NUL, a lone surrogate), or None.

    Walked with a stack, not recursion: the document may be as deep as the parser allowed."""
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                return f"the document is nested more than {MAX_DEPTH} levels deep"
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
        elif isinstance(item, str):
            if "\x00" in item:
                return "the document contains a NUL character (\\u0000), which is not text here"
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return "the document contains a lone surrogate (\\ud800-\\udfff), which is not text here"
    return None
