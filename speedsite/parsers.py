"""The API's JSON parser: malformed bodies are a 400 in the project's error shape, never a 500.

DRF's own parser lets a body nested a hundred thousand levels deep escape as a
RecursionError, and accepts NUL characters and lone surrogates ("\\ud800"),
which PostgreSQL cannot store and UTF-8 cannot write back out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class StrictJSONParser(JSONParser):
    def parse(
        self, stream: IO[bytes], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding)
            data = json.loads(text, parse_constant=_refuse_constant)
        except RecursionError:
            raise ParseError("JSON parse error: the document is nested too deeply.") from None
        except (ValueError, UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error: {exc}".encode("ascii", "backslashreplace").decode()) from None
        problem = _bad_text(data)
        if problem:
            raise ParseError(f"JSON parse error: the document contains {problem}, which is not text here.")
        return data


def _bad_text(data: Any) -> str | None:
    """What makes a string in the document unstorable (a NUL, a lone surrogate), or None.

    Walked with a stack, not recursion: the document may be as deep as the parser allowed.
    """
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            if "\x00" in item:
                return "a NUL character (\\u0000)"
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return "a lone surrogate (\\ud800-\\udfff)"
    return None
