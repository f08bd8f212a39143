"""``baloot analyze``, end to end: the real command in a subprocess, as a user runs it."""

from __future__ import annotations

import json
import os
import pty
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import WAIT, catches, one_line_error, wait_for
from helpers import baloot as run
from spec_example import ACTIONS, record_text
from test_analysis import FAST, THROWN, THROWN_ACTIONS, THROWN_DECK

from baloot.analysis import SolverAndBot, analyze_record
from baloot.core.match import Match
from baloot.core.seats import Seat
from baloot.records.record import Record, loads
from baloot.records.writer import dumps

ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120"}
ARABIC = re.compile(r"[\u0600-\u06ff]")


def baloot(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run(*args, stdin=stdin, env=ENV)


@pytest.fixture
def thrown(tmp_path: Path) -> Path:
    path = tmp_path / "thrown.baloot"
    path.write_text(record_text(THROWN_ACTIONS, deck=THROWN_DECK), encoding="utf-8")
    return path


@pytest.fixture
def match(tmp_path: Path) -> Path:
    """A record of a match of two finished hands: the thrown one, then one of random play."""
    match = Match(dealer=Seat.E)
    match.deal(THROWN_DECK)
    for text in THROWN_ACTIONS:
        match.apply(text)
    rng = match.rng = random.Random(8)
    match.auto_deal = False
    match.deal()
    while not match.hand.is_over:
        match.apply(rng.choice(match.legal_actions()))
    path = tmp_path / "match.baloot"
    path.write_text(dumps(Record.of(match)), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the report


def test_the_report_marks_the_thrown_trick_a_blunder(thrown: Path) -> None:
    result = baloot("analyze", str(thrown), "--bot", "none")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    row = next(line for line in result.stdout.splitlines() if re.match(rf"\s*{THROWN}\b", line))
    assert "10♥ -6" in row and "A♠ +16" in row and "22" in row and "??" in row
    assert "Hand 1 · dealer E · played" in result.stdout
    assert "?? blunder (12 or more)" in result.stdout


def test_the_json_is_the_analysis_of_the_record_and_nothing_else(thrown: Path) -> None:
    result = baloot("analyze", str(thrown), "--bot", "none", "--json")
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 1 and result.stderr == ""
    data = json.loads(result.stdout)
    record = loads(thrown.read_text(encoding="utf-8"))
    assert data == analyze_record(record, SolverAndBot(None)).to_json()


def test_every_finished_hand_of_a_match_or_the_one_asked_for(match: Path) -> None:
    every = json.loads(baloot("analyze", str(match), "--bot", "none", "--json").stdout)
    assert [h["hand"] for h in every["hands"]] == [1, 2]
    assert set(every["summary"]) == {"N", "W", "S", "E"}
    second = json.loads(
        baloot("analyze", str(match), "--bot", "none", "--json", "--hand", "2").stdout
    )
    assert second["hands"] == [every["hands"][1]]


def test_the_bots_column_and_its_estimated_calls(tmp_path: Path) -> None:
    bidding = tmp_path / "bidding.baloot"  # the calls and the first lead: quick to judge
    bidding.write_text(record_text(THROWN_ACTIONS[:11], deck=THROWN_DECK), encoding="utf-8")
    options = ["--hand", "1", "--bot", FAST, "--seed", "3"]
    result = baloot("analyze", str(bidding), *options, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["bot"] == FAST and data["seed"] == 3
    decisions = data["hands"][0]["decisions"]
    calls = [d for d in decisions if not d["exact"]]
    assert calls and all(d["phase"] != "playing" for d in calls)
    assert all(d["expert"] is not None for d in decisions)
    text = baloot("analyze", str(bidding), *options).stdout
    assert f"{FAST} would" in text and "≈" in text
    rows = [line for line in text.splitlines() if re.match(r"\s*\d+ ", line)]
    assert len(rows) == len(decisions)


def test_a_players_name_is_shown_as_written_never_as_markup(tmp_path: Path) -> None:
    path = tmp_path / "named.baloot"
    extra = 'players = { N = "[link=http://x]Noura[/link]\\u001b[31m", S = "Saad" }\n'
    path.write_text(record_text(THROWN_ACTIONS, deck=THROWN_DECK, extra=extra), encoding="utf-8")
    result = baloot("analyze", str(path), "--bot", "none")
    assert result.returncode == 0, result.stderr
    assert "N · [link=http://x]Noura[/link]\\x1b[31m" in result.stdout
    assert "S · Saad" in result.stdout and "\x1b" not in result.stdout


def test_the_report_in_arabic(thrown: Path) -> None:
    result = baloot("analyze", str(thrown), "--bot", "none", "--lang", "ar")
    assert result.returncode == 0, result.stderr
    assert ARABIC.search(result.stdout) and "الجولة 1" in result.stdout
    # No engine notation among the Arabic: seats, calls and teams are worded.
    assert not re.search(r"\b(NS|EW|[NWSE]|pass|hokum|sun|play)\b", result.stdout), result.stdout


# --------------------------------------------------------------------------- one position


def test_one_position_lists_every_option_best_first(thrown: Path) -> None:
    result = baloot(
        "analyze", str(thrown), "--hand", "1", "--position", str(THROWN), "--bot", "none"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Hand 1, position {THROWN}: N to act (playing)"
    assert "N chose 10♥." in lines
    options = [line for line in lines if re.match(r"(A♠|10♥)", line)]
    assert len(options) == 3
    assert options[0].startswith("A♠") and "+16" in options[0] and "best" in options[0]
    played = next(line for line in options if "played" in line)
    assert "-6" in played and "22" in played and "??" in played


def test_one_position_as_json(thrown: Path) -> None:
    result = baloot("analyze", str(thrown), "--position", str(THROWN), "--bot", "none", "--json")
    assert result.returncode == 0, result.stderr  # one hand: --hand 1 is understood
    data = json.loads(result.stdout)
    assert set(data) == {"format", "bot", "seed", "thresholds", "hand", "decision"}
    decision = data["decision"]
    assert (decision["position"], decision["action"], decision["loss"]) == (THROWN, "N play Th", 22)
    assert {o["action"]: o["value"] for o in decision["options"]} == {
        "N play As": 16, "N play Th": -6, "N play Th ekka": -4,
    }  # fmt: skip


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--hand", "3"], "no hand 3: the record has 1 hand"),
        (["--hand", "1", "--position", "99"], "hand 1 has no action 99"),
        (["--position", "0"], "--position must be at least 1"),
        (["--bot", "nobody"], "unknown bot"),
        (["--bot", "heuristic"], "cannot estimate"),
        (["--position", "3", "--bot", "none"], "action 3 is a call"),
    ],
)
def test_a_bad_option_is_one_line_and_status_2(
    thrown: Path, extra: list[str], message: str
) -> None:
    assert message in one_line_error(baloot("analyze", str(thrown), *extra))


def test_position_without_hand_in_a_match_is_refused(match: Path) -> None:
    assert "--position needs --hand" in one_line_error(
        baloot("analyze", str(match), "--position", "3", "--bot", "none")
    )


def test_a_file_that_is_not_a_record_is_status_2(tmp_path: Path) -> None:
    assert "cannot read" in one_line_error(baloot("analyze", str(tmp_path / "missing")))
    bad = tmp_path / "bad.baloot"
    bad.write_text("format = 3", encoding="utf-8")
    assert "unknown format" in one_line_error(baloot("analyze", str(bad)))


def test_an_illegal_action_is_status_1_as_in_replay(tmp_path: Path) -> None:
    path = tmp_path / "illegal.baloot"
    path.write_text(record_text([*ACTIONS[:12], "S play Kh"]), encoding="utf-8")
    text = baloot("analyze", str(path), "--bot", "none")
    assert text.returncode == 1 and text.stdout.strip() == (
        'hand 1: action 13 "S play Kh": S does not hold Kh'
    )
    data = baloot("analyze", str(path), "--bot", "none", "--json")
    assert data.returncode == 1
    assert json.loads(data.stdout)["error"] == {
        "hand": 1, "action": 13, "text": "S play Kh", "reason": "S does not hold Kh",
    }  # fmt: skip


def test_the_help_says_how_positions_are_numbered() -> None:
    result = baloot("analyze", "--help")
    assert result.returncode == 0
    assert "K counts the hand's actions" in result.stdout and "--bot" in result.stdout


# --------------------------------------------------------------------------- a long run


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used so far (Linux: ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_the_analysis_at_once_without_a_traceback(
    match: Path, sig: int, status: int
) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "baloot", "analyze", str(match), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    # ready for the signal, and judging with the default bot (about a second a decision): it
    # has worked a second of CPU time, however busy the machine is
    assert wait_for(
        lambda: catches(process.pid, signal.SIGTERM) and cpu_seconds(process.pid) > 1
    ), "the analysis never got under way"
    assert process.poll() is None, "the analysis ended before the signal"
    process.send_signal(sig)
    out, err = process.communicate(timeout=WAIT)
    assert process.returncode == status, err
    assert out == b""
    assert err.decode().strip().splitlines() == ["baloot: interrupted"]


def test_on_a_terminal_the_progress_goes_to_stderr_and_the_json_stays_clean(
    thrown: Path,
) -> None:
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "baloot", "analyze", str(thrown), "--bot", "none", "--json"],
        stdout=subprocess.PIPE,
        stderr=follower,
        env={**ENV, "TERM": "xterm"},
    )
    os.close(follower)
    out, _ = process.communicate(timeout=120)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert process.returncode == 0
    assert json.loads(out)["format"] == "baloot-analysis/1"
    assert b"analysing" in seen


def test_a_bots_call_that_is_not_the_best_estimate_is_marked_and_explained() -> None:
    """The bot keeps the usual call unless another is surely better for the match: where its
    call is not the one of best estimate, the table marks it † and the note says why."""
    from rich.console import Console

    from baloot.analysis.marks import Unit
    from baloot.analysis.model import Decision, Option
    from baloot.cli.analysis_report import by_equity, decisions_table
    from baloot.core.actions import Action
    from baloot.core.vocabulary import Phase
    from baloot.words.strings import strings

    hokum, passing = Action.parse("S hokum"), Action.parse("S pass")
    options = (Option(hokum, None, 3.0), Option(passing, None, 1.5))
    kept = Decision(
        1,
        3,
        Seat.S,
        Phase.BIDDING_ROUND_1,
        passing,
        False,
        Unit.GAME_POINTS,
        options,
        expert=passing,
    )
    agreed = Decision(
        1, 4, Seat.S, Phase.BIDDING_ROUND_1, hokum, False, Unit.GAME_POINTS, options, expert=hokum
    )
    assert by_equity(kept) and not by_equity(agreed)
    for lang, why in (("en", "match equity"), ("ar", "بفرصة الفوز بالمباراة")):
        console = Console(width=120, record=True)
        console.print(decisions_table((kept, agreed), "expert", strings(lang)))
        table = console.export_text()
        assert table.count("†") == 1, table
        assert why in strings(lang)("analysis_equity_note", bot="expert")
