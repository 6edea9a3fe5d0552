"""Replay steps: the table after the deal and after each event, computed on first view and kept compact."""

from __future__ import annotations

from django.db import transaction

from core.errors import Conflict
from replays.compact import FORMAT, CompactSteps, encode, moves_from_document
from speedrules import ENGINE_VERSION, verify_bytes

from ..models import MatchLog, ReplaySteps
from .engine_call import EngineFailure, engine_call


@transaction.atomic
def log_steps_build(*, log_id: int) -> ReplaySteps:
    """The replay's steps for a log, computed from the stored bytes and kept for this engine version.

    Computed on first view rather than in the worker: most logs are never
    replayed, the steps are many times larger than the log, and keeping them
    out of the verification task keeps the pipeline fast. Cached in the
    database (one row per log) in the compact form of `replays.compact` (a
    small fraction of the engine's dicts: `bench_replay` prints both), so
    every later view is a single small read (the log's bytes are read only to
    compute them); recomputed when the engine version changes or the row
    holds an older form. Raises MatchLog.DoesNotExist.
    """
    cached = ReplaySteps.objects.filter(log_id=log_id).first()
    if cached is not None and cached.engine_version == ENGINE_VERSION and cached.legend.get("format") == FORMAT:
        return cached
    data = MatchLog.objects.values_list("data", flat=True).get(pk=log_id)
    compact = document_compact_steps(bytes(data), name=f"log {log_id}")
    replay, _ = ReplaySteps.objects.update_or_create(
        log_id=log_id, defaults={"engine_version": ENGINE_VERSION, "steps": compact.rows, "legend": compact.legend}
    )
    return replay


def document_compact_steps(data: bytes, *, name: str) -> CompactSteps:
    """The compact steps of a stored document (`name` says which, in the error), straight from the engine."""

    def compute() -> CompactSteps:
        # Inside the call: a verdict's steps are built when first read.
        verdict = verify_bytes(data, steps=True)
        return encode([step.to_dict() for step in verdict.steps or ()], moves_from_document(data))

    outcome = engine_call(compute, what=f"the steps of {name}")
    if isinstance(outcome, EngineFailure):  # say so, never a 500
        raise Conflict(
            f"The replay of {name} cannot be computed: the verifier failed on it ({type(outcome.error).__name__})."
        ) from outcome.error
    return outcome


def replay_compact(replay: ReplaySteps) -> CompactSteps:
    """A kept replay's steps as `replays.compact` reads them."""
    return CompactSteps(legend=replay.legend, rows=replay.steps)
