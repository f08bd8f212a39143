"""One duplicate pair of the arena: the same deck sequence played twice, the teams swapped.

A pair's result is plain data (:class:`PairResult`, with :meth:`~PairResult.to_json`), so that
it can travel from a worker process or a cluster node and be kept in an output folder; what
it should write there (records, logs) travels with it in ``files``, and the process that
keeps the folder writes them. Whatever a bot does, a pair is played to its end: a bot that
fails (an illegal action, an external program that breaks its protocol, or a bot of this
process that raises: :mod:`baloot.bots.failure`) loses that game, and the other game of the
pair counts as played; with an output folder, a bot's exception leaves its traceback in the
seat's log.

>>> pair = play_pair(ArenaConfig("random", "random", pairs=1, seed=3), 1, 11)
>>> pair.sides[0].match_wins + pair.sides[1].match_wins, pair.failures
(2, [])
>>> PairResult.from_json(pair.to_json()) == pair
True
"""

from __future__ import annotations

import itertools
import random
import traceback
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from baloot.bots.base import close_bot, make_bot
from baloot.bots.clock import TimeLimit
from baloot.bots.driver import BotTimer, play_hand, play_match
from baloot.bots.external import ExternalBot, close_all
from baloot.bots.failure import BotFailure, ContainedBot
from baloot.bots.names import Program, UnknownBotError, parse_bot_name
from baloot.core.hand import Hand
from baloot.core.match import Match
from baloot.core.rules import CLASSIC, Rules
from baloot.core.scoring import HandResult
from baloot.core.seats import Seat, Team
from baloot.records.record import Record
from baloot.records.writer import dumps
from baloot.table.players import Bot, BotError
from baloot.view.seat_view import SeatView

#: The most of a program's standard error kept for its log in an output folder, in bytes.
LOG_LIMIT = 256 * 1024


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: bot names, how many pairs, of matches or single hands, under which rules.

    ``rules`` None draws random variant flags for every pair (from the pair's seed). ``out``
    is a folder for the records of the games and the results of the pairs, written
    atomically; a run into a folder that holds finished pairs of the same arguments goes on
    from there (:mod:`baloot.bots.folder`). ``cpu_ms`` is each decision's CPU-time budget in
    milliseconds (None: no ceiling); an external bot is told it as its ``clock_ms``.
    """

    bot_a: str
    bot_b: str
    pairs: int
    seed: int = 0
    hands: bool = False
    rules: Rules | None = CLASSIC
    out: str | None = None
    cpu_ms: int | None = None

    @property
    def budget(self) -> TimeLimit | None:
        """Each decision's budget, or None."""
        return None if self.cpu_ms is None else TimeLimit(cpu=self.cpu_ms / 1000)

    @property
    def kind(self) -> str:
        """What a game is: ``match`` or ``hand``."""
        return "hand" if self.hands else "match"


@dataclass
class SideStats:
    """What one side (bot A or bot B) did over some games."""

    match_wins: int = 0
    bids: int = 0
    made: int = 0
    kaboots: int = 0
    decision_seconds: float = 0.0
    decisions: int = 0
    cpu_seconds: float = 0.0
    failures: int = 0

    @property
    def seconds_per_decision(self) -> float:
        """The mean thinking time of a decision (0 if there was none)."""
        return self.decision_seconds / self.decisions if self.decisions else 0.0

    @property
    def cpu_seconds_per_decision(self) -> float:
        """The mean CPU time of a decision in this process (0 if there was none)."""
        return self.cpu_seconds / self.decisions if self.decisions else 0.0

    def add(self, other: SideStats) -> None:
        """Add ``other``'s counts to these."""
        for name, value in asdict(other).items():
            setattr(self, name, getattr(self, name) + value)


@dataclass(frozen=True)
class Failure:
    """A game a bot lost by failing: where, who, how, what it said, and the actions of the view
    it was asked about."""

    pair: int
    game: int
    side: str
    bot: str
    seat: str
    kind: str
    message: str
    said: str | None = None
    actions: tuple[str, ...] = ()

    def line(self, last: int = 4) -> str:
        """The failure in one line, with the last few actions of the hand before it."""
        if not self.actions:
            return f"pair {self.pair} game {self.game}: {self.message}; at the hand's start"
        more = "…, " if len(self.actions) > last else ""
        before = more + ", ".join(self.actions[-last:])
        return f"pair {self.pair} game {self.game}: {self.message}; after {before}"

    def to_json(self) -> dict[str, Any]:
        """The failure as a JSON object."""
        return {**asdict(self), "actions": list(self.actions)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Failure:
        """The failure :meth:`to_json` wrote."""
        return cls(**{**data, "actions": tuple(data["actions"])})


@dataclass
class PairResult:
    """One duplicate pair: its number and seed, game points of A minus B, hands played, each
    side's stats, the failures; ``files`` are what it writes into an output folder."""

    index: int = 0
    seed: int = 0
    difference: int = 0
    hands: int = 0
    played_hands: int = 0
    sides: tuple[SideStats, SideStats] = field(default_factory=lambda: (SideStats(), SideStats()))
    failures: list[Failure] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The pair's results as a JSON object (without its files)."""
        return {
            "pair": self.index,
            "seed": self.seed,
            "difference": self.difference,
            "hands": self.hands,
            "played_hands": self.played_hands,
            "sides": [asdict(side) for side in self.sides],
            "failures": [failure.to_json() for failure in self.failures],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PairResult:
        """The pair :meth:`to_json` wrote."""
        a, b = (SideStats(**side) for side in data["sides"])
        return cls(
            data["pair"],
            data["seed"],
            data["difference"],
            data["hands"],
            data["played_hands"],
            (a, b),
            [Failure.from_json(f) for f in data["failures"]],
        )


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


class _Log:
    """The tail of a program's standard error, at most :data:`LOG_LIMIT` bytes."""

    def __init__(self) -> None:
        self.lines: deque[bytes] = deque()
        self.size = 0

    def __call__(self, line: bytes) -> None:
        self.lines.append(line)
        self.size += len(line)
        while self.size > LOG_LIMIT and len(self.lines) > 1:
            self.size -= len(self.lines.popleft())

    def text(self) -> bytes:
        return b"".join(self.lines)


def _make(name: str, seat: Seat, rng: random.Random, log: _Log | None) -> Bot:
    """The bot of ``seat``: a program, or a registered bot whose exceptions are failures."""
    spec = parse_bot_name(name)
    if isinstance(spec, Program):
        return ExternalBot(spec, log=log)
    try:
        bot = make_bot(spec, rng)
    except UnknownBotError:
        raise
    except Exception as error:
        raise BotFailure.raised(name, seat.name, error) from error
    return ContainedBot(bot)


def play_pair(config: ArenaConfig, index: int, seed: int) -> PairResult:
    """Play duplicate pair number ``index`` (1-based) of ``config`` from ``seed``."""
    rules = config.rules if config.rules is not None else Rules.random(random.Random(seed))
    pair = PairResult(index, seed)
    for game, a_team in enumerate((Team.NS, Team.EW), 1):
        logs = {seat: _Log() for seat in Seat} if config.out is not None else {}
        timer = BotTimer(key=_side_key(a_team))
        played: Hand | Match
        if config.hands:
            played = Hand.new(rng=random.Random(seed), rules=rules)
        else:
            played = Match.new(rng=random.Random(seed), rules=rules)
        bots: dict[Seat, Bot] = {}
        failed = False
        try:
            for seat in Seat:
                bots[seat] = _make(
                    config.bot_a if seat.team == a_team else config.bot_b,
                    seat,
                    random.Random(seed * 8 + game * 4 + int(seat)),
                    logs.get(seat),
                )
            if isinstance(played, Hand):
                play_hand(played, bots, timer, config.budget)
                _count_hand(played.result(), a_team, pair)
            else:
                play_match(played, bots, timer, config.budget)
                for result in played.results:
                    _count_hand(result, a_team, pair)
                pair.sides[_side(played.winner, a_team)].match_wins += 1
        except BotError as error:
            hand = played if isinstance(played, Hand) else played.hand
            failure = _failure(error, hand, index, game, a_team)
            pair.failures.append(failure)
            if error.__cause__ is not None and logs:  # an exception: its traceback is its log
                logs[Seat[failure.seat]](_traceback(error.__cause__))
            failed = True
            lost = 0 if failure.side == "a" else 1
            pair.sides[lost].failures += 1
            if not config.hands:
                pair.sides[1 - lost].match_wins += 1
        except BaseException:
            for bot in bots.values():
                if isinstance(bot, ExternalBot):
                    bot.kill()
            raise
        finally:
            close_all(bots.values())
            for bot in bots.values():
                close_bot(bot)
        for number, side in enumerate(pair.sides):
            side.decision_seconds += timer.seconds.get(number, 0.0)
            side.cpu_seconds += timer.cpu_seconds.get(number, 0.0)
            side.decisions += timer.decisions.get(number, 0)
        name = f"{config.kind}-{index:05d}-{game}"
        if config.out is not None:
            if not failed:
                pair.files[f"{name}.baloot"] = _record(config, played, bots, index, game, seed)
            for seat, log in logs.items():
                if log.size:
                    pair.files[f"logs/{name}-{seat.name}.log"] = log.text()
    return pair


def _traceback(error: BaseException) -> bytes:
    return "".join(traceback.format_exception(error)).encode("utf-8")


def _failure(error: BotError, hand: Hand, index: int, game: int, a_team: Team) -> Failure:
    """A bot's failure as the report gives it."""
    seat = Seat[error.params["seat"]]
    if isinstance(error, BotFailure):
        kind, said, actions = error.kind.value, error.said, error.actions
    else:
        kind, said = "illegal", error.action
        actions = tuple(SeatView.of(hand, seat).to_json()["actions"])
    return Failure(
        pair=index,
        game=game,
        side="a" if seat.team == a_team else "b",
        bot=error.params.get("bot", ""),
        seat=seat.name,
        kind=kind,
        message=str(error),
        said=said,
        actions=tuple(actions),
    )


def _record(
    config: ArenaConfig,
    played: Hand | Match,
    bots: dict[Seat, Bot],
    index: int,
    game: int,
    seed: int,
) -> bytes:
    """One game as a ``baloot/1`` record whose players name the bots."""
    players = {seat.name: f"bot:{bots[seat].name}" for seat in Seat}
    record = Record.of(
        played,
        players=players,
        event=f"arena {config.bot_a} vs {config.bot_b}",
        x_arena={"pair": index, "game": game, "seed": seed},
    )
    return dumps(record).encode("utf-8")
