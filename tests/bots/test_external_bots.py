"""External bots (``baloot-bot/1``): the messages they get, and every way of failing (an
illegal answer, a wrong id, a malformed line, silence, slowness, a crash, no ``ready``) is a
lost game with a clear report while the arena goes on; no process outlives its match."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, WAIT, wait_for

from baloot import Action, Hand, Match, Seat
from baloot.bots import BotError, RandomBot, play_hand, play_match
from baloot.bots.arena import ArenaConfig, run_arena
from baloot.bots.clock import Clock, deciding
from baloot.bots.external import (
    GRACE_SECONDS,
    READY_SECONDS,
    BotFailure,
    ExternalBot,
    FailureKind,
    close_all,
)
from baloot.bots.guarded import GuardedBot
from baloot.bots.names import Program, parse_bot_name
from baloot.table.players import Bot
from baloot.view.seat_view import SeatView

SAMPLE = str(ROOT / "examples" / "sample_bot.py")

#: A bot that plays the first legal action, except as ``BEHAVIOUR`` says; it echoes every
#: message it gets to its standard error (its log), and its pid to ``PIDS`` when given (and
#: those of the processes it starts).
TEMPLATE = """\
import json, os, sys, time
BEHAVIOUR = {behaviour!r}
PIDS = {pids!r}
if PIDS:
    with open(PIDS, "a") as file:
        file.write(f"{{os.getpid()}}\\n")
if BEHAVIOUR == "no_ready":
    time.sleep(30)
if BEHAVIOUR == "setsid_child":  # a child in a session of its own, before ready
    started, told = os.pipe()
    if os.fork() == 0:
        os.setsid()
        with open(PIDS, "a") as file:
            file.write(f"{{os.getpid()}}\\n")
        os.write(told, b"x")
        time.sleep(60)
        os._exit(0)
    os.read(started, 1)
if BEHAVIOUR == "orphan":
    import subprocess
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    with open(PIDS, "a") as file:
        file.write(f"{{child.pid}}\\n")
for line in sys.stdin:
    message = json.loads(line)
    print(line.strip(), file=sys.stderr, flush=True)
    if message["type"] == "hello":
        print(json.dumps({{"type": "ready", "name": "test", "author": "tests"}}), flush=True)
    elif message["type"] == "act":
        legal = message["view"]["legal"]
        answer = {{"type": "action", "id": message["id"], "action": legal[0]}}
        if BEHAVIOUR == "illegal":
            answer["action"] = next(a for a in ("N pass", "E pass", "S pass") if a not in legal)
        elif BEHAVIOUR == "wrong_id":
            answer["id"] += 1
        elif BEHAVIOUR == "malformed":
            print("this is no JSON", flush=True)
            continue
        elif BEHAVIOUR == "crash":
            sys.exit(3)
        elif BEHAVIOUR in ("slow", "orphan"):
            time.sleep(30)
        elif BEHAVIOUR == "silent":
            continue
        print(json.dumps(answer), flush=True)
    elif message["type"] == "bye" and BEHAVIOUR != "stubborn":
        break
if BEHAVIOUR == "stubborn":
    time.sleep(30)
    print("ended by itself", file=sys.stderr, flush=True)
"""


def write_bot(folder: Path, behaviour: str, pids: Path | None = None) -> str:
    path = folder / f"{behaviour}_bot.py"
    path.write_text(
        TEMPLATE.format(behaviour=behaviour, pids=None if pids is None else str(pids)),
        encoding="utf-8",
    )
    return str(path)


def external(
    path: str,
    log: list[bytes] | None = None,
    ready_seconds: float = READY_SECONDS,
    grace: float = GRACE_SECONDS,
) -> ExternalBot:
    program = parse_bot_name(path)
    assert isinstance(program, Program)
    sink = None if log is None else log.append
    return ExternalBot(program, log=sink, ready_seconds=ready_seconds, grace=grace)


def messages(log: list[bytes]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log]


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped has ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def assert_ended(pids: Path) -> None:
    """Every process named in the file ``pids`` ends (within the tests' ceiling)."""
    started = list(map(int, pids.read_text().split()))
    assert started
    assert wait_for(lambda: not any(map(alive, started))), list(filter(alive, started))


def test_the_sample_bot_plays_a_hand_through_the_protocol(tmp_path: Path) -> None:
    log: list[bytes] = []
    seen = external(write_bot(tmp_path, "first"), log)
    bots: dict[Seat, Bot] = {seat: RandomBot(random.Random(int(seat))) for seat in Seat}
    bots[Seat.S] = seen
    bots[Seat.N] = external(SAMPLE)
    play_hand(Hand.new(rng=random.Random(5)), bots)
    close_all(bots.values())
    assert not seen.running
    said = messages(log)
    assert said[0] == {"type": "hello", "protocol": "baloot-bot/1", "seat": "S", "rules": "classic"}
    acts = [m for m in said if m["type"] == "act"]
    assert [m["id"] for m in acts] == list(range(1, len(acts) + 1))
    assert all(m["clock_ms"] == 1000 for m in acts)
    assert all(m["view"]["seat"] == "S" and m["view"]["legal"] for m in acts)
    # ``choices`` are the table protocol's: a bot's view is the plain ``baloot-view/1``.
    assert not any("choices" in m["view"] for m in said if "view" in m)
    assert [m["type"] for m in said[-2:]] == ["over", "bye"]
    over = said[-2]["view"]
    assert isinstance(over, dict) and over["phase"] == "over" and over["result"] is not None
    assert seen.introduced == {"name": "test", "author": "tests"}


def test_each_hand_of_a_match_ends_with_over_and_the_clock_is_the_callers(
    tmp_path: Path,
) -> None:
    log: list[bytes] = []
    bots: dict[Seat, Bot] = {seat: RandomBot(random.Random(int(seat))) for seat in Seat}
    bots[Seat.E] = external(write_bot(tmp_path, "first"), log)
    with deciding(Clock(cpu=0.25)):
        bots[Seat.E].choose(*_first_decision(Seat.E))
    match = play_match(Match.new(rng=random.Random(2)), bots)
    close_all(bots.values())
    said = messages(log)
    assert next(m for m in said if m["type"] == "act")["clock_ms"] == 250
    assert sum(m["type"] == "over" for m in said) == len(match.hands)
    assert said[-1] == {"type": "bye"}


def _first_decision(seat: Seat) -> tuple[SeatView, tuple[Action, ...]]:
    hand = Hand.new(rng=random.Random(9))
    while hand.to_act != seat:
        hand.apply(hand.legal_actions()[0])
    return SeatView.of(hand, seat), hand.legal_actions()


@pytest.mark.parametrize(
    ("behaviour", "kind", "says"),
    [
        ("illegal", FailureKind.ILLEGAL, "is not a legal action"),
        ("wrong_id", FailureKind.WRONG_ID, "answered id 2 to act 1"),
        ("malformed", FailureKind.MALFORMED, "not a JSON object; it said 'this is no JSON'"),
        ("crash", FailureKind.CRASHED, "exited with status 3"),
        ("silent", FailureKind.TIMEOUT, "no answer within 50 ms + 1 s grace"),
    ],
)
def test_a_bot_that_breaks_the_protocol_fails_with_what_it_said_and_the_views_actions(
    tmp_path: Path, behaviour: str, kind: FailureKind, says: str
) -> None:
    bot = external(write_bot(tmp_path, behaviour))
    view, legal = _first_decision(Seat.W)
    with deciding(Clock(cpu=0.05)), pytest.raises(BotFailure) as caught:
        bot.choose(view, legal)
    failure = caught.value
    assert failure.kind is kind and says in str(failure)
    assert str(failure).startswith(f"bot {bot.name} at W failed ({kind.value}): ")
    assert failure.actions == tuple(view.to_json()["actions"]) and failure.legal
    assert isinstance(failure, BotError) and not bot.running


def test_a_bot_that_never_says_ready_fails_after_its_wait(tmp_path: Path) -> None:
    bot = external(write_bot(tmp_path, "no_ready"), ready_seconds=0.3)
    with pytest.raises(BotFailure, match=r"not_ready.*no answer within 0.3 s to answer hello"):
        bot.choose(*_first_decision(Seat.N))


def test_a_bot_that_ignores_bye_is_ended_two_seconds_later_with_its_children(
    tmp_path: Path,
) -> None:
    pids = tmp_path / "pids"
    log: list[bytes] = []
    stubborn = external(write_bot(tmp_path, "stubborn", pids), log)
    stubborn.choose(*_first_decision(Seat.N))
    started = time.monotonic()
    close_all([stubborn])
    assert time.monotonic() - started > 1.5  # it had its time to go
    assert b"ended by itself\n" not in log  # it was ended, before its own end
    orphan = external(write_bot(tmp_path, "orphan", pids), grace=0.2)
    with deciding(Clock(cpu=0.01)), pytest.raises(BotFailure, match="timeout"):
        orphan.choose(*_first_decision(Seat.N))
    assert_ended(pids)


@pytest.mark.parametrize("ending", ["close", "kill", "close_all"])
def test_a_child_a_program_started_in_a_session_of_its_own_ends_with_it(
    tmp_path: Path, ending: str
) -> None:
    pids = tmp_path / "pids"
    bot = external(write_bot(tmp_path, "setsid_child", pids))
    bot.choose(*_first_decision(Seat.N))
    assert len(pids.read_text().split()) == 2  # the program and its child
    if ending == "close_all":
        close_all([bot])
    else:
        getattr(bot, ending)()
    assert not bot.running
    assert_ended(pids)


@pytest.mark.parametrize("jobs", [1, 2])
def test_no_process_a_program_started_outlives_an_arena_run(tmp_path: Path, jobs: int) -> None:
    pids = tmp_path / "pids"
    program = write_bot(tmp_path, "setsid_child", pids)
    summary = run_arena(ArenaConfig(program, "random", pairs=2, seed=1, hands=True), jobs=jobs)
    assert summary.pairs == 2 and summary.failures == []
    assert len(pids.read_text().split()) == 16  # 2 seats of 4 games: a program and its child
    assert_ended(pids)


def test_a_failing_program_at_a_table_is_stood_in_for_and_started_again(
    tmp_path: Path,
) -> None:
    reports: list[BotFailure] = []
    guarded = GuardedBot(
        external(write_bot(tmp_path, "crash")), RandomBot(random.Random(1)), reports.append
    )
    view, legal = _first_decision(Seat.S)
    for _ in range(4):
        assert guarded.choose(view, legal) in legal
    # Failures 1 and 2 tried the program; after the second it rests one decision.
    assert [r.kind for r in reports] == [FailureKind.CRASHED] * 3
    guarded.close()


@pytest.mark.parametrize(
    ("behaviour", "kind"),
    [
        ("illegal", "illegal"),
        ("crash", "crashed"),
        ("wrong_id", "wrong_id"),
        ("malformed", "malformed"),
    ],
)
def test_the_arena_counts_a_failing_bots_games_as_lost_and_goes_on(
    tmp_path: Path, behaviour: str, kind: str
) -> None:
    bad = write_bot(tmp_path, behaviour)
    summary = run_arena(ArenaConfig("random", bad, pairs=2, seed=3, hands=behaviour == "crash"))
    assert summary.pairs == 2 and len(summary.failures) == 4
    assert {f.kind for f in summary.failures} == {kind} and {f.side for f in summary.failures} == {
        "b"
    }
    a, b = summary.sides
    assert b.failures == 4 and a.failures == 0
    if behaviour != "crash":  # matches: each failed game is a match won by A
        assert a.match_wins == 4 and b.match_wins == 0
    data = summary.to_json()
    assert data["sides"]["b"]["failures"] == 4
    failure = data["failures"][0]
    assert failure["bot"] == bad and failure["kind"] == kind and failure["pair"] == 1
    assert isinstance(failure["actions"], list)


def test_a_slow_bot_loses_under_the_cpu_budget_and_the_other_bot_is_unharmed(
    tmp_path: Path,
) -> None:
    slow = write_bot(tmp_path, "slow")
    summary = run_arena(ArenaConfig(SAMPLE, slow, pairs=1, seed=1, hands=True, cpu_ms=20))
    assert [f.kind for f in summary.failures] == ["timeout", "timeout"]
    assert all("no answer within 20 ms + 1 s grace" in f.message for f in summary.failures)


def arena(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "baloot", "arena", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "200"},
    )


def test_the_arena_command_plays_the_sample_bot_against_heuristic() -> None:
    result = arena("./examples/sample_bot.py", "heuristic", "--matches", "2", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["pairs"] == 2 and data["failures"] == []
    assert data["sides"]["a"]["bot"] == "./examples/sample_bot.py"
    result = arena("cmd:python3 examples/sample_bot.py --seed 4", "random", "--hands", "2")
    assert result.returncode == 0, result.stderr
    assert "duplicate pairs of hands" in result.stdout


def test_a_failing_program_s_last_words_are_in_its_log_once_it_is_ended(tmp_path: Path) -> None:
    said: list[bytes] = []

    def slow_log(line: bytes) -> None:  # a loaded machine: the log lags behind the answers
        time.sleep(0.2)
        said.append(line)

    program = parse_bot_name(write_bot(tmp_path, "illegal"))
    assert isinstance(program, Program)
    bad = ExternalBot(program, log=slow_log)
    bots: dict[Seat, Bot] = {seat: RandomBot(random.Random(int(seat))) for seat in Seat}
    bots[Seat.E] = bad
    with pytest.raises(BotError):
        play_hand(Hand.new(rng=random.Random(2)), bots)
    assert not bad.running
    assert [json.loads(line)["type"] for line in said] == ["hello", "act"]


def test_the_arena_command_reports_failures_under_its_verdict(tmp_path: Path) -> None:
    bad = write_bot(tmp_path, "illegal")
    result = arena("random", bad, "--hands", "2", "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "games lost by failing" in result.stdout
    assert "4 games lost by a bot's failure:" in result.stdout
    assert f"  pair 1 game 1: bot {bad} at " in result.stdout
    assert "(illegal): 'E pass' is not a legal action; it said" in result.stdout
    logs = sorted(p.name for p in (tmp_path / "out" / "logs").iterdir())
    assert logs and all(name.startswith("hand-0000") for name in logs)


def test_the_arena_command_refuses_a_missing_program_in_one_line(tmp_path: Path) -> None:
    result = arena(str(tmp_path / "nobot"), "random")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "no such file" in result.stderr


def test_ctrl_c_ends_the_arena_and_every_bot_process(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    slow = write_bot(tmp_path, "slow", pids)
    process = subprocess.Popen(
        [sys.executable, "-m", "baloot", "arena", slow, "random", "--matches", "3"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert wait_for(lambda: pids.exists() and bool(pids.read_text().strip())), "no bot started"
    time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=WAIT)
    assert process.returncode == 130 and "interrupted" in err and "Traceback" not in err
    assert_ended(pids)


def test_the_docs_show_the_sample_bot_as_it_is_and_it_imports_nothing_of_baloot() -> None:
    docs = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    shown = docs.split("```python\n", 1)[1].split("```", 1)[0]
    sample = Path(SAMPLE).read_text(encoding="utf-8")
    assert shown == sample
    assert "baloot" not in "".join(line for line in sample.splitlines() if "import" in line)
    assert os.access(SAMPLE, os.X_OK)
