"""The demo's console: each request once, no line per task run in-process."""

from __future__ import annotations

import logging

from django.conf import settings


def test_a_line_under_django_is_printed_once_by_the_roots_handler() -> None:
    # Django's own console handler and the root's both printed each request of the demo's server.
    root = logging.getLogger()
    for name in ("django", "django.channels.server", "django.request"):
        chain = _chain(logging.getLogger(name))
        assert chain[-1] is root, name  # it reaches the root's handler
        assert [handler for at in chain[:-1] for handler in at.handlers] == [], name  # and no other


def test_task_success_lines_are_quiet_when_tasks_run_in_process() -> None:
    assert settings.CELERY_TASK_ALWAYS_EAGER  # the test settings run tasks in-process, as the demo
    assert not logging.getLogger("celery.app.trace").isEnabledFor(logging.INFO)


def _chain(logger: logging.Logger) -> list[logging.Logger]:
    chain: list[logging.Logger] = []
    current: logging.Logger | None = logger
    while current is not None:
        chain.append(current)
        current = current.parent if current.propagate else None  # type: ignore[assignment]
    return chain
