"""Pairing and bracket generators: plain functions over plain data, no Django.

A thin service (tournaments.services) loads rows, calls these and saves the
result; everything here is tested without a database.
"""

from .advance import BracketState, MatchStatus, MatchView, Placing, advance
from .bracket import Bracket, BracketMatch, Empty, LoserOf, PlayedIf, Section, Seeded, SlotRef, WinnerOf
from .bracket_repair import CorrectionPlan, MatchChange, plan_correction, plan_reseed
from .double_elimination import double_elimination
from .entrants import EntrantId, GeneratorUserError, InvalidResultError, Pairing
from .groups import GroupStage, group_stage, playoff_seeds
from .round_robin import RoundRobinSchedule, ScheduledRound, berger_table, round_robin
from .seeding import Seeding, bracket_lines, bracket_size, standard_seed_order
from .single_elimination import single_elimination
from .swiss import SwissPlayer, SwissRound, swiss_round
from .tables import Table, first_round, repeats, standing_round, table_sizes
from .winner_stays_on import (
    WinnerStaysOnState,
    WinnerStaysOnTableState,
    WinsRow,
    winner_stays_on,
    winner_stays_on_table,
)

__all__ = [
    "Bracket",
    "BracketMatch",
    "BracketState",
    "CorrectionPlan",
    "Empty",
    "EntrantId",
    "GeneratorUserError",
    "GroupStage",
    "InvalidResultError",
    "LoserOf",
    "MatchChange",
    "MatchStatus",
    "MatchView",
    "Pairing",
    "Placing",
    "PlayedIf",
    "RoundRobinSchedule",
    "ScheduledRound",
    "Section",
    "Seeded",
    "Seeding",
    "SlotRef",
    "SwissPlayer",
    "SwissRound",
    "Table",
    "WinnerOf",
    "WinnerStaysOnState",
    "WinnerStaysOnTableState",
    "WinsRow",
    "advance",
    "berger_table",
    "bracket_lines",
    "bracket_size",
    "double_elimination",
    "first_round",
    "group_stage",
    "plan_correction",
    "plan_reseed",
    "playoff_seeds",
    "repeats",
    "round_robin",
    "single_elimination",
    "standard_seed_order",
    "standing_round",
    "swiss_round",
    "table_sizes",
    "winner_stays_on",
    "winner_stays_on_table",
]
