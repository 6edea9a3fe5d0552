"""Standings: match records in, ranked rows out, by a registry of tie-break metrics. Pure Python."""

from .metrics import METRICS, Metric, ResultsTable, metric_for, register
from .records import MatchRecord, TableRecord
from .table import StandingsRow, compute_standings

__all__ = [
    "METRICS",
    "MatchRecord",
    "Metric",
    "ResultsTable",
    "StandingsRow",
    "TableRecord",
    "compute_standings",
    "metric_for",
    "register",
]
