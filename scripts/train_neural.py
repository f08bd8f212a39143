"""Train the ``neural`` bot by policy iteration on rollout labels (``docs/rl.md``), on one core.

    python scripts/train_neural.py --resume --until 17:30     # go on from the checkpoint
    python scripts/train_neural.py gate --pairs 200           # promote it if it is stronger

The checkpoint (``training/neural/checkpoint.npz``: the weights, Adam's moments, the counts,
the generator's state, the snapshot pool) is everything a run needs: each round regenerates
its labels with the current network, trains on them and writes the checkpoint atomically, so
a run stopped at its deadline (``--until``, a time of day in UTC or ``+90m``), by Ctrl-C or
by SIGTERM loses at most the round in progress, and the next run goes on from it. The curve,
CPU-hours against strength, is ``curve.csv`` beside it. Without a checkpoint the run starts
from the shipped weights; with one, ``--resume`` is needed (so that no run overwrites another
by mistake).

``gate`` plays the checkpoint against the shipped weights in duplicate pairs of matches and
replaces the shipped weights (``src/baloot/rl/weights/``) only when the lower end of the
checkpoint's 95 % interval of matches won is above one half.
"""

from __future__ import annotations

import os

# One core: NumPy's matrix products stay on this thread.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import datetime as dt
import json
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKPOINT = ROOT / "training" / "neural" / "checkpoint.npz"
SHIPPED = ROOT / "src" / "baloot" / "rl" / "weights"


def deadline(text: str, now: dt.datetime | None = None) -> float:
    """The ``time.monotonic()`` of ``text``: ``HH:MM`` (today in UTC, or tomorrow if it has
    passed), or ``+N`` minutes with ``m`` or hours with ``h``."""
    now = now or dt.datetime.now(dt.UTC)
    if text.startswith("+") and text[-1:] in ("m", "h") and text[1:-1].isdigit():
        seconds = int(text[1:-1]) * (60 if text[-1] == "m" else 3600)
    else:
        try:
            at = dt.datetime.strptime(text, "%H:%M").time()
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"--until is a time of day HH:MM (UTC) or +N with m or h, not {text!r}"
            ) from None
        target = dt.datetime.combine(now.date(), at, dt.UTC)
        if target <= now:
            target += dt.timedelta(days=1)
        seconds = int((target - now).total_seconds())
    return time.monotonic() + seconds


def whole(text: str) -> int:
    """A whole number, at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return int(text)


def share(text: str) -> float:
    """A share, from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a share from 0 to 1, not {text!r}")
    return value


def judge_spec(text: str) -> object:
    """A judge, ``BOT:PAIRS:EVERY`` (``medium:40:4``)."""
    from baloot.rl.training import Judge

    bot, _, rest = text.rpartition(":")
    bot, _, pairs = bot.rpartition(":")
    if not bot or not pairs.isdigit() or not rest.isdigit() or min(int(pairs), int(rest)) < 1:
        raise argparse.ArgumentTypeError(f"a judge is BOT:PAIRS:EVERY (medium:40:4), not {text!r}")
    return Judge(bot, int(pairs), int(rest))


def train(args: argparse.Namespace) -> int:
    from baloot.rl.rollouts import LabelConfig
    from baloot.rl.training import TrainConfig, iterate

    path: Path = args.checkpoint
    if path.exists() and not args.resume:
        print(f"{path} exists: --resume goes on from it", file=sys.stderr)
        return 2
    if args.calls == "network" and path.exists():
        from baloot.rl.training import Checkpoint

        checkpoint = Checkpoint.load(path)
        checkpoint.meta["calls"] = "network"
        checkpoint.save(path)
    config = TrainConfig(
        round_deals=args.round_deals,
        judges=tuple(args.judge) if args.judge else TrainConfig.judges,
        label=LabelConfig(width=args.width, calls=args.call_share),
    )
    done = iterate(
        path, config, until=args.until, rounds=args.rounds, log=lambda line: print(line, flush=True)
    )
    print(f"{done} rounds; the checkpoint is {path}")
    return 0


def gate(args: argparse.Namespace) -> int:
    from baloot.bots.arena import ArenaConfig, run_arena
    from baloot.records.atomic import write_atomic
    from baloot.rl.network import CARD_FILE, WEIGHTS_FILE
    from baloot.rl.training import Checkpoint

    path: Path = args.checkpoint
    if not path.exists():
        print(f"no checkpoint at {path}: train first", file=sys.stderr)
        return 2
    against = args.against or f"neural:weights={args.shipped / WEIGHTS_FILE}"
    config = ArenaConfig(f"neural:weights={path}", against, args.pairs, seed=args.seed)
    summary = run_arena(config)
    rate, low, high = summary.match_win_rate()
    points, _, _ = summary.points_per_hand()
    print(
        f"the checkpoint against {args.against or 'the shipped weights'}: {rate:.1%} of matches"
        f" ({low:.1%}–{high:.1%}),"
        f" {points:+.2f} game points a hand, over {args.pairs} pairs of matches"
    )
    if low <= 0.5:
        print("kept the shipped weights: the checkpoint is not surely stronger")
        return 1
    checkpoint = Checkpoint.load(path)
    write_atomic(args.shipped / WEIGHTS_FILE, checkpoint.weights())
    card = json.loads((args.shipped / CARD_FILE).read_text(encoding="utf-8"))
    gated = {
        "against": args.against or "the weights it replaced",
        "pairs_of_matches": args.pairs,
        "seed": args.seed,
        "won": rate,
        "low": low,
        "high": high,
        "points_a_hand": points,
    }
    card["network"] = {k: v for k, v in checkpoint.meta.items() if k not in ("rng", "pool")}
    card["network"]["gate"] = gated
    write_atomic(args.shipped / CARD_FILE, json.dumps(card, indent=2) + "\n")
    print(f"promoted: {args.shipped / WEIGHTS_FILE}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", choices=("train", "gate"), default="train")
    parser.add_argument("--checkpoint", type=Path, default=CHECKPOINT)
    parser.add_argument("--resume", action="store_true", help="go on from the checkpoint")
    parser.add_argument("--until", type=deadline, help="stop at HH:MM (UTC), or +90m, +2h")
    parser.add_argument("--rounds", type=whole, help="stop after this many rounds")
    parser.add_argument("--round-deals", type=whole, default=3000, help="deals a round")
    parser.add_argument("--width", type=whole, default=16, help="deals played side by side")
    parser.add_argument(
        "--judge",
        action="append",
        type=judge_spec,
        metavar="BOT:PAIRS:EVERY",
        help="judge against BOT on PAIRS pairs of hands every EVERY rounds (again for more)",
    )
    parser.add_argument(
        "--call-share", type=share, default=0.3, help="the share of call decisions labelled"
    )
    parser.add_argument(
        "--calls", choices=("heuristic", "network"), help="from now on, the network calls"
    )
    parser.add_argument("--pairs", type=whole, default=200, help="gate: pairs of matches")
    parser.add_argument("--seed", type=int, default=1, help="gate: the arena's seed")
    parser.add_argument("--shipped", type=Path, default=SHIPPED, help="gate: the weights' folder")
    parser.add_argument("--against", help="gate: another bot than the shipped weights")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return train(args) if args.command == "train" else gate(args)
    except KeyboardInterrupt:
        print("stopped: the checkpoint holds every finished round", file=sys.stderr)
        return 130
    except ValueError as error:
        print(f"train_neural: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
