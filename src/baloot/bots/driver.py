"""Driving hands and matches with bots: each decision goes through the seat's view, under
its own clock (:mod:`baloot.bots.clock`), and each bot that listens hears when a hand is over.

>>> import random
>>> from baloot.core.match import Match
>>> from baloot.core.seats import Seat
>>> from baloot.bots import RandomBot
>>> match = Match.new(rng=random.Random(1))
>>> bots = {seat: RandomBot(random.Random(int(seat))) for seat in Seat}
>>> play_match(match, bots).is_over
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field

from baloot.bots.clock import TimeLimit, deciding
from baloot.core.actions import Action
from baloot.core.errors import IllegalActionError
from baloot.core.hand import Hand
from baloot.core.match import Match
from baloot.core.reasons import ReasonCode
from baloot.core.seats import Seat
from baloot.table.players import Bot, bot_action, tell_hand_over

_NO_BUDGET = TimeLimit()


def _by_name(seat: Seat, bot: Bot) -> Hashable:
    """What a :class:`BotTimer` counts a decision under by default: the bot's name."""
    return bot.name


@dataclass
class BotTimer:
    """Thinking time (wall and CPU seconds) and decisions per bot name, or per what ``key``
    makes of the seat and its bot (the arena counts by side, since both sides may be the same
    bot). The CPU time is this process's, and an external program's own where the system
    says it (Linux)."""

    seconds: dict[Hashable, float] = field(default_factory=dict)
    decisions: dict[Hashable, int] = field(default_factory=dict)
    key: Callable[[Seat, Bot], Hashable] = _by_name
    cpu_seconds: dict[Hashable, float] = field(default_factory=dict)

    def add(self, key: Hashable, seconds: float, cpu_seconds: float = 0.0) -> None:
        """Count one decision that took ``seconds`` (``cpu_seconds`` of CPU) under ``key``."""
        self.seconds[key] = self.seconds.get(key, 0.0) + seconds
        self.cpu_seconds[key] = self.cpu_seconds.get(key, 0.0) + cpu_seconds
        self.decisions[key] = self.decisions.get(key, 0) + 1

    def mean(self, key: Hashable) -> float:
        """Mean seconds per decision under ``key`` (0 if there was none)."""
        count = self.decisions.get(key, 0)
        return self.seconds.get(key, 0.0) / count if count else 0.0


def choose(
    hand: Hand,
    bots: Mapping[Seat, Bot],
    timer: BotTimer | None = None,
    budget: TimeLimit | None = None,
) -> Action:
    """Ask the bot of the seat to act in ``hand`` for its decision, checked and announced,
    under a clock started from ``budget`` (no ceiling without one); ``timer`` counts the time
    it took."""
    seat = hand.to_act
    if seat is None:
        raise IllegalActionError.of(ReasonCode.HAND_OVER)
    bot = bots[seat]
    program = _program_cpu(bot)
    with deciding((budget or _NO_BUDGET).start()) as clock:
        action = bot_action(hand, bot)
    if timer is not None:
        cpu = clock.cpu_used()
        if program is not None:
            cpu += (_program_cpu(bot) or 0.0) - program
        timer.add(timer.key(seat, bot), clock.wall_used(), cpu)
    return action


def _program_cpu(bot: Bot) -> float | None:
    """The CPU seconds an external program's processes took so far (None: not a program)."""
    seconds: float | None = getattr(bot, "cpu_seconds", None)
    return seconds


def play_hand(
    hand: Hand,
    bots: Mapping[Seat, Bot],
    timer: BotTimer | None = None,
    budget: TimeLimit | None = None,
) -> Hand:
    """Play ``hand`` to its end with ``bots``, each decision under ``budget``."""
    while not hand.is_over:
        hand.apply(choose(hand, bots, timer, budget))
    tell_hand_over(hand, bots)
    return hand


def play_match(
    match: Match,
    bots: Mapping[Seat, Bot],
    timer: BotTimer | None = None,
    budget: TimeLimit | None = None,
) -> Match:
    """Play ``match`` (which deals its own hands) to its end with ``bots``, each decision
    under ``budget``."""
    while not match.is_over:
        hand = match.hand
        match.apply(choose(hand, bots, timer, budget))
        if hand.is_over:
            tell_hand_over(hand, bots)
    return match
