"""Standings: match records in, ranked rows out, by a registry of tie-break metrics. Pure Python."""

from .metrics import METRICS, Metric, ResultsTable, metric_for, register
from .records import MatchRecord
from .table import StandingsRow, compute_standings

__all__ = [
    "METRICS",
    "MatchRecord",
    "Metric",
    "ResultsTable",
    "StandingsRow",
    "compute_standings",
    "metric_for",
    "register",
]
