"""The words of a deal as values: phases, contracts, questions, tricks, outcomes.

Interfaces compare these values instead of parsing strings back. Each enum's value is the
string that ``docs/seat-view.md`` and ``docs/records.md`` write, so a value serializes as it is.

>>> Phase.BIDDING_ROUND_1.value, QuestionKind.TAKE_OVER_SUN.value, Level.GAHWA.json
('bidding-1', 'take-over-sun', 'gahwa')
>>> Level(2), Level.DOUBLE > Level.SINGLE
(<Level.DOUBLE: 2>, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum, StrEnum

from baloot.core.actions import Action
from baloot.core.cards import Card, Suit
from baloot.core.projects import Project
from baloot.core.seats import Seat, Team


class Phase(Enum):
    """Where a hand stands (``docs/seat-view.md``)."""

    BIDDING_ROUND_1 = "bidding-1"
    BIDDING_ROUND_2 = "bidding-2"
    BIDDING_ROUND_3 = "bidding-3"
    TRUMP_NAMING = "trump"
    DOUBLING = "doubling"
    PLAYING = "playing"
    OVER = "over"

    @property
    def is_bidding(self) -> bool:
        """True in the three bidding rounds and the trump naming, before the contract."""
        return self in _BIDDING

    def __str__(self) -> str:
        return self.value


_BIDDING = frozenset(
    {Phase.BIDDING_ROUND_1, Phase.BIDDING_ROUND_2, Phase.BIDDING_ROUND_3, Phase.TRUMP_NAMING}
)


class ContractKind(Enum):
    """Hokum (with a trump suit) or Sun (no trumps)."""

    HOKUM = "hokum"
    SUN = "sun"


class Level(IntEnum):
    """How far the contract was doubled: its multiplier, up to the Gahwa (R8).

    >>> [level.json for level in Level]
    [1, 2, 3, 4, 'gahwa']
    """

    SINGLE = 1
    DOUBLE = 2
    TRIPLE = 3
    FOUR = 4
    GAHWA = 5

    @property
    def json(self) -> int | str:
        """As ``docs/records.md`` writes it: 1–4, or ``"gahwa"``."""
        return "gahwa" if self is Level.GAHWA else int(self)


class QuestionKind(Enum):
    """What the seat to act is being asked (``docs/seat-view.md``)."""

    BID = "bid"
    TAKE_OVER_SUN = "take-over-sun"
    TAKE_OVER_ASHKAL = "take-over-ashkal"
    SUN_OVER_HOKUM = "sun-over-hokum"
    CONFIRM_HOKUM = "confirm-hokum"
    THIRD_ROUND = "third-round"
    NAME_TRUMP = "name-trump"
    DOUBLE = "double"
    TRIPLE = "triple"
    FOUR = "four"
    GAHWA = "gahwa"
    PLAY = "play"


class Outcome(Enum):
    """How a hand stands or ended (``docs/records.md``)."""

    PLAYED = "played"
    ANNULLED = "annulled"
    IN_PROGRESS = "in progress"


class DecidedBy(Enum):
    """What decided who won a hand (R12.6, R12.8, #28, #29)."""

    GAME_POINTS = "game-points"
    TIE_DIGIT = "tie-digit"
    LAST_CALLER = "last-caller-loses"
    RAW_POINTS = "raw-points"
    RAW_TIE = "raw-points-tie"
    KABOOT = "kaboot"


class Rounding(Enum):
    """How card points became game points (R12.4, #30)."""

    HOKUM = "hokum"
    SUN = "sun"
    HOKUM_PAIR = "hokum-pair"


@dataclass(frozen=True, slots=True)
class Contract:
    """The contract: Hokum (with its trump) or Sun, the declarer and the doubling."""

    kind: ContractKind
    trump: Suit | None
    declarer: Seat
    level: Level = Level.SINGLE
    locked: bool = False
    doubler: Seat | None = None

    @property
    def declarers(self) -> Team:
        """The declarer's team."""
        return self.declarer.team


@dataclass(frozen=True, slots=True)
class Question:
    """What the seat to act is asked, so an interface can word it (the answers are the legal
    actions).

    ``about`` is the seat the question refers to: the Hokum bidder for a ``bid`` over a
    standing Hokum, ``sun-over-hokum`` and ``confirm-hokum``; the caller for the Sun
    take-overs (R4.3); the declarer for ``double`` and ``four``; the doubler for ``triple``
    and ``gahwa``; else None.
    """

    kind: QuestionKind
    about: Seat | None = None


class TrickWord(StrEnum):
    """What was said with a card of a trick: nothing, Ekka (R9.5), Baloot (R10.7) or both.

    >>> TrickWord.of(Action.parse("S play Ah ekka")), TrickWord.of(Action.parse("S play Ah")) == ""
    (<TrickWord.EKKA: 'ekka'>, True)
    """

    NONE = ""
    EKKA = "ekka"
    BALOOT = "baloot"
    EKKA_BALOOT = "ekka baloot"

    @classmethod
    def of(cls, play: Action) -> TrickWord:
        """The word said with ``play``."""
        return _TRICK_WORDS[play.ekka, play.baloot]


_TRICK_WORDS = {
    (False, False): TrickWord.NONE,
    (True, False): TrickWord.EKKA,
    (False, True): TrickWord.BALOOT,
    (True, True): TrickWord.EKKA_BALOOT,
}


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick begun: who led, the plays in order (with their Ekka and Baloot words), and
    once it is complete its winner and card points (the last trick's 10 included)."""

    leader: Seat
    plays: tuple[Action, ...]
    winner: Seat | None
    points: int

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in playing order."""
        return tuple(play.card for play in self.plays if play.card is not None)

    @property
    def words(self) -> tuple[TrickWord, ...]:
        """Each card's word: ``""``, ``"ekka"``, ``"baloot"`` or ``"ekka baloot"``."""
        return tuple(TrickWord.of(play) for play in self.plays)

    @property
    def is_complete(self) -> bool:
        """True once four cards are on it."""
        return len(self.plays) == 4


@dataclass(frozen=True, slots=True)
class ShownProject:
    """A project shown at the second trick (R10.5), with the seat that held it."""

    seat: Seat
    project: Project
