"""The terminal table as players asked for it: the last tricks, the running sheet, undo, hints,
Sawa, --auto, forced cards explained, resuming, saving safely, and every bad input answered in
one line (each bug found by trying it has its test here)."""

from __future__ import annotations

import argparse
import io
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest
from helpers import ROOT, WAIT
from rich.console import Console

from baloot import Action, Verb, loads, replay
from baloot.cli.game import Game, Options
from baloot.cli.play import add_arguments, parse_options
from baloot.table import WaitKind

ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z])")


def quick(args: tuple[str, ...]) -> tuple[str, ...]:
    """``args`` with heuristic bots unless they name the bots or resume a match.

    The default bots search for real and a whole match against them takes many seconds; these
    tests are about the table, which is the same whatever the bots are.
    """
    if "--bots" in args or "--resume" in args:
        return args
    return ("--bots", "heuristic", *args)


def options(*args: str) -> Options:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parse_options(parser.parse_args(["--delay", "0", *quick(args)]))


Reader = Callable[[Game], str | bytes]


def run_game(
    reader: Reader, *args: str, interactive: bool = False, seed: str = "7"
) -> tuple[Game, str, int]:
    """Play in process: ``reader`` answers every prompt, seeing the game."""
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False, no_color=True)
    game: Game

    def read() -> str | bytes:
        return reader(game)

    game = Game(
        options("--seed", seed, *args), console, read=read, echo=True, interactive=interactive
    )
    status = game.run()
    return game, out.getvalue(), status


def end_of_input() -> str:
    """What a reader gives when its answers run out: the end of input."""
    raise EOFError


def ones(game: Game) -> str:
    """Answer 1 to everything (Enter between hands) until the match is over."""
    if game.table.match.is_over:
        return end_of_input()
    return "" if game.table.waiting().kind is WaitKind.NEXT else "1"


def play(
    *args: str, stdin: str | bytes = b"", cwd: Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "baloot", "play", *quick(args)],
        input=data,
        capture_output=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
    )


# --------------------------------------------------------------------------- commands


def test_question_mark_lists_the_commands() -> None:
    answers = iter(["?"])
    _, out, _ = run_game(lambda g: next(answers, None) or ones(g), "--seed", "7")
    assert "Commands: l = the last tricks of this hand" in out
    assert "s = the score sheet of the match" in out and "u = take back" in out


def test_l_pages_back_through_the_tricks_of_the_hand() -> None:
    asked: list[int] = []

    def reader(game: Game) -> str:
        hand = game.table.hand
        if (
            hand.trick_number >= 2
            and len(asked) < 3
            and game.table.waiting().kind is WaitKind.HUMAN
        ):
            asked.append(hand.trick_number)
            return "l"
        return ones(game)

    _, out, _ = run_game(reader)
    pages = re.findall(r"Trick (\d) of this hand \(l again: the one before\):", out)
    done = asked[0]
    assert pages[:2] == [str(done), str(done - 1)], pages
    assert re.search(r"→ \w+ takes it \(\d+ card points\)", out)


def test_s_shows_the_running_sheet_lana_laham_hand_by_hand() -> None:
    shown: list[int] = []

    def reader(game: Game) -> str:
        if game.table.waiting().kind is WaitKind.NEXT and game.table.hand_number == 2 and not shown:
            shown.append(1)
            return "s"
        return ones(game)

    game, out, _ = run_game(reader)
    assert shown
    sheet = out.split("Score sheet of the match (first to 152)", 1)[1]
    assert "لنا" in sheet and "لهم" in sheet
    first, second = game.table.match.results[:2]
    assert first.score is not None and second.score is not None
    us = game.human.team
    rows = re.findall(r"│\s+(\d)\s+│[^│]*│\s+(\d+)\s+│\s+(\d+)\s+│", sheet)
    assert rows[0] == ("1", str(first.score[us]), str(first.score[us.other]))
    assert rows[1] == ("2", str(second.score[us]), str(second.score[us.other]))


def test_u_takes_back_the_last_decision_and_a_saved_record_holds_only_what_stood(
    tmp_path: Path,
) -> None:
    """At a card with a choice, play the first card, take it back with ``u``, then play the
    second: the saved record holds the second card, never the first."""
    path = tmp_path / "undo.baloot"
    tried: list[Action] = []
    stood: list[Action] = []
    hand_number: list[int] = []
    position: list[int] = []

    def reader(game: Game) -> str:
        table = game.table
        if table.match.is_over or table.waiting().kind is not WaitKind.HUMAN:
            return ones(game)
        view = table.view(game.human)
        plays = [a for a in view.legal if a.verb is Verb.PLAY and not a.ekka]
        if not tried and len(plays) >= 2 and view.trick_number >= 1:
            hand_number.append(table.hand_number)
            position.append(len(table.hand.actions))
            tried.append(plays[0])
            return str(plays[0]).split()[-1]
        if tried and not stood:
            if tried[0] in table.hand.actions:
                return "u"
            stood.append(plays[1])
            return str(plays[1]).split()[-1]
        return ones(game)

    _, out, status = run_game(reader, "--save", str(path))
    assert status == 0 and tried and stood
    assert tried[0].card is not None
    assert f"Taken back: S (you) plays {tried[0].card.pretty} — and the " in out
    record = loads(path.read_text(encoding="utf-8"))
    actions = record.hands[hand_number[0] - 1].actions
    assert actions[position[0]] == str(stood[0]) != str(tried[0])
    assert replay(record).winner is not None


def test_u_after_the_end_of_a_hand_takes_nothing_back_as_at_a_web_table() -> None:
    """Undo stays within the hand in play: at the prompt between hands, ``u`` is refused in
    one line and the hand that is over stays as it was played."""
    over: list[list[Action]] = []

    def reader(game: Game) -> str:
        table = game.table
        if not over and not table.match.is_over and table.waiting().kind is WaitKind.NEXT:
            over.append(list(table.hand.actions))
            return "u"
        return ones(game)

    game, out, status = run_game(reader)
    assert status == 0 and over
    assert "There is nothing of yours to take back in the hand in play." in out
    assert "Taken back:" not in out
    assert game.table.match.hands[0].actions == over[0]


def test_h_says_what_the_best_bot_would_do() -> None:
    answers = iter(["h"])
    _, out, _ = run_game(lambda g: next(answers, None) or ones(g))
    assert re.search(r"Hint: the best bot would choose S \(you\): \w+", out)
    assert re.search(r"  · \S", out.split("Hint:", 1)[1]), "the hint says why"


def test_a_forced_card_is_explained_before_it_is_played() -> None:
    _, out, _ = run_game(ones)
    reasons = re.findall(r"Only some cards are allowed: (you must [^.]+)\.", out)
    assert reasons, "no forced card met in a whole match"
    assert all(re.fullmatch(r"you must (follow . \w+|.*trump.*)", r) for r in reasons)


def test_auto_plays_a_forced_single_card() -> None:
    _, out, _ = run_game(ones, "--auto")
    assert "S (you) plays the only allowed card:" in out
    # With one card left no question is asked at all: no "Your card [1-1]" after --auto.
    assert "Your card [1-1]" not in out


def test_the_winner_of_trick_8_is_named() -> None:
    _, out, _ = run_game(ones)
    assert re.search(r"Trick 8: .* → \S+( \(you\))? takes it · last trick, \+10", out)


def test_sawa_is_offered_only_when_sure_and_claiming_plays_the_rest() -> None:
    claims: list[int] = []

    def reader(game: Game) -> str:
        table = game.table
        human_to_act = not table.match.is_over and table.waiting().kind is WaitKind.HUMAN
        if human_to_act and table.claim_holds(game.human):
            claims.append(table.hand.trick_number)
            return "c"
        return ones(game)

    _, out, status = run_game(reader, seed="1")
    assert status == 0
    assert claims, "a match of seed 1 meets a sure claim"
    assert "Your cards win every remaining trick: type c to claim the rest (Sawa)." in out
    assert "S (you) claims the rest (Sawa)" in out


def test_a_claim_that_does_not_hold_is_refused_in_one_line() -> None:
    answers = iter(["N pass", "c"])
    _, out, _ = run_game(lambda g: next(answers, None) or ones(g), seed="7")
    assert "Not sure yet: your cards are not sure to win every remaining trick." in out


# --------------------------------------------------------------------------- the bugs


def test_bug1_the_north_seat_is_named_in_its_question() -> None:
    done = play("--seed", "11", stdin="1\n")
    text = done.stdout.decode()
    assert "N called a second-round Hokum. Sun, or pass?" in text
    assert "? called" not in text


def test_bug2_a_question_never_offers_sun_when_only_pass_is_legal() -> None:
    done = play("--rules", "federation", "--seed", "12", stdin="1\n1\n\n")
    text = done.stdout.decode()
    assert "W called Hokum in ♣ clubs. Under these rules you may only pass." in text
    assert "You may still say Sun" not in text


def test_bug3_a_piped_game_never_asks_for_a_file_name(tmp_path: Path) -> None:
    done = play("--seed", "5", stdin="1\n" * 3000, cwd=tmp_path)
    assert done.returncode == 0
    assert b"File name" not in done.stdout
    assert not (tmp_path / "1").exists()


def test_bug4_save_to_a_folder_is_refused_before_the_match(tmp_path: Path) -> None:
    done = play("--seed", "5", "--save", str(tmp_path), stdin="1\n" * 3000)
    assert done.returncode == 2 and done.stdout == b""
    assert b"it is a folder" in done.stderr and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "answer", ["²".encode(), "①".encode(), b"9" * 5000, b"\xff\xfe", b"S play \x00"]
)
def test_bug9_strange_answers_get_one_line_and_the_same_question(answer: bytes) -> None:
    done = play("--seed", "5", stdin=answer + b"\n" + b"1\n" * 20)
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    assert done.returncode == 1  # the input ended before the match
    text = done.stdout.decode()
    first = text.split("Your call [1-", 1)[1]
    assert re.search(r"(not a choice|not UTF-8 text|too long)", first.split("\n", 2)[1])


@pytest.mark.parametrize("bad", ["\x00x", "~nosuchuser_at_all/x.baloot"])
def test_bug9_a_bad_file_name_at_the_save_prompt_is_one_line(tmp_path: Path, bad: str) -> None:
    good = tmp_path / "ok.baloot"
    answers = iter([bad, str(good)])

    def reader(game: Game) -> str:
        if game.table.match.is_over:
            return next(answers, None) or end_of_input()
        return ones(game)

    _, out, status = run_game(reader, interactive=True)
    assert status == 0
    assert re.search(r"cannot save to|NUL", out)
    assert good.exists() and replay(loads(good.read_text(encoding="utf-8"))).winner


@pytest.mark.parametrize("delay", ["inf", "nan", "-1", "11"])
def test_bug9_an_impossible_delay_is_refused(delay: str) -> None:
    done = play("--seed", "1", "--delay", delay)
    assert done.returncode == 2 and b"--delay takes 0 to 10 seconds" in done.stderr


def test_bug9_a_closed_output_ends_cleanly_and_keeps_the_match(tmp_path: Path) -> None:
    env = dict(os.environ, NO_COLOR="1", XDG_STATE_HOME=str(tmp_path / "state"))
    game = subprocess.Popen(
        [sys.executable, "-m", "baloot", "play", "--seed", "3", *quick(())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert game.stdin is not None and game.stdout is not None
    game.stdin.write(b"1\n" * 60)
    game.stdin.flush()
    game.stdout.read(20000)
    game.stdout.close()
    game.stdin.write(b"1\n" * 3000)
    game.stdin.close()
    game.wait(timeout=WAIT)
    stderr = game.stderr.read().decode() if game.stderr else ""
    assert "Traceback" not in stderr
    assert game.returncode == 1
    assert "the output was closed" in stderr
    saved = list((tmp_path / "state" / "pybaloot").glob("*.baloot"))
    assert len(saved) == 1 and replay(loads(saved[0].read_text(encoding="utf-8")))


def test_bug11_an_existing_save_file_needs_force_and_is_replaced_whole(tmp_path: Path) -> None:
    path = tmp_path / "match.baloot"
    path.write_text("keep me", encoding="utf-8")
    refused = play("--seed", "5", "--save", str(path), stdin="1\n" * 3000)
    assert refused.returncode == 2 and b"give --force" in refused.stderr
    assert path.read_text(encoding="utf-8") == "keep me"
    done = play("--seed", "5", "--save", str(path), "--force", stdin="1\n" * 3000)
    assert done.returncode == 0
    assert replay(loads(path.read_text(encoding="utf-8"))).winner is not None
    assert [p.name for p in tmp_path.iterdir()] == ["match.baloot"], "no temporary file left"


def test_bug11_a_failed_save_leaves_the_old_file_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "match.baloot"
    path.write_text("the old record", encoding="utf-8")

    def broken(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    _, out, status = run_game(ones, "--save", str(path), "--force")
    assert status == 1 and "Cannot save to" in out and "No space left on device" in out
    assert path.read_text(encoding="utf-8") == "the old record"
    assert [p.name for p in tmp_path.iterdir()] == ["match.baloot"]


# --------------------------------------------------------------------------- stopping, resuming


def spawn(*args: str, env_state: Path) -> pexpect.spawn[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"NO_COLOR", "COLUMNS", "LINES"}}
    env.update(TERM="xterm-256color", PYTHONIOENCODING="utf-8", XDG_STATE_HOME=str(env_state))
    child = pexpect.spawn(
        sys.executable,
        ["-m", "baloot", "play", "--delay", "0", *quick(args)],
        encoding="utf-8",
        dimensions=(50, 120),
        timeout=WAIT,
        env=env,
    )
    child.delaybeforesend = None
    return child


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_save_like_ctrl_c(tmp_path: Path, signum: int, status: int) -> None:
    path = tmp_path / "stopped.baloot"
    child = spawn("--seed", "4", "--save", str(path), env_state=tmp_path)
    for _ in range(6):
        child.expect(r"Your (call|declaration|card) \[1-\d+\]: ")
        child.sendline("1")
    child.expect(r"Your (call|declaration|card) \[1-\d+\]: ")
    child.kill(signum)
    child.expect("Stopped by a signal")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status
    assert "Traceback" not in ANSI.sub("", child.before or "")
    result = replay(loads(path.read_text(encoding="utf-8")))
    assert result.winner is None and sum(len(h.actions) for h in result.hands) >= 6


def test_ctrl_c_without_save_autosaves_and_names_the_file(tmp_path: Path) -> None:
    child = spawn("--seed", "4", env_state=tmp_path)
    child.expect(r"Your (call|declaration|card) \[1-\d+\]: ")
    child.sendline("1")
    child.expect(r"Your (call|declaration|card) \[1-\d+\]: ")
    child.sendintr()
    child.expect(r"baloot play --resume (\S+\.baloot)")
    found = child.match
    assert isinstance(found, re.Match)
    saved = Path(found.group(1))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert saved.parent == tmp_path / "pybaloot"
    assert replay(loads(saved.read_text(encoding="utf-8"))).winner is None


def test_resume_continues_an_interrupted_match_to_its_end(tmp_path: Path) -> None:
    path = tmp_path / "resume.baloot"
    first = play("--seed", "8", "--save", str(path), stdin="1\n" * 50)
    assert first.returncode == 1
    partial = loads(path.read_text(encoding="utf-8"))
    assert replay(partial).winner is None
    done = play("--resume", str(path), stdin="1\n" * 3000)
    assert done.returncode == 0, done.stderr.decode()
    assert b"Resumed" in done.stdout
    whole = loads(path.read_text(encoding="utf-8"))
    assert replay(whole).winner is not None
    assert whole.hands[0].deck == partial.hands[0].deck
    assert whole.hands[0].actions[: len(partial.hands[0].actions)] == partial.hands[0].actions
    uninterrupted = play(
        "--seed", "8", "--save", str(tmp_path / "whole.baloot"), stdin="1\n" * 3000
    )
    assert uninterrupted.returncode == 0
    straight = loads((tmp_path / "whole.baloot").read_text(encoding="utf-8"))
    assert [h.deck for h in whole.hands[:3]] == [h.deck for h in straight.hands[:3]]


def test_resume_refuses_a_finished_match_or_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "over.baloot"
    assert play("--seed", "5", "--save", str(path), stdin="1\n" * 3000).returncode == 0
    done = play("--resume", str(path))
    assert done.returncode == 2 and b"already over" in done.stderr
    bad = tmp_path / "bad.baloot"
    bad.write_text("not a record", encoding="utf-8")
    done = play("--resume", str(bad))
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1


def test_starting_does_not_reinstall(tmp_path: Path) -> None:
    def stamps() -> list[tuple[str, int]]:
        """The mark each install leaves, and when it was left."""
        return sorted((p.name, p.stat().st_mtime_ns) for p in (ROOT / ".venv").glob(".installed-*"))

    installed = stamps()
    if not installed:
        pytest.skip("the checkout is not installed by scripts/setup")
    subprocess.run([str(ROOT / "scripts" / "setup")], check=True, timeout=WAIT)
    assert stamps() == installed, "scripts/setup reinstalled an installed checkout"


def test_bug7_the_help_stays_on_the_table_when_bots_bid_first(tmp_path: Path) -> None:
    """Seed 0: E deals, so N and W call before South. The redraw for South's
    first question clears the opening lines; the table itself still says how to answer."""
    child = spawn("--seed", "0", env_state=tmp_path)
    child.expect(r"Your call \[1-\d+\]: ")
    screen = ANSI.sub("", (child.before or "").rsplit("\x1b[2J", 1)[-1])
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert "Calls  " in screen and "Pass" in screen.split("Calls", 1)[1].split("\n", 1)[0]
    flat = " ".join(line.strip(" │") for line in screen.splitlines())
    assert "Answer with the number of a choice" in flat and "? lists the commands" in flat


def test_a_typed_declaration_keeps_the_case_of_its_cards() -> None:
    from baloot.cli.questions import parse_card_answer
    from baloot.core.seats import Seat

    action = parse_card_answer(Seat.S, "declare sira:QhJhTh")
    assert action is not None and str(action) == "S declare sira:QhJhTh"
    assert parse_card_answer(Seat.S, "DECLARE Sira") is not None
