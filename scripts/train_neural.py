"""Train the ``neural`` bot's network on self-play data (``baloot selfplay``), on the CPU.

    python scripts/train_neural.py DATA_DIR [DATA_DIR …] --out src/baloot/rl/weights/neural.npz

Each decision of the play phase with more than one legal action is one example: the seat's
observation in, the double-dummy value of every legal action in the true deal as the target.
The loss counts the legal actions only, and only how their values differ (each side centred
on its mean over the legal actions): which card is better is what the bot needs, while what
the whole deal is worth is mostly the hidden cards. Gahwa hands (values of the match, not game
points) are left out. A twentieth of the hands (by their number) is held out to measure: how
often the network's card is the best one, and its mean loss in game points against the best.
When the data are the heuristic bot's self-play, the same held-out hands choose the margin by
which the network must prefer a card to overrule the heuristic bot's (their own choices stand
for it): the ``neural`` bot plays the heuristic bot's card otherwise (``prior`` in the card).

PyTorch trains it when installed (``pip install 'pybaloot[train]'``, or the CPU build of
PyTorch: ``pip install torch --index-url https://download.pytorch.org/whl/cpu``); otherwise,
or with ``--numpy``, a plain NumPy loop trains the same network (slower; for small runs and
the tests). The weights are written as ``.npz`` (NumPy only at play time) with a card
(``neural-card.json`` beside them) that holds the data's cards, the recipe and the figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from baloot.rl.observation import OFFSETS, SIZE, VERSION
from baloot.rl.selfplay import import_arrow
from baloot.rl.suits import contracts, renamings

Array = npt.NDArray[np.float32]
#: Values are in game points; the network learns them divided by this.
SCALE = 10.0
#: One hand in this many is held out for the figures.
HOLD_OUT = 20


def load(
    folders: list[Path], most: int | None
) -> tuple[Array, Array, np.ndarray[Any, Any], np.ndarray[Any, Any], list[Any]]:
    """The examples of the self-play folders: observations, values (NaN where not legal),
    hand numbers, the actions the data's bots took, and each folder's card."""
    _, pq = import_arrow()
    import pyarrow.compute as pc

    inputs, targets, hands, taken, cards = [], [], [], [], []
    count = 0
    for number, folder in enumerate(folders):
        card_path = folder / "card.json"
        cards.append(
            json.loads(card_path.read_text(encoding="utf-8")) if card_path.exists() else None
        )
        for shard in sorted((folder / "shards").glob("*.parquet")):
            if not shard.with_suffix(".json").exists():
                continue  # not finished
            table = pq.read_table(
                shard, columns=["hand", "observation", "values", "gahwa", "action"]
            )
            if table.schema.metadata.get(b"layout_version") != str(VERSION).encode():
                sys.exit(f"{shard}: observation layout is not version {VERSION}")
            keep = pc.and_(pc.is_valid(table["values"]), pc.invert(table["gahwa"]))
            table = table.filter(keep)
            if not table.num_rows:
                continue
            values = table["values"].combine_chunks().flatten().to_numpy(zero_copy_only=False)
            values = values.reshape(-1, 100).astype(np.float32)
            choices = (~np.isnan(values)).sum(axis=1) > 1
            observations = table["observation"].combine_chunks().flatten().to_numpy()
            observations = observations.reshape(-1, SIZE)[choices]
            inputs.append(observations.astype(np.float32))
            targets.append(values[choices])
            hands.append(table["hand"].to_numpy()[choices] + number * 10**9)
            taken.append(table["action"].to_numpy()[choices])
            count += int(choices.sum())
            if most is not None and count >= most:
                break
        if most is not None and count >= most:
            break
    if not inputs:
        sys.exit("no examples found: give folders that baloot selfplay wrote")
    x = np.concatenate(inputs)
    score = OFFSETS["score"]
    x[:, score : score + 2] = 0.0
    return x, np.concatenate(targets), np.concatenate(hands), np.concatenate(taken), cards


def centred(values: Array, legal: Array) -> Array:
    """Each row's values less their mean over the legal actions (zero where not legal)."""
    mean = (values * legal).sum(axis=1, keepdims=True) / legal.sum(axis=1, keepdims=True)
    return (values - mean) * legal


def figures(predicted: Array, values: Array) -> dict[str, float]:
    """How often the predicted best legal action is a best one, and the mean loss of game
    points of the predicted best against the best."""
    legal = ~np.isnan(values)
    chosen = np.where(legal, predicted, -np.inf).argmax(axis=1)
    exact = np.where(legal, values, -np.inf)
    best = exact.max(axis=1)
    got = exact[np.arange(len(values)), chosen]
    return {
        "best_rate": float((got >= best - 1e-6).mean()),
        "mean_loss_points": float((best - got).mean()),
    }


#: The margins tried for the heuristic bot's card (in the network's units, game points / SCALE).
MARGINS = (0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.8)


def with_prior(predicted: Array, values: Array, taken: Array, margin: float) -> Array:
    """The network's outputs changed so that their best is the card ``taken`` (the heuristic
    bot's) unless the network's own best is worth more than ``margin`` more."""
    legal = ~np.isnan(values)
    rows = np.arange(len(values))
    masked = np.where(legal, predicted, -np.inf)
    best = masked.argmax(axis=1)
    keep = masked[rows, best] - masked[rows, taken] <= margin
    out = masked.copy()
    out[rows[keep], taken[keep]] = np.inf
    return out


def tune_prior(predicted: Array, values: Array, taken: Array) -> dict[str, Any]:
    """The margin of :data:`MARGINS` that loses the fewest game points on the held-out
    examples, and its figures."""
    tried = {m: figures(with_prior(predicted, values, taken, m), values) for m in MARGINS}
    margin = min(tried, key=lambda m: tried[m]["mean_loss_points"])
    return {
        "bot": "heuristic",
        "margin": margin,
        "figures": tried[margin],
        "bots_figures": figures(with_prior(predicted, values, taken, np.inf), values),
    }


def train_torch(
    x: Array, y: Array, legal: Array, args: argparse.Namespace
) -> list[tuple[Array, Array]]:
    """The network trained by PyTorch: its layers as (weights, biases) NumPy arrays."""
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    sizes = [SIZE, *[args.hidden] * args.layers, 100]
    modules: list[torch.nn.Module] = []
    for i in range(len(sizes) - 1):
        modules.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            modules.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*modules)
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=args.decay)
    steps = args.epochs * -(-len(x) // args.batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, args.lr, total_steps=steps)
    xs, ys, ms = torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(legal)
    observation, actions, allowed = (torch.from_numpy(a.copy()) for a in renamings())
    kinds = torch.from_numpy(contracts(x))
    generator = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        order = torch.randperm(len(xs), generator=generator)
        total = 0.0
        start = time.perf_counter()
        for begin in range(0, len(xs), args.batch):
            batch = order[begin : begin + args.batch]
            xb, yb, m = xs[batch], ys[batch], ms[batch]
            if not args.no_renaming:
                pick = torch.randint(24, (len(batch),), generator=generator)
                renaming = allowed[kinds[batch], pick]
                xb = xb.gather(1, observation[renaming])
                yb, m = yb.gather(1, actions[renaming]), m.gather(1, actions[renaming])
            out = net(xb)
            mean = (out * m).sum(1, keepdim=True) / m.sum(1, keepdim=True)
            loss = (((out - mean) * m - yb) ** 2).sum() / m.sum()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(batch)
        print(
            f"epoch {epoch + 1}: loss {total / len(xs):.4f} ({time.perf_counter() - start:.0f} s)"
        )
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    return [
        (lin.weight.detach().numpy().T.copy(), lin.bias.detach().numpy().copy()) for lin in linears
    ]


def train_numpy(
    x: Array, y: Array, legal: Array, args: argparse.Namespace
) -> list[tuple[Array, Array]]:
    """The same network trained by plain NumPy (Adam, the same loss)."""
    rng = np.random.default_rng(args.seed)
    sizes = [SIZE, *[args.hidden] * args.layers, 100]
    params = []
    for fan_in, fan_out in itertools.pairwise(sizes):
        bound = 1 / np.sqrt(fan_in)
        params.append(rng.uniform(-bound, bound, (fan_in, fan_out)).astype(np.float32))
        params.append(rng.uniform(-bound, bound, fan_out).astype(np.float32))
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    beta1, beta2, step = 0.9, 0.999, 0
    for epoch in range(args.epochs):
        order = rng.permutation(len(x))
        total = 0.0
        for begin in range(0, len(x), args.batch):
            batch = order[begin : begin + args.batch]
            m = legal[batch]
            activations = [x[batch]]
            for i in range(0, len(params), 2):
                z = activations[-1] @ params[i] + params[i + 1]
                activations.append(np.maximum(z, 0) if i + 2 < len(params) else z)
            out = activations[-1]
            error = centred(out, m) - y[batch]
            count = m.sum()
            total += float((error**2).sum() / count) * len(batch)
            grad = centred(2 * error / count, m)  # the centring is its own adjoint
            grads: list[Array] = []
            for i in range(len(params) - 2, -1, -2):
                grads[:0] = [activations[i // 2].T @ grad, grad.sum(axis=0)]
                if i:
                    grad = (grad @ params[i].T) * (activations[i // 2] > 0)
            step += 1
            for p, g, mo, sq in zip(params, grads, moments, squares, strict=True):
                g = g + args.decay * p
                mo *= beta1
                mo += (1 - beta1) * g
                sq *= beta2
                sq += (1 - beta2) * g * g
                rate = args.lr * np.sqrt(1 - beta2**step) / (1 - beta1**step)
                p -= (rate * mo / (np.sqrt(sq) + 1e-8)).astype(np.float32)
        print(f"epoch {epoch + 1}: loss {total / len(x):.4f}")
    return [(params[i], params[i + 1]) for i in range(0, len(params), 2)]


def predict(layers: list[tuple[Array, Array]], x: Array) -> Array:
    for i, (w, b) in enumerate(layers):
        x = x @ w + b
        if i < len(layers) - 1:
            x = np.maximum(x, 0)
    return x


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", type=Path, help="folders of baloot selfplay")
    parser.add_argument("--out", type=Path, required=True, help="the weights' .npz")
    parser.add_argument("--hidden", type=int, default=256, help="units of a hidden layer")
    parser.add_argument("--layers", type=int, default=2, help="hidden layers")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=2e-3, help="the peak learning rate")
    parser.add_argument("--decay", type=float, default=1e-5, help="weight decay")
    parser.add_argument("--most", type=int, help="at most this many examples")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's threads")
    parser.add_argument("--numpy", action="store_true", help="train with NumPy, not PyTorch")
    parser.add_argument(
        "--no-renaming", action="store_true", help="do not rename the suits (PyTorch)"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    x, values, hands, taken, cards = load(args.data, args.most)
    legal = (~np.isnan(values)).astype(np.float32)
    y = centred(np.nan_to_num(values) / SCALE, legal)
    held = hands % HOLD_OUT == 0
    count = len(set(hands.tolist()))
    print(f"{len(x):,} examples ({int(held.sum()):,} held out) from {count:,} hands")
    trainer = "numpy"
    if not args.numpy:
        try:
            import torch  # noqa: F401

            trainer = "torch"
        except ImportError:
            print("PyTorch is not installed: training with NumPy")
    train = train_torch if trainer == "torch" else train_numpy
    layers = train(x[~held], y[~held], legal[~held], args)
    predicted = predict(layers, x[held])
    measured = figures(predicted, values[held]) if held.any() else {}
    print(f"held out: {measured}")
    # The heuristic bot's card, kept unless the network sees a better one by a margin: the
    # data's own choices stand for it when the data are its self-play.
    heuristic = held.any() and all(card and card.get("bots") == "heuristic" for card in cards)
    prior = tune_prior(predicted, values[held], taken[held]) if heuristic else None
    print(f"with the heuristic bot's card as the prior: {prior}")
    meta = {
        "layers": len(layers),
        "layout_version": VERSION,
        "hidden": args.hidden,
        "hidden_layers": args.layers,
        "scale": SCALE,
        "trainer": trainer,
        "recipe": {k: v for k, v in vars(args).items() if k not in ("data", "out")},
        "examples": len(x),
        "held_out": int(held.sum()),
        "figures": measured,
        "prior": prior,
        "seconds": round(time.perf_counter() - start),
    }
    arrays = {f"w{i}": w for i, (w, _) in enumerate(layers)}
    arrays.update({f"b{i}": b for i, (_, b) in enumerate(layers)})
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, meta=np.array(json.dumps(meta)), **arrays)
    card = {"network": meta, "data": cards}
    (args.out.parent / "neural-card.json").write_text(
        json.dumps(card, indent=2) + "\n", encoding="utf-8"
    )
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
