"""pybaloot: an exact, fast Baloot engine with the ``baloot/1`` record format.

Everything a program needs is importable from here: the values of the game, the hand and
the match, the seat view, records and replay.

>>> import random, baloot
>>> hand = baloot.Hand.new(rng=random.Random(1), dealer="E")
>>> hand.to_act, hand.phase
(<Seat.N: 0>, <Phase.BIDDING_ROUND_1: 'bidding-1'>)
"""

from baloot.core.actions import Action, Claim, Verb
from baloot.core.cards import Card, CardSet, Rank, Suit
from baloot.core.errors import (
    BalootError,
    IllegalActionError,
    NotationError,
    RecordError,
    RulesError,
)
from baloot.core.hand import Hand
from baloot.core.match import TARGET, Match
from baloot.core.projects import Project, ProjectKind
from baloot.core.reasons import Reason, ReasonCode
from baloot.core.rules import (
    AshkalMode,
    BalootOnLoss,
    DoubledExactTie,
    FirstLead,
    KabootProjects,
    ProjectMultiplier,
    Rules,
    SunDoubleRule,
    WinComparison,
)
from baloot.core.scoring import HandResult, HandScore
from baloot.core.seats import Seat, Team
from baloot.core.vocabulary import (
    Contract,
    ContractKind,
    DecidedBy,
    Level,
    Outcome,
    Phase,
    Question,
    QuestionKind,
    Rounding,
    ShownProject,
    Trick,
    TrickWord,
)
from baloot.records.record import Record, load, loads
from baloot.records.replay import Replay, ReplayError, replay
from baloot.records.writer import dump, dumps
from baloot.view.seat_view import SeatView

__all__ = [
    "TARGET",
    "Action",
    "AshkalMode",
    "BalootError",
    "BalootOnLoss",
    "Card",
    "CardSet",
    "Claim",
    "Contract",
    "ContractKind",
    "DecidedBy",
    "DoubledExactTie",
    "FirstLead",
    "Hand",
    "HandResult",
    "HandScore",
    "IllegalActionError",
    "KabootProjects",
    "Level",
    "Match",
    "NotationError",
    "Outcome",
    "Phase",
    "Project",
    "ProjectKind",
    "ProjectMultiplier",
    "Question",
    "QuestionKind",
    "Rank",
    "Reason",
    "ReasonCode",
    "Record",
    "RecordError",
    "Replay",
    "ReplayError",
    "Rounding",
    "Rules",
    "RulesError",
    "Seat",
    "SeatView",
    "ShownProject",
    "Suit",
    "SunDoubleRule",
    "Team",
    "Trick",
    "TrickWord",
    "Verb",
    "WinComparison",
    "dump",
    "dumps",
    "load",
    "loads",
    "replay",
]
__version__ = "0.2.0"
