"""The arena: duplicate scheduling, its statistics, parallel runs and its command."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import pytest
from helpers import ROOT

import baloot.bots.base as base
from baloot import Action
from baloot.bots import Clock, RandomBot, current_clock
from baloot.bots.arena import ArenaConfig, pair_seeds, ratio_interval, run_arena, wilson
from baloot.records.record import loads
from baloot.records.replay import replay
from baloot.view.seat_view import SeatView


def test_wilson_interval_matches_the_textbook_values() -> None:
    # 81 of 263: Wilson 95 % interval 0.2553–0.3662 (Newcombe 1998, Stat Med 17, table II).
    p, low, high = wilson(81, 263)
    assert p == pytest.approx(0.3080, abs=1e-4)
    assert low == pytest.approx(0.2553, abs=1e-4)
    assert high == pytest.approx(0.3662, abs=1e-4)
    assert wilson(0, 0) == (0.0, 0.0, 1.0)
    assert wilson(10, 10)[2] == pytest.approx(1.0)


def test_the_points_interval_is_taken_over_pairs_not_hands() -> None:
    mean, low, high = ratio_interval([(4, 2), (4, 2), (4, 2)])
    assert (mean, low, high) == (2.0, 2.0, 2.0)
    mean, low, high = ratio_interval([(30, 10), (-10, 10)])
    assert mean == 1.0 and low < 0 < high


def test_every_deck_is_played_twice_with_the_teams_swapped(tmp_path: Path) -> None:
    config = ArenaConfig("random", "heuristic", pairs=2, seed=5, out=str(tmp_path))
    summary = run_arena(config)
    files = sorted(tmp_path.glob("*.baloot"))
    assert [f.name for f in files] == [
        "match-00001-1.baloot",
        "match-00001-2.baloot",
        "match-00002-1.baloot",
        "match-00002-2.baloot",
    ]
    first, second = (loads(f.read_text(encoding="utf-8")) for f in files[:2])
    assert first.hands[0].deck == second.hands[0].deck
    assert first.metadata["players"] == {
        "N": "bot:random", "W": "bot:heuristic", "S": "bot:random", "E": "bot:heuristic"
    }  # fmt: skip
    assert second.metadata["players"]["N"] == "bot:heuristic"
    wins = 0
    for path in files:
        result = replay(loads(path.read_text(encoding="utf-8")))
        a_team = (
            "NS"
            if loads(path.read_text(encoding="utf-8")).metadata["players"]["N"] == ("bot:random")
            else "EW"
        )
        wins += result.winner is not None and result.winner.name == a_team
    assert summary.a_match_wins == wins
    assert summary.a_match_wins + summary.b_match_wins == summary.games == 4


def test_hands_mode_counts_every_bid_once() -> None:
    summary = run_arena(ArenaConfig("random", "random", pairs=30, seed=2, hands=True))
    a, b = summary.sides
    assert summary.hands == 60
    assert a.bids + b.bids == summary.played_hands <= summary.hands
    assert a.made <= a.bids and b.made <= b.bids
    assert a.match_wins == b.match_wins == 0
    assert a.decisions > 0 and b.decisions > 0


def test_each_side_is_timed_for_its_own_decisions_even_when_both_are_the_same_bot(
    tmp_path: Path,
) -> None:
    config = ArenaConfig("random", "random", pairs=3, seed=4, hands=True, out=str(tmp_path))
    summary = run_arena(config)
    a, b = summary.sides
    decisions = [0, 0]  # bot A's seats, bot B's
    for path in sorted(tmp_path.glob("*.baloot")):
        record = loads(path.read_text(encoding="utf-8"))
        a_seats = "NS" if path.stem.endswith("-1") else "WE"  # game 1: bot A plays NS
        for action in replay(record).hands[0].actions:
            decisions[action.seat.name not in a_seats] += 1
    assert (a.decisions, b.decisions) == tuple(decisions)
    sides = summary.to_json()["sides"]
    assert isinstance(sides, dict)
    assert sides["a"]["ms_per_decision"] == pytest.approx(1000 * a.seconds_per_decision)
    assert a.seconds_per_decision == pytest.approx(a.decision_seconds / a.decisions)


def test_two_jobs_give_the_same_verdict_as_one() -> None:
    config = ArenaConfig("random", "random", pairs=6, seed=9)
    one = run_arena(config, jobs=1).to_json()
    two = run_arena(config, jobs=2).to_json()
    for key in ("pairs", "hands", "match_win_rate", "points_per_hand"):
        assert one[key] == two[key]


def test_pair_seeds_are_reproducible() -> None:
    assert pair_seeds(3, 4) == pair_seeds(3, 4) != pair_seeds(4, 4)


def test_random_rules_differ_between_pairs() -> None:
    summary = run_arena(ArenaConfig("random", "random", pairs=3, seed=1, hands=True, rules=None))
    assert summary.to_json()["rules"] == "random"


def arena(*args: str, site: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``baloot arena`` in a process of its own; ``site`` is a folder of installed packages."""
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT / "src")])
    return subprocess.run(
        [sys.executable, "-m", "baloot", "arena", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        env=env,
    )


def test_the_arena_command_prints_a_verdict_and_json() -> None:
    result = arena("heuristic", "random", "--matches", "3", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "matches won" in result.stdout and "ms per decision" in result.stdout
    assert "hands per second" in result.stdout
    result = arena("random", "random", "--hands", "5", "--json", "--rules", "federation")
    data = json.loads(result.stdout)
    assert data["mode"] == "hands" and data["pairs"] == 5 and data["rules"] == "federation"
    assert set(data["sides"]) == {"a", "b"}


def test_the_arena_command_refuses_bad_input_clearly() -> None:
    result = arena("random", "nosuchbot")
    assert result.returncode == 2 and "unknown bot 'nosuchbot'" in result.stderr
    result = arena("random", "random", "--matches", "0")
    assert result.returncode == 2 and "at least 1" in result.stderr
    result = arena("random", "random", "--rule", "bogus=1")
    assert result.returncode == 2 and "bogus" in result.stderr
    assert "Traceback" not in result.stderr


class _Clocked:
    """Notes the clock of each decision and thinks until it expires, then plays the first
    legal action."""

    name = "clocked"
    seen: ClassVar[list[Clock]] = []

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        clock = current_clock()
        self.seen.append(clock)
        while not clock.expired():
            pass
        return legal[0]


def test_each_decision_gets_the_cpu_budget_and_the_verdict_shows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(base, "_builtin", lambda: {"clocked": _Clocked, "random": RandomBot})
    monkeypatch.setattr(_Clocked, "seen", [])
    summary = run_arena(ArenaConfig("clocked", "random", pairs=1, seed=1, hands=True, cpu_ms=5))
    assert _Clocked.seen and {clock.cpu for clock in _Clocked.seen} == {0.005}
    assert len({id(clock) for clock in _Clocked.seen}) == len(_Clocked.seen)  # one each
    data = summary.to_json()
    assert data["cpu_ms"] == 5 and data["sides"]["a"]["cpu_ms_per_decision"] >= 5
    result = arena("random", "random", "--hands", "2", "--cpu-ms", "50")
    assert result.returncode == 0, result.stderr
    assert "CPU ms per decision" in result.stdout and "50 CPU ms a decision" in result.stdout
    assert arena("random", "random", "--cpu-ms", "0").returncode == 2


class _Raising:
    """Raises at its first decision, or when its first hand is over (``when``)."""

    name = "raising"
    when: ClassVar[str] = "choose"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if self.when == "choose":
            raise RuntimeError("no idea what to play")
        return legal[0]

    def hand_over(self, view: SeatView) -> None:
        if self.when == "hand_over":
            raise RuntimeError("no idea what to play")


@pytest.mark.parametrize("when", ["choose", "hand_over"])
def test_a_bot_of_this_process_that_raises_loses_its_games_and_the_run_goes_on(
    monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """In this process: a worker of ``--jobs`` would not see the bots patched in here (the
    plugin bot below raises on two workers)."""
    monkeypatch.setattr(base, "_builtin", lambda: {"raising": _Raising, "random": RandomBot})
    monkeypatch.setattr(_Raising, "when", when)
    summary = run_arena(ArenaConfig("random", "raising", pairs=2, seed=1))
    assert summary.pairs == 2 and len(summary.failures) == 4
    assert {(f.side, f.kind, f.bot) for f in summary.failures} == {("b", "raised", "raising")}
    assert all(
        f.message == f"bot raising at {f.seat} failed (raised): RuntimeError: no idea what to play"
        for f in summary.failures
    )
    a, b = summary.sides
    assert (a.match_wins, b.match_wins, a.failures, b.failures) == (4, 0, 0, 4)


def test_a_bot_that_cannot_be_made_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def unmakeable(rng: random.Random) -> RandomBot:
        raise OSError("its tables are missing")

    monkeypatch.setattr(base, "_builtin", lambda: {"unmakeable": unmakeable, "random": RandomBot})
    with pytest.raises(base.UnknownBotError) as error:
        base.check_bot_name("unmakeable")
    assert str(error.value) == "bot 'unmakeable' cannot be made: OSError: its tables are missing"
    summary = run_arena(ArenaConfig("unmakeable", "random", pairs=1, seed=1, hands=True))
    assert [(f.side, f.kind) for f in summary.failures] == [("a", "raised")] * 2


#: An installed package of two bots: one whose module is missing, one that raises.
PLUGIN_MODULE = """\
class RaisingBot:
    name = "raising"

    def __init__(self, rng):
        self.rng = rng

    def choose(self, view, legal):
        raise RuntimeError("no idea what to play")
"""
PLUGIN_ENTRY_POINTS = """\
[pybaloot.bots]
broken = no_such_module_here:Bot
raising = raising_plugin:RaisingBot
"""
BROKEN_LINE = (
    "baloot: the installed bot 'broken' (no_such_module_here:Bot) cannot be loaded, so it is "
    "left out: ModuleNotFoundError: No module named 'no_such_module_here'\n"
)


def install_plugins(folder: Path) -> Path:
    """A folder of installed packages holding the two bots of :data:`PLUGIN_ENTRY_POINTS`."""
    site = folder / "site"
    info = site / "pybaloot_test_plugins-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: pybaloot-test-plugins\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(PLUGIN_ENTRY_POINTS, encoding="utf-8")
    (site / "raising_plugin.py").write_text(PLUGIN_MODULE, encoding="utf-8")
    return site


def test_the_arena_command_leaves_out_a_bot_that_cannot_be_loaded_in_one_line(
    tmp_path: Path,
) -> None:
    result = arena("random", "random", "--hands", "1", site=install_plugins(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stderr == BROKEN_LINE
    assert "duplicate pairs of hands" in result.stdout
    result = arena("broken", "random", site=install_plugins(tmp_path / "again"))
    assert result.returncode == 2
    assert result.stderr.startswith(BROKEN_LINE) and "unknown bot 'broken'" in result.stderr


def test_the_arena_command_counts_the_games_of_a_plugin_bot_that_raises_as_lost(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    site = install_plugins(tmp_path)
    result = arena(
        "raising", "random", "--matches", "1", "--jobs", "2", "--out", str(out), site=site
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == BROKEN_LINE and "Traceback" not in result.stdout
    assert "2 games lost by a bot's failure:" in result.stdout
    assert "failed (raised): RuntimeError: no idea what to play; at the hand's start" in (
        result.stdout
    )
    logs = sorted((out / "logs").iterdir())
    assert [log.name[: -len("-N.log")] for log in logs] == ["match-00001-1", "match-00001-2"]
    assert all(
        "Traceback" in text and "RuntimeError: no idea what to play" in text
        for text in (log.read_text(encoding="utf-8") for log in logs)
    )
