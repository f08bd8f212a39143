"""Self-play data: bots play hands, and every decision is kept with what a learner needs.

A run is cut into shards of :attr:`SelfplayConfig.shard_hands` hands, each played from its own
seed (drawn from the run's seed as the arena draws its pairs' seeds), so that a shard is the
same wherever it is played: here, on worker processes or on a Ray cluster
(:func:`iter_shards`). A shard is one Parquet table (:func:`play_shard`), a row a decision:

============== ==================================================================
``hand``       the hand's number in the run (1-based)
``hand_seed``  the seed the hand was dealt from
``step``       the decision's place in the hand (0-based, forced ones included)
``seat``       the seat to act: 0–3 for N, W, S, E
``phase``      the hand's phase (``bidding-1`` … ``playing``)
``observation`` the seat's observation (:mod:`baloot.rl.observation`, float32)
``mask``       the legal actions (int8, :mod:`baloot.rl.action_space`)
``action``     the index of the action taken
``values``     in the play phase (cards and declarations), the double-dummy value of every
               legal action in the true deal for the seat's team (float32, NaN where an
               action is not legal); null for a call
``score_own``  the hand's written score of the seat's team, then the other's
``score_other``
``gahwa``      the hand is a Gahwa: its values count the match (+1 or -1), not game points
============== ==================================================================

The values are :func:`baloot.solver.values` in ``Mode.SCORE``, as ``baloot analyze`` judges a
play. The schema's metadata names the observation's layout version.
"""

from __future__ import annotations

import io
import random
import time
from collections.abc import Collection, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from baloot.bots.base import make_bot
from baloot.bots.cluster import cluster_map
from baloot.bots.driver import choose
from baloot.bots.pairs import iter_pair_seeds
from baloot.bots.pool import pool_map
from baloot.core.hand import Hand
from baloot.core.rules import CLASSIC, Rules
from baloot.core.seats import Seat
from baloot.core.vocabulary import Level, Phase
from baloot.rl.action_space import NUM_ACTIONS, index_of
from baloot.rl.observation import SIZE, VERSION, encode
from baloot.solver import Mode, values
from baloot.table.players import Bot, close_bot, tell_hand_over
from baloot.view.seat_view import SeatView

#: The format of a self-play folder and of its shards' metadata.
FORMAT: Final = "baloot-selfplay/1"
#: Hands in a shard unless said otherwise.
SHARD_HANDS: Final = 200
#: How to install what self-play needs.
DATA_EXTRA: Final = "pip install -e '.[data]'"


@dataclass(frozen=True)
class SelfplayConfig:
    """What to play: the bot in every seat (a registered bot's name), how many hands, from
    which seed, under which rules (None: random flags for every hand), in shards of how many
    hands."""

    bots: str
    hands: int
    seed: int = 0
    rules: Rules | None = CLASSIC
    shard_hands: int = SHARD_HANDS

    @property
    def shards(self) -> int:
        """How many shards the run has."""
        return -(-self.hands // self.shard_hands)

    def shard_size(self, index: int) -> int:
        """How many hands shard ``index`` (1-based) holds: all but the last are full."""
        return min(self.shard_hands, self.hands - (index - 1) * self.shard_hands)


@dataclass
class ShardResult:
    """One shard played: its number and seed, its counts and its Parquet bytes."""

    index: int
    seed: int
    hands: int = 0
    decisions: int = 0
    labelled: int = 0
    phases: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    data: bytes = field(default=b"", repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The shard's counts as a JSON object (without its data)."""
        return {
            "shard": self.index,
            "seed": self.seed,
            "hands": self.hands,
            "decisions": self.decisions,
            "labelled": self.labelled,
            "phases": self.phases,
            "seconds": round(self.seconds, 3),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ShardResult:
        """The shard :meth:`to_json` wrote."""
        return cls(
            int(data["shard"]),
            int(data["seed"]),
            int(data["hands"]),
            int(data["decisions"]),
            int(data["labelled"]),
            {str(k): int(v) for k, v in dict(data["phases"]).items()},
            float(data["seconds"]),
        )


class _Columns:
    """The rows of a shard as they are played."""

    def __init__(self) -> None:
        self.ints: dict[str, list[int]] = {
            name: [] for name in ("hand", "hand_seed", "step", "seat", "action")
        }
        self.scores: list[tuple[int, int]] = []
        self.phase: list[str] = []
        self.observations: list[np.ndarray[Any, np.dtype[np.float32]]] = []
        self.masks: list[np.ndarray[Any, np.dtype[np.int8]]] = []
        self.values: list[np.ndarray[Any, np.dtype[np.float32]] | None] = []
        self.gahwa: list[bool] = []


def hand_seeds(shard_seed: int, count: int) -> list[int]:
    """The seeds of a shard's ``count`` hands, drawn from its seed."""
    rng = random.Random(shard_seed)
    return [rng.randrange(1 << 62) for _ in range(count)]


def play_hand_rows(
    config: SelfplayConfig, number: int, seed: int, columns: _Columns
) -> dict[str, int]:
    """Play hand ``number`` from ``seed`` and add a row per decision to ``columns``; the
    count of decisions by phase."""
    rng = random.Random(seed)
    rules = config.rules if config.rules is not None else Rules.random(rng)
    hand = Hand.new(rng=rng, dealer=Seat(rng.randrange(4)), rules=rules)
    bots: dict[Seat, Bot] = {
        seat: make_bot(config.bots, random.Random(seed * 8 + int(seat))) for seat in Seat
    }
    first = len(columns.phase)
    phases: dict[str, int] = {}
    try:
        step = 0
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            legal = hand.legal_actions()
            mask = np.zeros(NUM_ACTIONS, np.int8)
            mask[[index_of(action) for action in legal]] = 1
            labels = None
            if hand.phase is Phase.PLAYING:
                labels = np.full(NUM_ACTIONS, np.nan, np.float32)
                for action, value in values(hand, Mode.SCORE).items():
                    labels[index_of(action)] = value
            columns.observations.append(encode(SeatView.of(hand, seat)))
            columns.masks.append(mask)
            columns.values.append(labels)
            columns.phase.append(hand.phase.value)
            phases[hand.phase.value] = phases.get(hand.phase.value, 0) + 1
            action = choose(hand, bots)
            for name, value in (
                ("hand", number),
                ("hand_seed", seed),
                ("step", step),
                ("seat", int(seat)),
                ("action", index_of(action)),
            ):
                columns.ints[name].append(value)
            hand.apply(action)
            step += 1
        tell_hand_over(hand, bots)
    finally:
        for bot in bots.values():
            close_bot(bot)
    score = hand.result().score or (0, 0)
    contract = hand.contract
    gahwa = contract is not None and contract.level is Level.GAHWA
    for row in range(first, len(columns.phase)):
        team = columns.ints["seat"][row] & 1
        columns.scores.append((score[team], score[1 - team]))
        columns.gahwa.append(gahwa)
    return phases


def play_shard(config: SelfplayConfig, index: int, seed: int) -> ShardResult:
    """Play shard ``index`` (1-based) of ``config`` from ``seed``: its rows as Parquet."""
    start = time.process_time()
    result = ShardResult(index, seed)
    columns = _Columns()
    first = (index - 1) * config.shard_hands + 1
    for offset, hand_seed in enumerate(hand_seeds(seed, config.shard_size(index))):
        for phase, count in play_hand_rows(config, first + offset, hand_seed, columns).items():
            result.phases[phase] = result.phases.get(phase, 0) + count
        result.hands += 1
    result.decisions = len(columns.phase)
    result.labelled = sum(v is not None for v in columns.values)
    result.data = to_parquet(columns, config)
    result.seconds = time.process_time() - start
    return result


def schema_metadata(config: SelfplayConfig) -> dict[str, str]:
    """What a shard's schema says of itself: its format, the layout and the bots."""
    return {
        "format": FORMAT,
        "layout_version": str(VERSION),
        "observation_size": str(SIZE),
        "actions": str(NUM_ACTIONS),
        "bots": config.bots,
    }


def to_parquet(columns: _Columns, config: SelfplayConfig) -> bytes:
    """The rows of ``columns`` as a Parquet file's bytes."""
    pa, pq = import_arrow()
    rows = len(columns.phase)
    observations = np.stack(columns.observations) if rows else np.zeros((0, SIZE), np.float32)
    masks = np.stack(columns.masks) if rows else np.zeros((0, NUM_ACTIONS), np.int8)
    labelled = np.array([v is not None for v in columns.values], bool)
    labels = np.full((rows, NUM_ACTIONS), np.nan, np.float32)
    for row, label in enumerate(columns.values):
        if label is not None:
            labels[row] = label
    scores = np.array(columns.scores, np.int16).reshape(rows, 2)

    def fixed(array: np.ndarray[Any, Any], size: int, mask: Any = None) -> Any:
        flat = pa.array(array.reshape(-1))
        return pa.FixedSizeListArray.from_arrays(flat, size, mask=mask)

    table = pa.table(
        {
            "hand": pa.array(columns.ints["hand"], pa.int64()),
            "hand_seed": pa.array(columns.ints["hand_seed"], pa.int64()),
            "step": pa.array(columns.ints["step"], pa.int16()),
            "seat": pa.array(columns.ints["seat"], pa.int8()),
            "phase": pa.array(columns.phase, pa.string()),
            "observation": fixed(observations, SIZE),
            "mask": fixed(masks, NUM_ACTIONS),
            "action": pa.array(columns.ints["action"], pa.int16()),
            "values": fixed(labels, NUM_ACTIONS, pa.array(~labelled)),
            "score_own": pa.array(scores[:, 0], pa.int16()),
            "score_other": pa.array(scores[:, 1], pa.int16()),
            "gahwa": pa.array(columns.gahwa, pa.bool_()),
        }
    ).replace_schema_metadata(schema_metadata(config))
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def import_arrow() -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet``, or an ImportError that names the extra."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ImportError(f"self-play data needs pyarrow: {DATA_EXTRA}") from None
    return pa, pq


def _tasks(config: SelfplayConfig, skip: Collection[int]) -> Iterator[tuple[Any, ...]]:
    """The shards to play (those not in ``skip``), drawn as they are needed."""
    seeds = iter_pair_seeds(config.seed)
    for index in range(1, config.shards + 1):
        seed = next(seeds)
        if index not in skip:
            yield config, index, seed


def iter_shards(
    config: SelfplayConfig, jobs: int = 1, cluster: str | None = None, skip: Collection[int] = ()
) -> Generator[ShardResult, None, None]:
    """Play the shards of ``config`` but those numbered in ``skip``, yielding them in order:
    here, on ``jobs`` processes, or on the Ray cluster at ``cluster``, on the arena's
    machinery (:mod:`baloot.bots.pool`, :mod:`baloot.bots.cluster`)."""
    tasks = _tasks(config, skip)
    if cluster is not None:
        yield from cluster_map(play_shard, tasks, cluster, jobs if jobs > 1 else None)
    elif jobs <= 1:
        for task in tasks:
            yield play_shard(*task)
    else:
        yield from pool_map(play_shard, tasks, jobs)
