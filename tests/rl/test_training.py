"""Training the ``neural`` bot by policy iteration (``baloot.rl.rollouts``,
``baloot.rl.training``, ``scripts/train_neural.py``): rollout labels are each legal action
played out in the true deal; a tiny run writes a checkpoint that plays as a bot; runs add up
(one round and one more is two rounds); a deadline stops a run with its checkpoint whole; the
script refuses to start over a checkpoint and to read a bad deadline; the gate promotes only a
checkpoint that is surely stronger; and the endgame averages the solver's values over every
world the seat cannot tell apart."""

from __future__ import annotations

import dataclasses
import datetime as dt
import importlib.util
import itertools
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from helpers import ROOT

from baloot.bots.arena import ArenaConfig, play_pair
from baloot.bots.worlds import InconsistentWorldError, world
from baloot.core.cards import CardSet
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.rl.action_space import index_of
from baloot.rl.endgame import card_values
from baloot.rl.network import shipped
from baloot.rl.rollouts import LabelConfig, Policy, label_deals
from baloot.rl.training import Checkpoint, TrainConfig, iterate
from baloot.solver import values
from baloot.view.seat_view import SeatView

SCRIPT = ROOT / "scripts" / "train_neural.py"
TINY = TrainConfig(round_deals=3, keep=1, label=LabelConfig(width=3), judges=())
#: A round of one deal, for the tests of what a round keeps and how rounds follow each other.
ONE_DEAL = dataclasses.replace(TINY, round_deals=1)


def quiet(line: str) -> None:
    """A log that keeps nothing."""


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_neural", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300
    )


def test_every_legal_action_of_a_labelled_decision_gets_the_score_of_its_rollout() -> None:
    labels = label_deals(Policy([shipped()]), 4, np.random.default_rng(2), LabelConfig(width=2))
    assert labels.deals == 4 and labels.decisions > 4 * 32
    legal = ~np.isnan(labels.values)
    assert (legal.sum(axis=1) >= 2).all()
    # labels are written scores of one hand, whole game points (a Gahwa: the match)
    found = labels.values[legal]
    assert (found == np.round(found)).all() and np.abs(found).max() <= 152
    # the calls labelled are a share of the calls, the cards all of them
    assert 0 < labels.calls.sum() < len(labels.calls) / 2


def test_a_rollout_of_a_forced_card_is_the_hand_played_on_by_the_same_policy() -> None:
    """The same deal labelled twice from the same generator gives the same labels: a rollout
    depends on the deal and the policy alone."""
    first = label_deals(Policy([shipped()]), 1, np.random.default_rng(7), LabelConfig(width=1))
    again = label_deals(Policy([shipped()]), 1, np.random.default_rng(7), LabelConfig(width=1))
    assert np.array_equal(first.values, again.values, equal_nan=True)
    assert np.array_equal(first.observations, again.observations)


def test_a_tiny_run_writes_a_checkpoint_that_plays_as_a_bot(tmp_path: Path) -> None:
    path = tmp_path / "checkpoint.npz"
    assert iterate(path, TINY, rounds=2, log=quiet) == 2
    checkpoint = Checkpoint.load(path)
    meta = checkpoint.meta
    assert (meta["rounds"], meta["deals"]) == (2, 6) and meta["labels"] > 20
    assert meta["steps"] >= 2 and meta["cpu_seconds"] > 0
    moved = [not np.array_equal(a, b) for (a, _), (b, _) in zip(
        checkpoint.layers, shipped().layers, strict=True)]  # fmt: skip
    assert all(moved)
    curve = (tmp_path / "curve.csv").read_text(encoding="utf-8").splitlines()
    assert curve[0].startswith("round,cpu_hours,deals,labels,loss") and len(curve) == 3
    pair = play_pair(ArenaConfig(f"neural:weights={path}", "heuristic", 1, hands=True), 1, 5)
    assert pair.failures == [] and pair.hands == 2


def test_one_round_and_then_another_is_two_rounds(tmp_path: Path) -> None:
    once, twice = tmp_path / "once" / "c.npz", tmp_path / "twice" / "c.npz"
    iterate(once, ONE_DEAL, rounds=2, log=quiet)
    iterate(twice, ONE_DEAL, rounds=1, log=quiet)
    iterate(twice, ONE_DEAL, rounds=1, log=quiet)
    a, b = Checkpoint.load(once), Checkpoint.load(twice)
    assert a.meta["rounds"] == b.meta["rounds"] == 2
    for x, y in zip(a.params() + a.moments, b.params() + b.moments, strict=True):
        assert np.array_equal(x, y)


def test_the_snapshot_pool_is_kept_in_the_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "c.npz"
    config = dataclasses.replace(ONE_DEAL, snapshot_every=1, pool=2)
    iterate(path, config, rounds=3, log=quiet)
    checkpoint = Checkpoint.load(path)
    assert len(checkpoint.pool) == 2 and checkpoint.meta["pool"] == 2
    assert checkpoint.pool[0][0][0].shape == checkpoint.layers[0][0].shape


def test_a_deadline_ends_the_round_early_with_its_checkpoint_whole(tmp_path: Path) -> None:
    path = tmp_path / "c.npz"
    config = dataclasses.replace(TINY, round_deals=100_000)
    start = time.monotonic()
    assert iterate(path, config, until=start + 1.0, log=quiet) == 1
    meta = Checkpoint.load(path).meta
    assert 0 < meta["deals"] < 100_000 and meta["rounds"] == 1
    assert meta["steps"] > 0  # what the round labelled was trained on


def test_the_script_does_not_start_over_a_checkpoint_without_resume(tmp_path: Path) -> None:
    path = tmp_path / "c.npz"
    iterate(path, ONE_DEAL, rounds=1, log=quiet)
    done = run("--checkpoint", str(path), "--rounds", "1")
    assert (
        done.returncode == 2 and done.stderr.strip() == f"{path} exists: --resume goes on from it"
    )
    bad = run("--until", "25:00")
    assert bad.returncode == 2 and "--until is a time of day HH:MM (UTC)" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_script_resumes_for_a_round(tmp_path: Path) -> None:
    path = tmp_path / "c.npz"
    iterate(path, ONE_DEAL, rounds=1, log=quiet)
    args = ["--checkpoint", str(path), "--resume", "--rounds", "1", "--round-deals", "2"]
    done = run(*args, "--width", "2", "--judge", "random:1:1")
    assert done.returncode == 0, done.stderr
    assert "round 2: 2 deals" in done.stdout and "random_points" in done.stdout
    curve = (tmp_path / "curve.csv").read_text(encoding="utf-8").splitlines()
    assert "random_points" in curve[0] and len(curve) == 3


def test_deadlines_are_times_of_day_or_from_now() -> None:
    deadline = script().deadline
    now = dt.datetime(2026, 1, 1, 10, 0, tzinfo=dt.UTC)
    assert deadline("+90m", now) - time.monotonic() == pytest.approx(5400, abs=5)
    assert deadline("10:30", now) - time.monotonic() == pytest.approx(1800, abs=5)
    assert deadline("09:00", now) - time.monotonic() == pytest.approx(23 * 3600, abs=5)


def test_the_gate_promotes_only_a_checkpoint_that_is_surely_stronger(tmp_path: Path) -> None:
    path = tmp_path / "c.npz"
    iterate(path, TINY, rounds=1, log=quiet)
    shipped_dir = tmp_path / "weights"
    shipped_dir.mkdir()
    for name in ("neural.npz", "neural-card.json"):
        (shipped_dir / name).write_bytes((ROOT / "src/baloot/rl/weights" / name).read_bytes())
    gate = ["gate", "--checkpoint", str(path), "--shipped", str(shipped_dir)]
    kept = run(*gate, "--pairs", "1")
    assert kept.returncode == 1 and "kept the shipped weights" in kept.stdout
    assert (shipped_dir / "neural.npz").read_bytes() == (
        ROOT / "src/baloot/rl/weights/neural.npz"
    ).read_bytes()
    promoted = run(*gate, "--pairs", "4", "--against", "random")
    assert promoted.returncode == 0, promoted.stdout + promoted.stderr
    card = json.loads((shipped_dir / "neural-card.json").read_text(encoding="utf-8"))
    assert card["network"]["rounds"] == 1 and card["network"]["gate"]["against"] == "random"
    from baloot.rl.network import Network

    promoted_network = Network.load(shipped_dir / "neural.npz")
    assert promoted_network.meta["format"] == "baloot-neural/1"
    assert np.array_equal(promoted_network.layers[0][0], Checkpoint.load(path).layers[0][0])


def _every_world(view: SeatView) -> list[dict[Seat, CardSet]]:
    """Every guess of the unseen cards that the view allows, found by trying them all."""
    unseen = list(view.unseen)
    others = [s for s in Seat if s != view.seat]
    sizes = [view.held[s] for s in others]
    found = []
    for first in itertools.combinations(unseen, sizes[0]):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, sizes[1]):
            third = [c for c in rest if c not in second]
            guess = dict(zip(others, map(CardSet, (first, second, third)), strict=True))
            try:
                world(view, guess)
            except InconsistentWorldError:
                continue
            found.append(guess)
    return found


@pytest.mark.parametrize("seed", range(6))
def test_the_endgame_averages_the_solver_over_every_world_the_seat_cannot_tell_apart(
    seed: int,
) -> None:
    rng = random.Random(seed)
    hand = Hand.new(rng=rng)
    while not hand.is_over and hand.trick_number < 6:
        hand.apply(hand.announced(rng.choice(hand.legal_actions())))
    if hand.is_over or len(hand.legal_actions()) < 2:
        pytest.skip("the deal ended early, or its card is forced")
    view = SeatView.of(hand, hand.to_act)
    legal = hand.legal_actions()
    guesses = _every_world(view)
    exact = {a: 0.0 for a in legal}
    for guess in guesses:
        for action, value in values(world(view, guess)).items():
            exact[action] += value / len(guesses)
    found = card_values(view, legal, random.Random(1), draws=20 * len(guesses))
    assert found is not None
    assert found == pytest.approx(exact)
    assert index_of(max(found, key=found.__getitem__)) >= 36  # a card


@pytest.mark.parametrize("seed", range(8))
def test_a_forked_tracker_follows_its_copy_of_the_hand_as_the_seats_views_say(seed: int) -> None:
    from baloot.rl.observation import encode
    from baloot.rl.tracker import Tracker

    rng = random.Random(seed)
    hand = Hand.new(rng=rng, dealer=Seat(rng.randrange(4)))
    tracker = Tracker(hand)
    fork_at = rng.randrange(40)
    while not hand.is_over:
        if len(hand.actions) == fork_at:
            hand = hand.copy()
            tracker = tracker.fork(hand)
        tracker.follow(hand.apply(hand.announced(rng.choice(hand.legal_actions()))))
        if not hand.is_over:
            for seat in Seat:
                assert (tracker.observe(seat) == encode(SeatView.of(hand, seat))).all()
