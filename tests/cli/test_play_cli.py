"""``baloot play`` as a user plays it: a whole match in a pseudo-terminal, piped scripts, Arabic,
saved records that replay, wrong entries answered in one line, and bad options."""

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

from baloot.cli.game import Game, Options
from baloot.cli.play import PlayUsageError, add_arguments, parse_bots, parse_options
from baloot.cli.questions import parse_card_answer
from baloot.core.actions import Verb
from baloot.core.cards import Card
from baloot.core.errors import IllegalActionError
from baloot.core.reasons import ReasonCode
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase
from baloot.records.record import loads
from baloot.records.replay import replay
from baloot.words.strings import AR, EN, check_tables, fields, strings

ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z])")
CARD = re.compile(r"(10|[AKQJ987])([♠♥♦♣])")
PROMPT = r"Your (call|declaration|card) \[1-(\d+)\]: "
WINNER = re.compile(r"Winner: (NS|EW) — ")


def plain(text: str) -> str:
    """Terminal output without escape sequences and carriage returns."""
    return ANSI.sub("", text).replace("\r", "")


def environment(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "TTY_COMPATIBLE"}
    }
    env.update(PYTHONIOENCODING="utf-8", TERM="xterm-256color", **extra)
    return env


def play(
    *args: str, stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "baloot", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=WAIT,
        env=environment() if env is None else env,
    )


def cards_in(text: str) -> list[Card]:
    return [Card.parse(rank + suit) for rank, suit in CARD.findall(text)]


# --------------------------------------------------------------------------- a whole match


def test_a_whole_match_in_a_terminal(tmp_path: Path) -> None:
    """Every prompt answered with option 1 (after a wrong entry and an illegal card), to the
    winner and the save prompt; the saved record replays to the winner the screen named."""
    path = tmp_path / "match.baloot"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "baloot", "play", "--seed", "3", "--delay", "0", "--bots", "heuristic"],
        encoding="utf-8",
        dimensions=(50, 120),
        timeout=WAIT,
        env=environment(),
    )
    child.delaybeforesend = None
    screen: list[str] = []
    wrong_entry = illegal_card = False
    colour = False
    try:
        while True:
            index = child.expect([PROMPT, r"Press Enter", r"File name[^:]*: ", pexpect.EOF])
            before = child.before if isinstance(child.before, str) else ""
            colour = colour or "\x1b[" in before
            screen.append(plain(before))
            if index == 0:
                prompt = child.after if isinstance(child.after, str) else ""
                screen.append(plain(prompt))
                found = child.match
                assert isinstance(found, re.Match)
                kind, count = found.group(1), int(found.group(2))
                if not wrong_entry:
                    hint = "a card like Td" if kind == "card" else "a word like pass"
                    expected = f"not a choice: type a number from 1 to {count} or {hint}"
                    assert_one_line_answer(child, "xyz", expected, prompt)
                    wrong_entry = True
                elif kind == "card" and not illegal_card:
                    illegal = illegal_cards(screen[-2])
                    if illegal:
                        assert_one_line_answer(child, illegal[0].text, r"^you must ", prompt)
                        illegal_card = True
                child.sendline("1")
            elif index == 1:
                child.sendline("")
            elif index == 2:
                child.sendline(str(path))
            else:
                break
    finally:
        child.close()
    assert child.exitstatus == 0
    text = "".join(screen)
    assert wrong_entry and illegal_card and colour
    winners = WINNER.findall(text)
    assert len(winners) == 1
    assert f"Match record saved to {path}" in text
    record = loads(path.read_text(encoding="utf-8"))
    result = replay(record)
    assert result.hands[-1].is_over and result.winner is not None
    assert result.winner.name == winners[0]
    assert record.metadata["players"] == {
        "N": "bot:heuristic",
        "W": "bot:heuristic",
        "S": "you",
        "E": "bot:heuristic",
    }
    totals = f"{result.totals[0]} to {result.totals[1]} (NS to EW)"
    assert totals in text


def illegal_cards(block: str) -> list[Card]:
    """The cards held but not offered, from the text printed before a card prompt."""
    held_line = block.rsplit("Your cards:", 1)[-1].split("\n", 1)[0]
    offered_line = block.rstrip("\n").rsplit("\n", 1)[-1]
    offered = set(cards_in(offered_line))
    return [card for card in cards_in(held_line) if card not in offered]


def assert_one_line_answer(
    child: pexpect.spawn[str], entry: str, message: str, prompt: str
) -> None:
    """Send a wrong ``entry``: exactly one line comes back, then the same question."""
    child.sendline(entry)
    child.expect_exact(prompt)
    before = child.before if isinstance(child.before, str) else ""
    lines = [line for line in plain(before).split("\n") if line.strip()]
    assert lines[0].strip() == entry
    assert len(lines) == 2, lines
    assert re.search(message, lines[1]), lines[1]


def ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize(
    "started",
    [None, ignore_ctrl_c],
    # Ignored: as a script's background job, or the child of a program that ignores it, is.
    ids=["as usual", "with Ctrl-C ignored"],
)
def test_ctrl_c_ends_the_game_cleanly(started: Callable[[], None] | None) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "baloot", "play", "--seed", "4", "--delay", "0"],
        encoding="utf-8",
        dimensions=(50, 120),
        timeout=WAIT,
        env=environment(),
        preexec_fn=started,
    )
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Interrupted: the game stops here")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in plain(child.before or "")


def interrupted(command: str, args: list[str], cwd: Path, state: Path) -> str:
    """What the game says after Ctrl-C at its second question, started as ``command``."""
    child = pexpect.spawn(
        command,
        [*args, "--seed", "4", "--delay", "0", "--bots", "heuristic"],
        encoding="utf-8",
        dimensions=(50, 200),
        timeout=WAIT,
        env=environment(XDG_STATE_HOME=str(state)),
        cwd=str(cwd),
    )
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Interrupted: the game stops here")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    return plain(child.before or "")


def test_ctrl_c_says_once_where_the_match_is_and_how_to_go_on(tmp_path: Path) -> None:
    said = interrupted(sys.executable, ["-m", "baloot", "play"], tmp_path, tmp_path)
    found = re.search(r"saved to (\S+\.baloot); continue it with: baloot play --resume (\S+)", said)
    assert found and found[1] == found[2], said
    assert said.count(found[1]) == 2 and said.count("saved to") == 1, said
    assert Path(found[1]).parent == tmp_path / "pybaloot"


def test_ctrl_c_of_a_game_started_by_scripts_play_names_scripts_play(tmp_path: Path) -> None:
    """``scripts/play`` as it is, in a clone whose setup is done and whose ``baloot`` is this
    one: the way to go on is the command the person typed."""
    clone = tmp_path / "clone"
    (clone / "scripts").mkdir(parents=True)
    (clone / ".venv" / "bin").mkdir(parents=True)
    script = clone / "scripts" / "play"
    script.write_text((ROOT / "scripts" / "play").read_text())
    setup = clone / "scripts" / "setup"
    setup.write_text("#!/bin/sh\nexit 0\n")
    baloot = clone / ".venv" / "bin" / "baloot"
    baloot.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m baloot "$@"\n')
    for program in (script, setup, baloot):
        program.chmod(0o755)
    said = interrupted("./scripts/play", [], clone, tmp_path)
    found = re.search(r"continue it with: (.*) --resume (\S+\.baloot)", said)
    assert found and found[1] == "./scripts/play", said
    assert "baloot play" not in said and said.count("saved to") == 1, said


def test_no_color_in_a_terminal() -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "baloot", "play", "--seed", "4", "--no-color"],
        encoding="utf-8",
        dimensions=(50, 120),
        timeout=WAIT,
        env=environment(),
    )
    child.expect(PROMPT)
    before = child.before if isinstance(child.before, str) else ""
    child.sendeof()
    child.expect("End of input")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "\x1b[2J" in before  # still a terminal: the table is cleared and redrawn
    parameters = ";".join(re.findall(r"\x1b\[([0-9;]*)m", before)).split(";")
    colours = [p for p in parameters if p[:1] in ("3", "4", "9") and len(p) == 2]
    assert "Your cards:" in plain(before) and not colours


# --------------------------------------------------------------------------- piped


def test_a_piped_match_is_plain_text_and_saves_its_record(tmp_path: Path) -> None:
    path = tmp_path / "piped.baloot"
    done = play(
        "--seed",
        "5",
        "--save",
        str(path),
        "--bots",
        "random",
        "--rules",
        "federation",
        "--rule",
        "must_undertrump=true",
        "--name",
        "Saad",
        stdin="1\n" * 3000,
        env=environment(NO_COLOR="1"),
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "\x1b" not in done.stdout
    assert "Your call [1-" in done.stdout and "Your card [1-" in done.stdout
    assert "Score sheet · hand 1" in done.stdout
    winner = WINNER.findall(done.stdout)
    record = loads(path.read_text(encoding="utf-8"))
    result = replay(record)
    assert result.winner is not None and [result.winner.name] == winner
    assert record.rules == Rules.federation().replace(must_undertrump=True)
    assert record.metadata["players"] == {
        "N": "bot:random",
        "W": "bot:random",
        "S": "Saad",
        "E": "bot:random",
    }
    assert "File name" not in done.stdout  # --save already saved it


def test_the_same_seed_plays_the_same_match() -> None:
    # Twenty decisions: past the first hand, so that the next deal is the seed's too. The bots
    # are random ones, which draw from the seed at every decision (that the searching bots
    # decide alike from the same seed is test_expert_bot's).
    first = play("--seed", "11", "--bots", "random", stdin="1\n" * 20)
    second = play("--seed", "11", "--bots", "random", stdin="1\n" * 20)
    assert "Baloot · hand 2" in first.stdout
    # Everything up to the autosave line, whose file name holds the time.
    kept = "The match so far is saved to"
    assert kept in first.stdout and first.stdout.split(kept)[0] == second.stdout.split(kept)[0]
    assert "baloot play --resume" in first.stdout
    assert first.returncode == 1  # the input ended before the match


def test_end_of_input_ends_cleanly_and_keeps_the_match_so_far(tmp_path: Path) -> None:
    path = tmp_path / "partial.baloot"
    # Six answers take the bidding through; the input ends at the first lead of the play.
    done = play("--seed", "2", "--save", str(path), stdin="1\n" * 6)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "End of input: the game stops here" in done.stdout
    record = loads(path.read_text(encoding="utf-8"))
    assert replay(record).winner is None
    # Nobody named the bots: the three are the documented default level.
    assert record.metadata["players"] == {
        "N": "bot:medium",
        "W": "bot:medium",
        "S": "you",
        "E": "bot:medium",
    }


def test_arabic(tmp_path: Path) -> None:
    done = play(
        "--seed", "3", "--lang", "ar", "--seat", "N", "--bots", "heuristic", stdin="1\n" * 60
    )
    assert done.returncode == 1
    out = done.stdout
    for word in ("قرارك", "الشراء، الدور الأول", "الورقة المكشوفة", "المباراة", "انتهى الإدخال"):
        assert word in out, word
    assert "Your call" not in out and "Bidding" not in out
    assert any(name in out for name in ("شريه", "هاص", "ديمن", "سبيت"))
    assert "ورقة الحساب" in out  # a score sheet, after 60 answers


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rule", "no_such_flag=true"], "unknown rule flag 'no_such_flag'"),
        (["--rule", "must_undertrump=maybe"], "must_undertrump takes true or false"),
        (["--rule", "must_undertrump"], "FLAG=VALUE"),
        (["--bots", "W=nosuch"], "unknown bot 'nosuch' (available: "),
        (["--bots", "clever"], "unknown bot 'clever'"),
        (["--bots", "S=random"], "S is your seat"),
        (["--save", "/no/such/folder/x.baloot"], "cannot save to"),
    ],
)
def test_bad_options_give_a_clear_error_and_exit_2(args: list[str], message: str) -> None:
    done = play("--seed", "1", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("baloot play: ")
    assert message in lines[0]


# --------------------------------------------------------------------------- in process


def options(**changes: object) -> Options:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--seed", "7", "--delay", "0"])
    for key, value in changes.items():
        setattr(args, key, value)
    return parse_options(args)


def test_an_illegal_card_gets_the_engines_reason_and_the_same_question() -> None:
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False, no_color=True)
    answers: list[str] = []
    game: Game

    def read() -> str:
        hand = game.match.hand
        if game.match.is_over:
            return ""
        legal = hand.legal_actions()
        if hand.phase is Phase.PLAYING and not answers:
            held = set(hand.hand(game.human))
            playable = {a.card for a in legal if a.verb is Verb.PLAY}
            wrong = sorted(held - playable, key=lambda c: c.index)
            if wrong:
                answers.append(wrong[0].pretty)
                return wrong[0].pretty
        return "1"

    game = Game(options(bots="heuristic"), console, read=read, echo=True)
    assert game.run() == 0
    text = out.getvalue()
    assert answers, "the human never held a card that the rules forbade"
    after = text.split(f": {answers[0]}\n", 1)[1].split("\n")
    assert re.fullmatch(r"you must (follow . \w+|.*trump.*)", after[0]), after[0]
    assert re.fullmatch(r"Your card \[1-\d+\]: 1", after[1]), after[1]


def test_typed_cards_and_words() -> None:
    ten = Card.parse("Td")
    for typed in ("Td", "10d", "T♦", "td", "10D", "10♦", "play Td"):
        action = parse_card_answer(Seat.S, typed)
        assert action is not None and action.card is ten and not action.ekka
    ekka = parse_card_answer(Seat.S, "Td ekka")
    assert ekka is not None and ekka.ekka
    declare = parse_card_answer(Seat.S, "declare sira")
    assert declare is not None and declare.verb is Verb.DECLARE
    for nonsense in ("", "xyz", "Td now", "1d"):
        assert parse_card_answer(Seat.S, nonsense) is None


def test_bots_by_seat_and_the_default_level_at_the_seats_left_out() -> None:
    assert parse_bots("random", Seat.S) == {Seat.N: "random", Seat.W: "random", Seat.E: "random"}
    assert parse_bots("w=random", Seat.N) == {
        Seat.W: "random",
        Seat.S: "medium",
        Seat.E: "medium",
    }
    with pytest.raises(PlayUsageError):
        parse_bots("W:random", Seat.S)


def test_both_languages_have_every_string() -> None:
    check_tables()
    assert EN.keys() == AR.keys()
    assert all(fields(AR[k]) == fields(EN[k]) for k in EN)
    ar = strings("ar")
    held = IllegalActionError.of(ReasonCode.NOT_HELD, "S play Kh", seat="S", card="Kh")
    assert ar.reason(held) == "جنوب: لا يملك K♥"
    assert ar.reason(held, Seat.S) == "لا تملك K♥"
    assert strings("en").reason(held) == "S does not hold K♥"
    assert ar.reason(IllegalActionError("something new")) == "something new"
