"""The API's JSON parser: malformed bodies are a 400 in the project's error shape, never a 500.

DRF's own parser lets a body nested a hundred thousand levels deep escape as a
RecursionError, and accepts NUL characters and lone surrogates ("\\ud800"),
which PostgreSQL cannot store and UTF-8 cannot write back out. This one reads
through `core.json_documents`, the reader the logs go through too: the
same limits on every body.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from .json_documents import JSONDocumentError, json_read


class StrictJSONParser(JSONParser):
    def parse(
        self, stream: IO[bytes], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            return json_read(stream.read().decode(encoding))
        except (JSONDocumentError, UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error: {exc}".encode("ascii", "backslashreplace").decode()) from None
