"""Bot names: one grammar (``NAME[:OPTIONS]``, ``cmd:COMMAND``, a path), the registry that
makes bots from them with their options, and one clear line for a name that names nothing."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import ROOT
from hypothesis import given
from hypothesis import strategies as st

import baloot.bots.base as base
from baloot import Action, Seat
from baloot.bots import HeuristicBot, RandomBot, make_bot
from baloot.bots.base import available_bots, check_bot_name, registered, takes_options
from baloot.bots.external import ExternalBot
from baloot.bots.names import BotOptions, Program, Registered, UnknownBotError, parse_bot_name
from baloot.cli.play import PlayUsageError, parse_bots
from baloot.view.seat_view import SeatView

SAMPLE = str(ROOT / "examples" / "sample_bot.py")


class _Tuned:
    """A bot that takes options, as a built-in factory ``(rng, options)``."""

    name = "tuned"

    def __init__(self, rng: random.Random, options: BotOptions) -> None:
        options.check("samples", "hard")
        self.samples = options.integer("samples", 10)
        self.hard = "hard" in options

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return legal[0]


def test_a_registered_name_may_carry_words_and_key_values() -> None:
    spec = parse_bot_name("expert:samples=20,hard")
    assert spec == Registered("expert", BotOptions([("samples", "20"), ("hard", "")]))
    assert isinstance(spec, Registered)
    assert spec.options["samples"] == "20" and spec.options.words == ("hard",)
    assert str(spec) == "expert:samples=20,hard"
    assert parse_bot_name("heuristic") == Registered("heuristic", BotOptions())


def test_a_command_is_split_as_a_shell_splits_words_and_a_path_is_a_program() -> None:
    spec = parse_bot_name("cmd:python3 'my bot.py' --level 2")
    assert spec == Program(
        ("python3", "my bot.py", "--level", "2"), "cmd:python3 'my bot.py' --level 2"
    )
    assert parse_bot_name("./mybot") == Program(("./mybot",), "./mybot")
    # A Python file is run by the Python that runs pybaloot: no executable bit needed.
    assert parse_bot_name("bots/a.py") == Program((sys.executable, "bots/a.py"), "bots/a.py")


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("expert:", "options after ':' are words or key=value"),
        ("expert:a=1=2", "options after ':' are words or key=value"),
        ("expert:a,a", "option 'a' is given twice"),
        ("cmd:", "cmd: needs a command"),
        ("cmd:python3 'unclosed", "No closing quotation"),
        ("", "a bot is NAME[:OPTIONS], cmd:COMMAND, or a path"),
        ("my bot", "a bot is NAME[:OPTIONS], cmd:COMMAND, or a path"),
    ],
)
def test_text_that_is_no_bot_name_is_one_clear_line(name: str, says: str) -> None:
    with pytest.raises(UnknownBotError, match=re.escape(says)) as error:
        parse_bot_name(name)
    assert "\n" not in str(error.value)


@given(
    st.lists(
        st.tuples(
            st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True),
            st.one_of(st.just(""), st.from_regex(r"[A-Za-z0-9.]{1,5}", fullmatch=True)),
        ),
        max_size=4,
        unique_by=lambda item: item[0],
    )
)
def test_options_read_back_as_they_were_written(items: list[tuple[str, str]]) -> None:
    options = BotOptions(items, "x")
    text = f"x:{options}" if items else "x"
    assert parse_bot_name(text) == Registered("x", options)


def test_an_unknown_bot_names_the_known_ones_and_the_other_forms() -> None:
    with pytest.raises(UnknownBotError) as error:
        make_bot("nosuchbot", random.Random(1))
    message = str(error.value)
    assert (
        "unknown bot 'nosuchbot'" in message
        and "heuristic, ismcts, medium, neural, random" in message
    )
    assert "cmd:COMMAND" in message


def test_a_bot_that_takes_no_options_refuses_one_and_says_so() -> None:
    with pytest.raises(
        UnknownBotError, match=r"bot 'random' has no option 'x' \(it takes no options\)"
    ):
        make_bot("random:x", random.Random(1))


def test_a_factory_with_options_gets_them_and_refuses_unknown_ones_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        base, "_builtin", lambda: {"tuned": _Tuned, "random": RandomBot, "heuristic": HeuristicBot}
    )
    bot = make_bot("tuned:samples=20,hard", random.Random(1))
    assert isinstance(bot, _Tuned) and bot.samples == 20 and bot.hard
    assert make_bot("tuned", random.Random(1)).samples == 10  # type: ignore[attr-defined]
    with pytest.raises(UnknownBotError, match=r"no option 'deep' \(options: samples, hard\)"):
        make_bot("tuned:deep", random.Random(1))
    with pytest.raises(UnknownBotError, match="samples takes a whole number from 1 to"):
        make_bot("tuned:samples=many", random.Random(1))


def test_which_factories_take_options() -> None:
    assert not takes_options(RandomBot) and not takes_options(HeuristicBot)
    assert takes_options(_Tuned)

    def keyword(rng: random.Random, *, options: BotOptions) -> RandomBot:
        return RandomBot(rng)

    assert takes_options(keyword)


def test_operator_bots_are_registered_only_while_inside() -> None:
    with registered({"house": lambda rng: RandomBot(rng)}):
        assert "house" in available_bots()
        assert isinstance(make_bot("house", random.Random(1)), RandomBot)
    assert "house" not in available_bots()
    with (
        pytest.raises(ValueError, match="already registered: heuristic"),
        registered({"heuristic": RandomBot}),
    ):
        pass


def test_a_program_name_makes_an_external_bot_that_starts_at_its_first_decision() -> None:
    bot = make_bot(SAMPLE, random.Random(1))
    assert isinstance(bot, ExternalBot) and bot.name == SAMPLE and not bot.running


def test_a_missing_program_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(UnknownBotError, match="no such file"):
        check_bot_name(str(tmp_path / "nobot"))
    script = tmp_path / "bot"
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    with pytest.raises(UnknownBotError, match="is not executable"):
        check_bot_name(str(script))
    with pytest.raises(UnknownBotError, match="'no-such-command-here' is not found"):
        check_bot_name("cmd:no-such-command-here --x")


def test_a_web_table_takes_registered_names_only() -> None:
    assert check_bot_name("heuristic", programs=False) == Registered("heuristic", BotOptions())
    for name in (SAMPLE, "cmd:python3 bot.py"):
        with pytest.raises(UnknownBotError, match="only registered bots are taken here"):
            check_bot_name(name, programs=False)


def test_the_terminal_game_takes_any_bot_name_per_seat() -> None:
    bots = parse_bots(f"W={SAMPLE},E=cmd:python3 -c 'print(1)' --a=1", Seat.S)
    assert bots == {Seat.W: SAMPLE, Seat.N: "medium", Seat.E: "cmd:python3 -c 'print(1)' --a=1"}
    with pytest.raises(PlayUsageError, match="no such file"):
        parse_bots("W=./nobot", Seat.S)


def test_the_terminal_game_plays_against_an_external_bot() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "baloot", "play", "--bots", f"N={SAMPLE},W=random,E=random"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == 1, done.stderr  # the end of input, once it is the human's turn
    assert "sample_bot.py" in done.stdout and "Traceback" not in done.stderr
