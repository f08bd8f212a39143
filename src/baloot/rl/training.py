"""Policy iteration for the ``neural`` bot, where the network is the memory.

Each round plays fresh deals with the network being trained (and, for a share of them, an
earlier one for one team), labels their decisions by rollouts (:mod:`baloot.rl.rollouts`),
and trains the network on the last few rounds' labels: the labels come from the current
policy, so no data are kept between runs. A :class:`Checkpoint` is everything a run needs to
go on (the weights, Adam's moments, the counts, the generator's state, the snapshot pool), a
few MB written atomically after every round, so the work of many runs adds up
(``scripts/train_neural.py --resume``). The learning rate falls to a tenth as the labels
grow. The network is judged against the search bots, never against its own lineage, on the
same pairs of hands each time (:func:`judge`): those figures are the curve.

>>> import tempfile
>>> from pathlib import Path
>>> from baloot.rl.rollouts import LabelConfig
>>> path = Path(tempfile.mkdtemp()) / "checkpoint.npz"
>>> config = TrainConfig(round_deals=2, label=LabelConfig(width=2), judges=())
>>> rounds = iterate(path, config, rounds=1, log=lambda line: None)
>>> checkpoint = Checkpoint.load(path)
>>> checkpoint.meta["rounds"], checkpoint.meta["deals"]
(1, 2)
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from baloot.records.atomic import write_atomic
from baloot.rl.network import Network, shipped
from baloot.rl.observation import OFFSETS, VERSION
from baloot.rl.rollouts import LabelConfig, Labels, Policy, label_deals
from baloot.rl.suits import contracts, renamings

FORMAT: Final = "baloot-train/1"
#: Labels are in game points; the network learns them divided by this.
SCALE: Final = 10.0
#: The curve's first columns, one row a round; then each judge's (:class:`Judge`).
CURVE: Final = ("round", "cpu_hours", "deals", "labels", "loss", "rate")

#: The bot's options when the network is judged: the network alone, without the endgame's
#: search or the averaging over the suits' names, which would hide what training changed.
JUDGED: Final = "endgame=0,average=1"

Floats = npt.NDArray[np.float32]
Layers = list[tuple[Floats, Floats]]


@dataclass(frozen=True)
class Judge:
    """Judge the network every ``every`` rounds on ``pairs`` pairs of hands against the bot
    ``against`` (:func:`judge`)."""

    against: str
    pairs: int
    every: int

    def columns(self) -> tuple[str, str, str]:
        """The curve's columns of this judge: game points a hand, its interval's ends."""
        name = self.against.replace(":", "_")
        return f"{name}_points", f"{name}_low", f"{name}_high"


@dataclass(frozen=True)
class TrainConfig:
    """A run's recipe (see the module)."""

    #: Deals a round.
    round_deals: int = 3000
    #: The rounds of labels trained on (the newest with the ones before it).
    keep: int = 4
    batch: int = 256
    #: The first learning rate, falling to ``floor`` of it over ``decay_labels`` labels.
    rate: float = 3e-5
    floor: float = 0.1
    decay_labels: float = 2e7
    #: A call's weight in the loss against a card's: a call's labels are whole hands, whose
    #: spread would otherwise drive the layers the cards share.
    call_weight: float = 0.25
    #: Every this many rounds the network joins the snapshot pool, which keeps ``pool``.
    snapshot_every: int = 5
    pool: int = 3
    #: Who judges the network, and how often: the heuristic bot often, since it is quick;
    #: the search bot ``medium`` less often, on fewer pairs.
    judges: tuple[Judge, ...] = (Judge("heuristic", 400, 1), Judge("medium", 40, 4))
    label: LabelConfig = field(default_factory=LabelConfig)


class Checkpoint:
    """The network being trained and all a run needs to go on from it. Its file is also a
    network's file: ``neural:weights=PATH`` plays it."""

    __slots__ = ("layers", "meta", "moments", "pool", "squares")

    def __init__(self, layers: Layers, meta: dict[str, Any]) -> None:
        self.layers = layers
        self.meta = meta
        self.moments = [np.zeros_like(p) for p in self.params()]
        self.squares = [np.zeros_like(p) for p in self.params()]
        self.pool: list[Layers] = []

    @classmethod
    def start(cls, network: Network, seed: int = 0) -> Checkpoint:
        """A checkpoint that starts from ``network``'s weights, with nothing trained yet."""
        layers = [(w.copy(), b.copy()) for w, b in network.layers]
        meta = {
            "format": FORMAT,
            "layers": len(layers),
            "layout_version": VERSION,
            "hidden": [int(w.shape[1]) for w, _ in layers[:-1]],
            "scale": SCALE,
            "calls": "heuristic",
            "rounds": 0,
            "deals": 0,
            "labels": 0,
            "call_labels": 0,
            "steps": 0,
            "cpu_seconds": 0.0,
            "rng": np.random.default_rng(seed).bit_generator.state,
            "started_from": network.meta.get("format", "baloot-selfplay/1 double-dummy labels"),
        }
        return cls(layers, meta)

    def params(self) -> list[Floats]:
        """The weights and biases, in order: what Adam updates."""
        return [p for layer in self.layers for p in layer]

    def network(self) -> Network:
        """The network being trained, sharing these weights."""
        score = OFFSETS["score"]
        return Network(self.layers, self.meta, slice(score, score + 2))

    def snapshots(self) -> list[Network]:
        """The earlier networks of the pool."""
        score = OFFSETS["score"]
        return [Network(layers, {}, slice(score, score + 2)) for layers in self.pool]

    def keep_snapshot(self, most: int) -> None:
        """Add the network as it is now to the pool, which keeps the ``most`` newest."""
        self.pool.append([(w.copy(), b.copy()) for w, b in self.layers])
        del self.pool[:-most]

    @classmethod
    def load(cls, path: Path) -> Checkpoint:
        """The checkpoint saved at ``path``; a ValueError when it is not one."""
        with np.load(path, allow_pickle=False) as saved:
            meta = json.loads(str(saved["meta"]))
            if meta.get("format") != FORMAT:
                raise ValueError(f"{path} is not a training checkpoint ({FORMAT})")
            count = int(meta["layers"])
            layers = [(saved[f"w{i}"].copy(), saved[f"b{i}"].copy()) for i in range(count)]
            checkpoint = cls(layers, meta)
            names = [f"{p}{i}" for i in range(count) for p in "wb"]
            checkpoint.moments = [saved[f"m_{name}"].copy() for name in names]
            checkpoint.squares = [saved[f"v_{name}"].copy() for name in names]
            for k in range(int(meta.get("pool", 0))):
                pooled = [saved[f"pool{k}_{name}"].astype(np.float32) for name in names]
                checkpoint.pool.append(list(zip(pooled[::2], pooled[1::2], strict=True)))
        if meta.get("layout_version") != VERSION:
            raise ValueError(f"{path} was trained on observation layout {meta['layout_version']}")
        return checkpoint

    def save(self, path: Path) -> None:
        """Write the checkpoint to ``path``, whole or not at all."""
        self.meta["pool"] = len(self.pool)
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        names = [f"{p}{i}" for i in range(len(self.layers)) for p in "wb"]
        for name, m, v in zip(names, self.moments, self.squares, strict=True):
            arrays[f"m_{name}"], arrays[f"v_{name}"] = m, v
        for k, layers in enumerate(self.pool):
            pooled = [p for layer in layers for p in layer]
            for name, p in zip(names, pooled, strict=True):
                # An opponent's weights need no more than half precision.
                arrays[f"pool{k}_{name}"] = p.astype(np.float16)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, buffer.getvalue())

    def weights(self) -> bytes:
        """The network alone, as the shipped weights are saved (no optimiser, no pool)."""
        meta = {k: v for k, v in self.meta.items() if k not in ("rng", "pool")}
        meta["format"] = "baloot-neural/1"
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        return buffer.getvalue()

    def rate(self, config: TrainConfig) -> float:
        """The learning rate now: ``config.rate`` falling to its floor as the labels grow."""
        share = min(1.0, self.meta["labels"] / config.decay_labels)
        return float(config.rate * config.floor**share)


def train(
    checkpoint: Checkpoint,
    labels: list[Labels],
    config: TrainConfig,
    rng: np.random.Generator,
) -> float:
    """One pass of Adam over ``labels`` (every example under a random renaming of the suits
    that keeps the game); the mean loss. The loss counts the legal actions only, and only how
    their values differ: each side centred on its mean over them; a call counts
    ``config.call_weight`` of a card."""
    x = np.concatenate([part.observations for part in labels])
    values = np.concatenate([part.values for part in labels])
    calls = np.concatenate([part.calls for part in labels])
    weight: Floats = np.where(calls, config.call_weight, 1.0).astype(np.float32)[:, None]
    legal = ~np.isnan(values)
    y = np.where(legal, values, 0.0).astype(np.float32) / SCALE
    m = legal.astype(np.float32)
    y = _centred(y, m)
    score = OFFSETS["score"]
    x[:, score : score + 2] = 0.0
    observation, actions, allowed = renamings()
    kinds = contracts(x)
    params = checkpoint.params()
    rate = checkpoint.rate(config)
    beta1, beta2 = 0.9, 0.999
    total = 0.0
    order = rng.permutation(len(x))
    done = 0
    for begin in range(0, len(x), config.batch):
        batch = order[begin : begin + config.batch]
        renaming = allowed[kinds[batch], rng.integers(24, size=len(batch))]
        xb = np.take_along_axis(x[batch], observation[renaming], axis=1)
        yb = np.take_along_axis(y[batch], actions[renaming], axis=1)
        mb = np.take_along_axis(m[batch], actions[renaming], axis=1)
        activations = [xb]
        for i in range(0, len(params), 2):
            z = activations[-1] @ params[i] + params[i + 1]
            activations.append(np.maximum(z, 0) if i + 2 < len(params) else z)
        error = _centred(activations[-1], mb) - yb
        count = float(mb.sum())
        wb = weight[batch]
        total += float((wb * error**2).sum() / count) * len(batch)
        done += len(batch)
        grad = _centred(wb * error * np.float32(2 / count), mb)  # the centring is its own adjoint
        grads: list[Floats] = []
        for i in range(len(params) - 2, -1, -2):
            grads[:0] = [activations[i // 2].T @ grad, grad.sum(axis=0)]
            if i:
                grad = (grad @ params[i].T) * (activations[i // 2] > 0)
        checkpoint.meta["steps"] += 1
        step = checkpoint.meta["steps"]
        corrected = rate * np.sqrt(1 - beta2**step) / (1 - beta1**step)
        for p, g, mo, sq in zip(params, grads, checkpoint.moments, checkpoint.squares, strict=True):
            mo *= beta1
            mo += (1 - beta1) * g
            sq *= beta2
            sq += (1 - beta2) * g * g
            p -= (corrected * mo / (np.sqrt(sq) + 1e-8)).astype(np.float32)
    return total / max(done, 1)


def _centred(values: Floats, legal: Floats) -> Floats:
    """Each row's values less their mean over the legal actions (zero where not legal)."""
    mean = (values * legal).sum(axis=1, keepdims=True) / legal.sum(axis=1, keepdims=True)
    centred: Floats = (values - mean) * legal
    return centred


def judge(path: Path, against: str, pairs: int, seed: int = 0) -> tuple[float, float, float]:
    """The network saved at ``path``, alone (:data:`JUDGED`), against the bot ``against``, in
    duplicate pairs of hands (the same ``seed``, so the same deals, every time): its game
    points a hand less the other's, with a 95 % interval."""
    from baloot.bots.arena import ArenaConfig, run_arena

    judged = f"neural:weights={path},{JUDGED}"
    config = ArenaConfig(judged, against, pairs, seed=seed, hands=True)
    return run_arena(config).points_per_hand()


def iterate(
    path: Path,
    config: TrainConfig,
    *,
    until: float | None = None,
    rounds: int | None = None,
    log: Callable[[str], None] = print,
) -> int:
    """Go on training the checkpoint at ``path`` (started from the shipped network if there
    is none) until the ``time.monotonic()`` ``until`` or for ``rounds`` rounds, saving it after
    every round; the curve (``curve.csv`` beside it) gains a row a round. The rounds run."""
    checkpoint = Checkpoint.load(path) if path.exists() else Checkpoint.start(shipped())
    meta = checkpoint.meta
    meta["recipe"] = asdict(config) | {"label": _label_recipe(config.label)}
    rng = np.random.default_rng()
    rng.bit_generator.state = meta["rng"]
    recent: deque[Labels] = deque(maxlen=config.keep)
    done = 0
    while (rounds is None or done < rounds) and (until is None or time.monotonic() < until):
        started = time.process_time()
        policy = Policy(
            [checkpoint.network(), *checkpoint.snapshots()], calls=meta["calls"] == "network"
        )
        labels = label_deals(policy, config.round_deals, rng, config.label, until)
        recent.append(labels)
        # Training takes seconds: the labels of a round cut short by the deadline are used.
        loss = train(checkpoint, list(recent), config, rng)
        meta["rounds"] += 1
        meta["deals"] += labels.deals
        meta["labels"] += len(labels.values)
        meta["call_labels"] += int(labels.calls.sum())
        if meta["rounds"] % config.snapshot_every == 0:
            checkpoint.keep_snapshot(config.pool)
        meta["rng"] = rng.bit_generator.state
        meta["cpu_seconds"] += time.process_time() - started
        checkpoint.save(path)
        row: dict[str, Any] = {
            "round": meta["rounds"],
            "cpu_hours": round(meta["cpu_seconds"] / 3600, 4),
            "deals": meta["deals"],
            "labels": meta["labels"],
            "loss": round(loss, 5),
            "rate": f"{checkpoint.rate(config):.2e}",
        }
        judged = time.process_time()
        for each in config.judges:
            if meta["rounds"] % each.every == 0:
                figures = judge(path, each.against, each.pairs)
                row |= dict(zip(each.columns(), (round(f, 3) for f in figures), strict=True))
        if row.keys() - CURVE:
            meta["cpu_seconds"] += time.process_time() - judged
            checkpoint.save(path)
        _add_row(path.parent / "curve.csv", row, config)
        log(
            f"round {meta['rounds']}: {labels.deals} deals, {len(labels.values):,} labels, "
            f"loss {loss:.4f}, {labels.seconds:.0f} s labelling"
            + "".join(f"; {k} {v:+.2f}" for k, v in row.items() if k.endswith("_points"))
        )
        done += 1
    return done


def _label_recipe(config: LabelConfig) -> dict[str, Any]:
    recipe = asdict(config)
    recipe["rules"] = "classic" if config.rules == LabelConfig().rules else str(config.rules)
    return recipe


def _add_row(path: Path, row: dict[str, Any], config: TrainConfig) -> None:
    """Add a row to the curve at ``path``, rewriting it whole."""
    rows = []
    if path.exists():
        with path.open(encoding="utf-8", newline="") as file:
            rows = list(csv.DictReader(file))
    rows.append(row)
    out = io.StringIO()
    columns = [*CURVE, *(c for each in config.judges for c in each.columns())]
    columns += [c for r in rows for c in r if c not in columns]
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_atomic(path, out.getvalue())
