"""pybaloot: an exact, fast Baloot engine with the ``baloot/1`` record format.

>>> import random, baloot
>>> hand = baloot.Hand.new(rng=random.Random(1), dealer="E")
>>> hand.to_act
<Seat.N: 0>
"""

from baloot.actions import Action, Claim, Verb
from baloot.cards import Card, CardSet, Rank, Suit
from baloot.errors import (
    BalootError,
    IllegalActionError,
    NotationError,
    RecordError,
    RulesError,
)
from baloot.hand import Contract, Hand, HandResult
from baloot.projects import Project, ProjectKind
from baloot.rules import Rules
from baloot.seats import Seat, Team
from baloot.state import Phase

__all__ = [
    "Action",
    "BalootError",
    "Card",
    "CardSet",
    "Claim",
    "Contract",
    "Hand",
    "HandResult",
    "IllegalActionError",
    "NotationError",
    "Phase",
    "Project",
    "ProjectKind",
    "Rank",
    "RecordError",
    "Rules",
    "RulesError",
    "Seat",
    "Suit",
    "Team",
    "Verb",
]
__version__ = "0.1.0"
