"""gunicorn's settings for Speed (read from the working directory: `gunicorn speedsite.wsgi` in the
project's root, as the Dockerfile and docker-compose run it; or `--config gunicorn.conf.py`).

gunicorn refuses some requests before Django sees them: a request line longer
than `limit_request_line` (414), more header fields than `limit_request_fields`
or one longer than `limit_request_field_size` (431), a malformed request line or
header (400). Its own answer is an HTML page; the API's clients parse JSON. Its
error body has no setting, so its writer is replaced here by one that answers in
the API's shape, `{"message", "extra"}`, for every address: a request gunicorn
could not read has no path to tell the API's from the site's.
"""

from __future__ import annotations

import json
import socket

from gunicorn import util

# The limits, explicit: gunicorn's most for a request line and a header (8190 bytes each; a log's
# replay link or a filtered list stays far below), and a hundred header fields.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190


def write_json_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's `util.write_error`, answering JSON instead of its HTML page."""
    message = f"{reason}: {mesg}" if mesg else reason
    body = json.dumps({"message": message, "extra": {"refused_by": "http_server"}}).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


util.write_error = write_json_error


def post_worker_init(worker: object) -> None:
    """Read the API's operations from its schema (about a second) as the worker starts, not on its first
    API request: what each endpoint takes (`core.api_strict`)."""
    from core.api_strict import operations  # noqa: PLC0415 - the app is loaded by now, not at import

    operations()
