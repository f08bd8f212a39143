"""Duplicate games between two bots: every deal is played twice with the teams swapped.

Luck in Baloot is mostly the cards. Playing each deck sequence once with bot A as NS and once
with A as EW gives both sides the same cards, so what remains is skill (and the bots' own
randomness). A *pair* is those two games: two matches (``hands=False``) or two hands.

>>> summary = run_arena(ArenaConfig("random", "random", pairs=2, seed=1))
>>> summary.games, summary.a_match_wins + summary.b_match_wins
(4, 4)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from baloot.bots import make_bot, play_hand, play_match
from baloot.core.actions import Action
from baloot.core.hand import Hand
from baloot.core.match import Match
from baloot.core.rules import CLASSIC, Rules
from baloot.core.scoring import HandResult
from baloot.core.seats import Seat, Team
from baloot.records.record import Record, dumps
from baloot.table.players import Bot
from baloot.view.seat_view import SeatView

Z95 = 1.959964


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: bot names, how many pairs, of matches or single hands, under which rules.

    ``rules`` None draws random variant flags for every pair (from the pair's seed).
    """

    bot_a: str
    bot_b: str
    pairs: int
    seed: int = 0
    hands: bool = False
    rules: Rules | None = CLASSIC
    out: str | None = None


@dataclass
class SideStats:
    """What one side (bot A or bot B) did over some games."""

    match_wins: int = 0
    bids: int = 0
    made: int = 0
    kaboots: int = 0
    decision_seconds: float = 0.0
    decisions: int = 0

    def add(self, other: SideStats) -> None:
        """Add ``other``'s counts to these."""
        self.match_wins += other.match_wins
        self.bids += other.bids
        self.made += other.made
        self.kaboots += other.kaboots
        self.decision_seconds += other.decision_seconds
        self.decisions += other.decisions


@dataclass
class PairResult:
    """One duplicate pair: game points of A minus B, hands played, each side's stats."""

    difference: int = 0
    hands: int = 0
    played_hands: int = 0
    sides: tuple[SideStats, SideStats] = field(default_factory=lambda: (SideStats(), SideStats()))


def pair_seeds(seed: int, count: int) -> list[int]:
    """The seeds of ``count`` pairs, drawn from ``seed``."""
    rng = random.Random(seed)
    return [rng.randrange(1 << 62) for _ in range(count)]


def _count_hand(result: HandResult, a_team: Team, pair: PairResult) -> None:
    """Add one finished hand to the pair's figures, seen from bot A's team."""
    pair.hands += 1
    if result.score is not None:
        pair.difference += result.score[a_team] - result.score[a_team.other]
    if result.contract is None:
        return
    pair.played_hands += 1
    declarers = result.contract.declarer.team
    side = pair.sides[0 if declarers == a_team else 1]
    side.bids += 1
    side.made += bool(result.made)
    if result.kaboot is not None:
        pair.sides[0 if result.kaboot == a_team else 1].kaboots += 1


class _Timed:
    """A bot whose thinking time is counted into one side's figures."""

    def __init__(self, bot: Bot, side: SideStats) -> None:
        self.bot = bot
        self.side = side
        self.name = bot.name

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, legal)
        self.side.decision_seconds += time.perf_counter() - start
        self.side.decisions += 1
        return action


def play_pair(config: ArenaConfig, index: int, seed: int) -> PairResult:
    """Play duplicate pair number ``index`` (1-based) of ``config`` from ``seed``."""
    rules = config.rules if config.rules is not None else Rules.random(random.Random(seed))
    pair = PairResult()
    for game, a_team in enumerate((Team.NS, Team.EW), 1):
        bots: dict[Seat, Bot] = {}
        for seat in Seat:
            ours = seat.team == a_team
            bot = make_bot(
                config.bot_a if ours else config.bot_b,
                random.Random(seed * 8 + game * 4 + int(seat)),
            )
            bots[seat] = _Timed(bot, pair.sides[0 if ours else 1])
        if config.hands:
            hand = play_hand(Hand.new(rng=random.Random(seed), rules=rules), bots)
            _count_hand(hand.result(), a_team, pair)
            played: Hand | Match = hand
        else:
            match = play_match(Match.new(rng=random.Random(seed), rules=rules), bots)
            for result in match.results:
                _count_hand(result, a_team, pair)
            pair.sides[0 if match.winner == a_team else 1].match_wins += 1
            played = match
        if config.out is not None:
            _write_record(config, played, bots, index, game, seed)
    return pair


def _write_record(
    config: ArenaConfig,
    played: Hand | Match,
    bots: dict[Seat, Bot],
    index: int,
    game: int,
    seed: int,
) -> None:
    """Write one game as a ``baloot/1`` record whose players name the bots."""
    players = {seat.name: f"bot:{bots[seat].name}" for seat in Seat}
    record = Record.of(
        played,
        players=players,
        event=f"arena {config.bot_a} vs {config.bot_b}",
        x_arena={"pair": index, "game": game, "seed": seed},
    )
    out = Path(config.out or ".")
    kind = "hand" if config.hands else "match"
    (out / f"{kind}-{index:05d}-{game}.baloot").write_text(dumps(record), encoding="utf-8")


def _play_indexed(task: tuple[ArenaConfig, int, int]) -> PairResult:
    return play_pair(*task)


def iter_pairs(config: ArenaConfig, jobs: int = 1) -> Iterator[PairResult]:
    """Play every pair of ``config`` on ``jobs`` processes, yielding results as they finish."""
    if config.out is not None:
        Path(config.out).mkdir(parents=True, exist_ok=True)
    tasks = [(config, i, s) for i, s in enumerate(pair_seeds(config.seed, config.pairs), 1)]
    if jobs <= 1:
        for task in tasks:
            yield _play_indexed(task)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_play_indexed, tasks, chunksize=max(1, len(tasks) // (jobs * 8)))


@dataclass
class ArenaSummary:
    """The verdict of an arena run."""

    config: ArenaConfig
    pairs: int = 0
    games: int = 0
    hands: int = 0
    played_hands: int = 0
    seconds: float = 0.0
    sides: tuple[SideStats, SideStats] = field(default_factory=lambda: (SideStats(), SideStats()))
    _differences: list[tuple[int, int]] = field(default_factory=list)

    def add(self, pair: PairResult) -> None:
        """Count one finished pair."""
        self.pairs += 1
        self.games += 2
        self.hands += pair.hands
        self.played_hands += pair.played_hands
        self._differences.append((pair.difference, pair.hands))
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
        return ratio_interval(self._differences)

    def to_json(self) -> dict[str, object]:
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
                "decisions": side.decisions,
                "ms_per_decision": 1000 * side.decision_seconds / side.decisions
                if side.decisions
                else 0.0,
            }
        return {
            "mode": "hands" if self.config.hands else "matches",
            "pairs": self.pairs,
            "games": self.games,
            "hands": self.hands,
            "seed": self.config.seed,
            "rules": _rules_name(self.config.rules),
            "match_win_rate": None if self.config.hands else {"a": rate, "low": low, "high": high},
            "points_per_hand": {"a_minus_b": mean, "low": mean_low, "high": mean_high},
            "sides": sides,
            "seconds": self.seconds,
            "hands_per_second": self.hands / self.seconds if self.seconds else 0.0,
        }


def _rules_name(rules: Rules | None) -> str:
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


def run_arena(
    config: ArenaConfig,
    jobs: int = 1,
    progress: Callable[[ArenaSummary], None] | None = None,
) -> ArenaSummary:
    """Play every pair and sum them up; ``progress`` is called after each pair."""
    summary = ArenaSummary(config)
    start = time.perf_counter()
    for pair in iter_pairs(config, jobs):
        summary.add(pair)
        summary.seconds = time.perf_counter() - start
        if progress is not None:
            progress(summary)
    summary.seconds = time.perf_counter() - start
    return summary
