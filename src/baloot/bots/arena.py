"""Duplicate games between two bots: every deal is played twice with the teams swapped.

Luck in Baloot is mostly the cards. Playing each deck sequence once with bot A as NS and once
with A as EW gives both sides the same cards, so what remains is skill (and the bots' own
randomness). A *pair* is those two games: two matches (``hands=False``) or two hands.

>>> summary = run_arena(ArenaConfig("random", "random", pairs=2, seed=1))
>>> summary.games, summary.a_match_wins + summary.b_match_wins
(4, 4)

The pairs are drawn and handed out lazily, so a run of any length needs little memory. With
``jobs`` > 1 the workers are bound to the process that started them: they ignore Ctrl-C (the
parent decides), stop cleanly on SIGTERM, and end by themselves when the parent dies.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Hashable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from baloot.bots import BotTimer, make_bot, play_hand, play_match
from baloot.core.hand import Hand
from baloot.core.match import Match
from baloot.core.rules import CLASSIC, Rules
from baloot.core.scoring import HandResult
from baloot.core.seats import Seat, Team
from baloot.records.record import Record, dumps
from baloot.table.players import Bot

Z95 = 1.959964
IN_FLIGHT_PER_JOB = 4
"""Pairs handed to the workers ahead of the results, per job."""
PARENT_CHECK_SECONDS = 0.5
"""How often a worker checks that the process that started it is still there."""


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: bot names, how many pairs, of matches or single hands, under which rules.

    ``rules`` None draws random variant flags for every pair (from the pair's seed).
    ``out`` is a folder for the records of the games, written by ``write`` (by default
    :func:`write_text`; the command line passes an atomic writer).
    """

    bot_a: str
    bot_b: str
    pairs: int
    seed: int = 0
    hands: bool = False
    rules: Rules | None = CLASSIC
    out: str | None = None
    write: Callable[[Path, str], None] | None = field(default=None, compare=False)


@dataclass
class SideStats:
    """What one side (bot A or bot B) did over some games."""

    match_wins: int = 0
    bids: int = 0
    made: int = 0
    kaboots: int = 0
    decision_seconds: float = 0.0
    decisions: int = 0

    @property
    def seconds_per_decision(self) -> float:
        """The mean thinking time of a decision (0 if there was none)."""
        return self.decision_seconds / self.decisions if self.decisions else 0.0

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


def iter_pair_seeds(seed: int) -> Iterator[int]:
    """The seeds of the pairs, drawn one by one from ``seed``, without end.

    >>> list(itertools.islice(iter_pair_seeds(3), 4)) == pair_seeds(3, 4)
    True
    """
    rng = random.Random(seed)
    while True:
        yield rng.randrange(1 << 62)


def pair_seeds(seed: int, count: int) -> list[int]:
    """The seeds of ``count`` pairs, drawn from ``seed``."""
    return list(itertools.islice(iter_pair_seeds(seed), count))


def write_text(path: Path, text: str) -> None:
    """Write a record file plainly (UTF-8)."""
    path.write_text(text, encoding="utf-8")


def _side(team: Team | None, a_team: Team) -> int:
    """The index in ``sides`` of ``team``: 0 for bot A's team, 1 for bot B's."""
    return 0 if team == a_team else 1


def _side_key(a_team: Team) -> Callable[[Seat, Bot], Hashable]:
    """The key a game's :class:`BotTimer` counts each decision under: its seat's side."""
    return lambda seat, bot: _side(seat.team, a_team)


def _count_hand(result: HandResult, a_team: Team, pair: PairResult) -> None:
    """Add one finished hand to the pair's figures, seen from bot A's team."""
    pair.hands += 1
    if result.score is not None:
        pair.difference += result.score[a_team] - result.score[a_team.other]
    if result.contract is None:
        return
    pair.played_hands += 1
    declarers = result.contract.declarer.team
    side = pair.sides[_side(declarers, a_team)]
    side.bids += 1
    side.made += bool(result.made)
    if result.kaboot is not None:
        pair.sides[_side(result.kaboot, a_team)].kaboots += 1


def play_pair(config: ArenaConfig, index: int, seed: int) -> PairResult:
    """Play duplicate pair number ``index`` (1-based) of ``config`` from ``seed``."""
    rules = config.rules if config.rules is not None else Rules.random(random.Random(seed))
    pair = PairResult()
    for game, a_team in enumerate((Team.NS, Team.EW), 1):
        bots = {
            seat: make_bot(
                config.bot_a if seat.team == a_team else config.bot_b,
                random.Random(seed * 8 + game * 4 + int(seat)),
            )
            for seat in Seat
        }
        timer = BotTimer(key=_side_key(a_team))
        if config.hands:
            hand = play_hand(Hand.new(rng=random.Random(seed), rules=rules), bots, timer)
            _count_hand(hand.result(), a_team, pair)
            played: Hand | Match = hand
        else:
            match = play_match(Match.new(rng=random.Random(seed), rules=rules), bots, timer)
            for result in match.results:
                _count_hand(result, a_team, pair)
            pair.sides[_side(match.winner, a_team)].match_wins += 1
            played = match
        for number, side in enumerate(pair.sides):
            side.decision_seconds += timer.seconds.get(number, 0.0)
            side.decisions += timer.decisions.get(number, 0)
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
    write = config.write or write_text
    write(out / f"{kind}-{index:05d}-{game}.baloot", dumps(record))


_Task = tuple[ArenaConfig, int, int]


def _tasks(config: ArenaConfig) -> Iterator[_Task]:
    """The pairs to play, drawn as they are needed."""
    seeds = iter_pair_seeds(config.seed)
    for index in range(1, config.pairs + 1):
        yield config, index, next(seeds)


def iter_pairs(config: ArenaConfig, jobs: int = 1) -> Generator[PairResult, None, None]:
    """Play every pair of ``config`` on ``jobs`` processes, yielding results in order.

    With ``jobs`` > 1, at most ``IN_FLIGHT_PER_JOB * jobs`` pairs are handed out ahead; when
    the iteration ends early (an error, Ctrl-C, or the caller stops), the workers are stopped.
    """
    if config.out is not None:
        Path(config.out).mkdir(parents=True, exist_ok=True)
    if jobs <= 1:
        for task in _tasks(config):
            yield play_pair(*task)
        return
    yield from _parallel(config, jobs)


def _parallel(config: ArenaConfig, jobs: int) -> Generator[PairResult, None, None]:
    tasks = _tasks(config)
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(os.getpid(),))
    try:
        pending: deque[Future[PairResult]] = deque(
            pool.submit(_play_task, task)
            for task in itertools.islice(tasks, IN_FLIGHT_PER_JOB * jobs)
        )
        while pending:
            result = pending.popleft().result()
            for task in itertools.islice(tasks, 1):
                pending.append(pool.submit(_play_task, task))
            yield result
    except BaseException:
        _stop_workers(pool, before)
        raise
    pool.shutdown()


def _stop_workers(
    pool: ProcessPoolExecutor, before: set[multiprocessing.process.BaseProcess]
) -> None:
    """Drop the pairs not started and end the workers now (they clean up on SIGTERM)."""
    workers = [p for p in multiprocessing.active_children() if p not in before]
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    deadline = time.monotonic() + 5
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
        if worker.is_alive():
            worker.kill()
            worker.join(1)


class _Stopped(SystemExit):
    """Raised in a worker by SIGTERM: unwinds (a record being written is removed) and exits."""


def _start_worker(parent_pid: int) -> None:
    """Set up a worker process: bound to its parent, deaf to Ctrl-C, stopped by SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)
    parent = os.getppid()
    _die_with_parent()
    if parent != parent_pid and not _exists(parent_pid):  # the parent died before this
        os._exit(1)
    watcher = threading.Thread(
        target=_watch_parent, args=(parent, parent_pid), name="parent-watch", daemon=True
    )
    watcher.start()


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once is enough
    raise _Stopped(128 + signum)


def _die_with_parent() -> None:
    """On Linux, have the kernel send SIGTERM to this process when its parent ends."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        return  # the watcher thread still ends the worker


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _watch_parent(parent: int, parent_pid: int) -> None:
    """End this worker once its parent (or the run's main process) has gone."""
    while os.getppid() == parent and _exists(parent_pid):
        time.sleep(PARENT_CHECK_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)  # lets the main thread clean up …
    time.sleep(5)
    os._exit(1)  # … unless it is stuck


def _play_task(task: _Task) -> PairResult:
    """One pair, in a worker; SIGTERM ends the worker here, after its cleanup."""
    try:
        return play_pair(*task)
    except _Stopped as stop:
        os._exit(stop.code if isinstance(stop.code, int) else 1)


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
                "ms_per_decision": 1000 * side.seconds_per_decision,
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
    pairs = iter_pairs(config, jobs)
    try:
        for pair in pairs:
            summary.add(pair)
            summary.seconds = time.perf_counter() - start
            if progress is not None:
                progress(summary)
    finally:
        pairs.close()  # at once, not when the traceback goes: it stops the workers
    summary.seconds = time.perf_counter() - start
    return summary
