"""The verdict of an arena run: the pairs summed up, with 95 % intervals and the failures.

The verdict depends on the pairs alone, never on the order they finished in: a run resumed
from its output folder, run on several processes, or on a cluster, gives the same verdict as
one run on one process (its timings aside).

>>> from baloot.bots.pairs import ArenaConfig, play_pair
>>> config = ArenaConfig("random", "random", pairs=2, seed=1)
>>> summary = ArenaSummary(config)
>>> for index, seed in enumerate((5, 6), 1):
...     summary.add(play_pair(config, index, seed))
>>> summary.games, summary.a_match_wins + summary.b_match_wins
(4, 4)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from baloot.bots.pairs import ArenaConfig, Failure, PairResult, SideStats
from baloot.core.rules import Rules

Z95 = 1.959964


@dataclass
class ArenaSummary:
    """The verdict of an arena run; ``resumed`` counts the pairs found finished in its folder
    (``resumed_hands`` their hands), ``seconds`` is the time this run took."""

    config: ArenaConfig
    pairs: int = 0
    games: int = 0
    hands: int = 0
    played_hands: int = 0
    seconds: float = 0.0
    resumed: int = 0
    resumed_hands: int = 0
    sides: tuple[SideStats, SideStats] = field(default_factory=lambda: (SideStats(), SideStats()))
    failures: list[Failure] = field(default_factory=list)
    _differences: dict[int, tuple[int, int]] = field(default_factory=dict)

    def add(self, pair: PairResult) -> None:
        """Count one finished pair."""
        self.pairs += 1
        self.games += 2
        self.hands += pair.hands
        self.played_hands += pair.played_hands
        self._differences[pair.index] = (pair.difference, pair.hands)
        self.failures.extend(pair.failures)
        self.failures.sort(key=lambda f: (f.pair, f.game))
        for mine, theirs in zip(self.sides, pair.sides, strict=True):
            mine.add(theirs)

    @property
    def a_match_wins(self) -> int:
        """Matches won by bot A."""
        return self.sides[0].match_wins

    @property
    def b_match_wins(self) -> int:
        """Matches won by bot B."""
        return self.sides[1].match_wins

    def match_win_rate(self) -> tuple[float, float, float]:
        """Bot A's share of matches won, with its 95 % Wilson interval."""
        return wilson(self.a_match_wins, self.a_match_wins + self.b_match_wins)

    def points_per_hand(self) -> tuple[float, float, float]:
        """Mean game points per hand of A minus B, with a 95 % interval over the pairs."""
        return ratio_interval([self._differences[i] for i in sorted(self._differences)])

    @property
    def hands_per_second(self) -> float:
        """The hands this run played (not those it found finished) per second."""
        played = self.hands - self.resumed_hands
        return played / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as one JSON object."""
        rate, low, high = self.match_win_rate()
        mean, mean_low, mean_high = self.points_per_hand()
        sides = {}
        for label, name, side in zip(
            ("a", "b"), (self.config.bot_a, self.config.bot_b), self.sides, strict=True
        ):
            sides[label] = {
                "bot": name,
                "match_wins": side.match_wins,
                "bids": side.bids,
                "made": side.made,
                "bid_rate": side.bids / self.played_hands if self.played_hands else 0.0,
                "made_rate": side.made / side.bids if side.bids else 0.0,
                "kaboots": side.kaboots,
                "failures": side.failures,
                "decisions": side.decisions,
                "ms_per_decision": 1000 * side.seconds_per_decision,
                "cpu_ms_per_decision": 1000 * side.cpu_seconds_per_decision,
            }
        return {
            "mode": "hands" if self.config.hands else "matches",
            "pairs": self.pairs,
            "games": self.games,
            "hands": self.hands,
            "seed": self.config.seed,
            "rules": rules_name(self.config.rules),
            "cpu_ms": self.config.cpu_ms,
            "match_win_rate": None if self.config.hands else {"a": rate, "low": low, "high": high},
            "points_per_hand": {"a_minus_b": mean, "low": mean_low, "high": mean_high},
            "sides": sides,
            "failures": [failure.to_json() for failure in self.failures],
            "resumed": self.resumed,
            "seconds": self.seconds,
            "hands_per_second": self.hands_per_second,
        }


def rules_name(rules: Rules | None) -> str:
    """How a summary names the rules: a preset, ``custom`` or ``random``."""
    if rules is None:
        return "random"
    return rules.name() or "custom"


def wilson(successes: int, trials: int) -> tuple[float, float, float]:
    """A proportion with its 95 % Wilson score interval.

    >>> [round(x, 3) for x in wilson(95, 100)]
    [0.95, 0.888, 0.978]
    """
    if trials == 0:
        return (0.0, 0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def ratio_interval(groups: list[tuple[int, int]]) -> tuple[float, float, float]:
    """Mean of ``total/count`` over groups (pairs), with a 95 % interval.

    The hands of a pair share their cards, so they are not independent: the variance is taken
    over pairs (a ratio estimator), not over hands.

    >>> [round(x, 2) for x in ratio_interval([(10, 5), (20, 5), (0, 5)])]
    [2.0, -0.26, 4.26]
    """
    total = sum(t for t, _ in groups)
    count = sum(n for _, n in groups)
    if count == 0:
        return (0.0, 0.0, 0.0)
    mean = total / count
    n = len(groups)
    if n < 2:
        return (mean, mean, mean)
    average = count / n
    spread = sum((t - mean * h) ** 2 for t, h in groups) / (n - 1)
    half = Z95 * math.sqrt(spread / n) / average
    return (mean, mean - half, mean + half)
