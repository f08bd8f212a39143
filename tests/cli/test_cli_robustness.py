"""The command line under hostile input and a hostile environment: bad paths, closed pipes,
huge or malformed files, signals, dead parents. Every failure is one clear line, never a
traceback, and the exit status stays true.

The new helpers (:mod:`baloot.cli.files`, ``first_dealer``) are imported in the tests that use
them, so that each behaviour is checked on its own.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import WAIT, one_line_error, read_line, wait_for
from spec_example import ACTIONS, DECK, record_text

from baloot.bots.arena import pair_seeds
from baloot.cli import main as cli_main
from baloot.core.errors import BalootError, RecordError
from baloot.core.match import Match
from baloot.records.record import loads, loads_all
from baloot.records.replay import replay

MIB = 1024 * 1024
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8"}


def command(*args: str | bytes) -> list[str | bytes]:
    return [sys.executable, "-m", "baloot", *args]


def baloot(
    *args: str | bytes, stdin: bytes | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    """The real command; its output as bytes, to see exactly what reaches a terminal."""
    return subprocess.run(
        command(*args), input=stdin, capture_output=True, timeout=timeout, env=ENV
    )


def text(output: bytes) -> str:
    return output.decode("utf-8")


def no_traceback(result: subprocess.CompletedProcess[bytes]) -> None:
    err = text(result.stderr)
    assert "Traceback" not in err and "Exception ignored" not in err, err


def json_record(**changes: Any) -> dict[str, Any]:
    return {"format": "baloot/1", "dealer": "E", "deck": DECK, "actions": ACTIONS, **changes}


@pytest.fixture
def not_a_record(tmp_path: Path) -> Path:
    path = tmp_path / "not.baloot"
    path.write_text('format = "baloot/1"\ndealer = E\n', encoding="utf-8")
    return path


# ---------------------------------------------------------------------- --out


@pytest.mark.parametrize("arena", [False, True], ids=["random", "arena"])
@pytest.mark.parametrize("where", ["a file", "a folder under a file"])
def test_out_that_cannot_be_a_folder_is_one_line_before_any_game(
    tmp_path: Path, arena: bool, where: str
) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("mine\n", encoding="utf-8")
    out = blocker if where == "a file" else blocker / "sub"
    args = (
        ["arena", "random", "random", "--matches", "1000000000"]
        if arena
        else ["random", "--seed", "1", "--count", "1000000000"]
    )
    # refused before playing, not after: a billion games would outlast the wait
    line = one_line_error(baloot(*args, "--out", str(out), timeout=WAIT))
    assert "notes.txt" in line
    assert blocker.read_text(encoding="utf-8") == "mine\n"


def test_check_writable_dir_creates_a_folder_and_refuses_a_file(tmp_path: Path) -> None:
    from baloot.cli.files import check_writable_dir
    from baloot.records.atomic import FolderError

    check_writable_dir(tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b").is_dir()
    assert list((tmp_path / "a" / "b").iterdir()) == []  # the probe is gone
    (tmp_path / "f").write_text("x", encoding="utf-8")
    for path in (tmp_path / "f", tmp_path / "f" / "sub"):
        with pytest.raises(FolderError) as caught:
            check_writable_dir(path)
        assert isinstance(caught.value, BalootError)
        assert "\n" not in str(caught.value) and str(tmp_path / "f") in str(caught.value)


def test_check_writable_dir_refuses_a_folder_it_cannot_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As root every folder is writable, so a refused write is simulated."""
    from baloot.cli import files
    from baloot.cli.files import check_writable_dir
    from baloot.records.atomic import FolderError

    def refuse(path: Path) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(files, "create_temporary", refuse)
    with pytest.raises(FolderError, match="Permission denied"):
        check_writable_dir(tmp_path)


# ---------------------------------------------------------------------- atomic writes


def test_write_atomic_replaces_a_file_whole(tmp_path: Path) -> None:
    from baloot.cli.files import write_atomic

    path = tmp_path / "r.baloot"
    path.write_text("old\n", encoding="utf-8")
    write_atomic(path, "new ☀\n")
    assert path.read_text(encoding="utf-8") == "new ☀\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.baloot"]


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_write_atomic_leaves_the_old_file_and_no_temporary_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: BaseException
) -> None:
    from baloot.cli.files import write_atomic

    path = tmp_path / "r.baloot"
    path.write_text("old\n", encoding="utf-8")

    def fail(fd: int) -> None:
        raise failure

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(type(failure)):
        write_atomic(path, "new\n")
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.baloot"]


def test_write_atomic_into_a_missing_folder_raises_an_os_error(tmp_path: Path) -> None:
    from baloot.cli.files import write_atomic

    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "nowhere" / "r.baloot", "x")


def test_the_arena_command_writes_its_folder_atomically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from baloot.cli import main
    from baloot.records.atomic import write_atomic

    written: list[Path] = []

    def spy(path: Path, data: str | bytes) -> None:
        written.append(path)
        write_atomic(path, data)

    for module in ("baloot.bots.folder", "baloot.records.run_folder"):  # pairs; the manifest
        monkeypatch.setattr(f"{module}.write_atomic", spy)
    assert (
        main(["arena", "random", "random", "--hands", "2", "--json", "--out", str(tmp_path)]) == 0
    )
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    assert sorted(written) == files
    assert len([p for p in files if p.suffix == ".baloot"]) == 4


def test_random_out_writes_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from baloot.cli import main
    from baloot.cli.files import write_atomic

    written: list[Path] = []

    def spy(path: Path, data: str) -> None:
        written.append(path)
        write_atomic(path, data)

    monkeypatch.setattr("baloot.cli.random_matches.write_atomic", spy)
    assert main(["random", "--seed", "1", "--count", "2", "--out", str(tmp_path)]) == 0
    assert sorted(written) == sorted(tmp_path.iterdir()) and len(written) == 2


# ---------------------------------------------------------------------- closed pipes


def closed_pipe(*args: str) -> subprocess.CompletedProcess[bytes]:
    """Run the command with a standard output whose reader has already gone."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            command(*args), stdout=write, stderr=subprocess.PIPE, timeout=120, env=ENV
        )
    finally:
        os.close(write)


def test_validate_into_a_closed_pipe_keeps_the_worst_status(game: Path, not_a_record: Path) -> None:
    result = closed_pipe("validate", str(game), str(not_a_record), str(game))
    no_traceback(result)
    assert result.returncode == 2


def test_validate_piped_to_head_keeps_the_worst_status(game: Path, not_a_record: Path) -> None:
    """``baloot validate FILE... | head -1``: far more output than a pipe holds, then a bad file."""
    long_name = "./" * 1500 + game.name  # the same file, under a 3000-character name
    args = [long_name] * 60 + [not_a_record.name]
    process = subprocess.Popen(
        command("validate", *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=game.parent,
        env=ENV,
    )
    assert process.stdout is not None and process.stderr is not None
    first = read_line(process.stdout)
    process.stdout.close()
    err = process.stderr.read()
    status = process.wait(timeout=120)
    assert b": ok (" in first
    assert b"Traceback" not in err and b"Exception ignored" not in err, err
    assert status == 2


@pytest.mark.parametrize(
    "args",
    [
        ["random", "--seed", "1", "--count", "50", "--json"],
        ["random", "--seed", "1"],
        ["deal", "--seed", "7"],
        ["--help"],
        ["--version"],
    ],
)
def test_output_into_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    result = closed_pipe(*args)
    no_traceback(result)
    assert result.stderr == b""
    assert result.returncode == 0


def test_replay_into_a_closed_pipe_ends_quietly_with_its_status(game: Path) -> None:
    for extra in ([], ["--json"]):
        result = closed_pipe("replay", str(game), *extra)
        no_traceback(result)
        assert result.stderr == b"" and result.returncode == 0


# ---------------------------------------------------------------------- odd text


def surrogate_record(tmp_path: Path) -> Path:
    path = tmp_path / "surrogate.json"
    data = json.dumps(json_record(actions=["N pass", "W PLACEHOLDER"]))
    path.write_text(data.replace("PLACEHOLDER", "\\ud800"), encoding="ascii")
    return path


def test_a_lone_surrogate_in_an_action_is_escaped_by_replay(tmp_path: Path) -> None:
    path = surrogate_record(tmp_path)
    result = baloot("replay", str(path))
    no_traceback(result)
    assert result.returncode == 1
    assert text(result.stdout).startswith('hand 1: action 2 "W \\ud800": ')
    as_json = baloot("replay", str(path), "--json")
    no_traceback(as_json)
    assert as_json.returncode == 1
    assert json.loads(as_json.stdout)["error"]["text"] == "W \ud800"  # exact, as #40 says


def test_a_lone_surrogate_in_an_action_is_escaped_by_validate(tmp_path: Path) -> None:
    path = surrogate_record(tmp_path)
    result = baloot("validate", str(path))
    no_traceback(result)
    assert result.returncode == 1
    assert '"W \\ud800"' in text(result.stdout)


def test_replay_of_non_utf8_standard_input_is_one_line() -> None:
    line = one_line_error(baloot("replay", "-", stdin=record_text([]).encode() + b"# \xff\n"))
    assert "standard input" in line and "UTF-8" in line


def test_validate_prints_a_non_utf8_file_name_escaped(game: Path) -> None:
    name = game.parent / os.fsdecode(b"caf\xe9.baloot")
    name.write_bytes(game.read_bytes())
    result = baloot("validate", os.fsencode(name))
    no_traceback(result)
    assert result.returncode == 0
    assert text(result.stdout).startswith(f"{game.parent}/caf\\xe9.baloot: ok (")
    missing = baloot("replay", os.fsencode(game.parent / os.fsdecode(b"\xff.baloot")))
    assert "\\xff.baloot" in one_line_error(missing)


def test_a_bulk_file_whose_first_line_nests_deeply_is_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    line = json.dumps(json_record())
    path.write_text('{"x_a": ' + "[" * 2000 + "]" * 2000 + "}\n" + line + "\n", encoding="utf-8")
    result = baloot("validate", str(path))
    no_traceback(result)
    assert result.returncode == 2
    assert text(result.stdout).count("\n") == 1 and "deep" in text(result.stdout)
    with pytest.raises(RecordError, match="deep"):
        loads_all(path.read_text(encoding="utf-8"))


HUGE = "0x" + "f" * 4000  # a TOML hex integer: tomllib reads it at any size
PLAYERS = 'players = { N = "Noura", W = "bot:heuristic", S = "bot:heuristic", E = "bot:heuristic" }'


def match_text(extra: str) -> str:
    """A match record that ``baloot play --resume`` takes, with ``extra`` lines at the top."""
    hand = f'[[hands]]\ndealer = "E"\ndeck = "{DECK}"\nactions = []\n'
    return f'format = "baloot/1"\n{PLAYERS}\n{extra}\n\n{hand}'


#: A record holding each kind of number beyond its bound, and the key the error names.
OUT_OF_BOUNDS = {
    "a tied huge total": (f"score_before = [{HUGE}, {HUGE}]", "score_before"),
    "a huge total and 0": (f"score_before = [{HUGE}, 0]", "score_before"),
    "a huge total and -1": (f"score_before = [{HUGE}, -1]", "score_before"),
    "a total above 9999": ("score_before = [10000, 10000]", "score_before"),
    "an infinite total": ("score_before = [inf, inf]", "score_before"),
    "a true total": ("score_before = [true, true]", "score_before"),
    "a huge seed": (f"x_seed = {HUGE}", "x_seed"),
    "a seed of 65 bits": (f"x_seed = {2**64}", "x_seed"),
    "a nan seed": ("x_seed = nan", "x_seed"),
    "a huge metadata number": (f"x_note = {{ count = {HUGE} }}", "x_note.count"),
    "a decimal too long to read": (f"x_note = {'9' * 5000}", "beyond the whole numbers"),
}


def bounds_record(tmp_path: Path, kind: str) -> tuple[Path, str]:
    """A file of the match record holding ``kind`` of number, and the key its error names."""
    extra, named = OUT_OF_BOUNDS[kind]
    path = tmp_path / "bounds.baloot"
    path.write_text(match_text(extra), "utf-8")
    return path, named


#: The commands that read a match record, each told a record with a number beyond its bound.
READERS = [
    ["replay"],
    ["replay", "--json"],
    ["replay", "--lang", "ar"],
    ["analyze"],
    ["play", "--resume"],
]


@pytest.mark.parametrize("args", READERS, ids=" ".join)
def test_a_number_beyond_its_bound_is_one_line_and_status_2(
    tmp_path: Path, args: list[str]
) -> None:
    path, named = bounds_record(tmp_path, "a decimal too long to read")
    line = one_line_error(baloot(*args, str(path), stdin=b""))
    assert named in line and len(line) < 300


@pytest.mark.parametrize("args", READERS, ids=" ".join)
@pytest.mark.parametrize("kind", OUT_OF_BOUNDS)
def test_every_number_beyond_its_bound_is_one_line_and_status_2_in_process(
    tmp_path: Path,
    capfdbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    kind: str,
) -> None:
    """Each kind of number, as the command above says it, run in this process (the real
    command is run once a reader, above)."""
    path, named = bounds_record(tmp_path, kind)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status = cli_main([*args, str(path)])
    out, err = capfdbinary.readouterr()
    line = one_line_error(subprocess.CompletedProcess(args, status, out, err))
    assert named in line and len(line) < 300


@pytest.mark.parametrize("kind", OUT_OF_BOUNDS)
def test_validate_says_a_number_beyond_its_bound_in_one_line_with_status_2(
    tmp_path: Path, kind: str
) -> None:
    path, named = bounds_record(tmp_path, kind)
    result = baloot("validate", str(path))
    assert result.returncode == 2 and result.stderr == b""
    (line,) = text(result.stdout).splitlines()
    assert "not a record" in line and named in line and len(line) < 400


def test_the_words_write_any_whole_number_without_an_error() -> None:
    """The bound is the reader's; the words still never stop at a number (a total from code)."""
    from baloot.cli.replay_text import render_replay
    from baloot.words.strings import strings

    huge = 16**4000
    built = loads(record_text([]))
    built.score_before = (huge, huge)  # a record built in code, never read
    assert render_replay(replay(built), strings("en")).endswith(
        "totals: NS 3.0e+4816, EW 3.0e+4816; match winner: none yet"
    )
    assert (
        strings("en")("replay_totals", NS=huge, EW=-huge) == "totals: NS 3.0e+4816, EW -3.0e+4816"
    )
    assert (
        strings("ar")("replay_totals", NS=huge, EW=3) == "المجموع: شمال-جنوب 3.0e+4816، شرق-غرب 3"
    )


def test_pair_seeds_are_those_of_before() -> None:
    """The seeds, and so every arena verdict, stay what they were when drawn all at once."""
    assert pair_seeds(3, 4) == [
        1202937964474309450,
        4372372156980035837,
        4327904458897121193,
        1768527152493174067,
    ]
    assert pair_seeds(0, 2) == [3553260803050964941, 373402508605428821]


def limited_memory() -> None:
    limit = 768 * MIB
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_arena_with_a_billion_matches_starts_at_once_in_little_memory(
    tmp_path: Path, jobs: str
) -> None:
    out = tmp_path / "records"
    process = subprocess.Popen(
        command(
            "arena",
            "random",
            "random",
            "--matches",
            "1000000000",
            "--jobs",
            jobs,
            "--out",
            str(out),
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=limited_memory,
        env=ENV,
    )
    try:
        assert wait_for(lambda: len(records(out)) >= 4 or process.poll() is not None)
        assert process.poll() is None, process.communicate()[1]
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=WAIT)
    assert process.returncode == 130, err
    assert b"Traceback" not in err


# ---------------------------------------------------------------------- size and controls


def test_replay_refuses_an_endless_file_above_16_mib() -> None:
    for args in (["replay", "/dev/zero"], ["replay", "/dev/zero", "--json"]):
        line = one_line_error(baloot(*args, timeout=60))
        assert "16 MiB" in line and "/dev/zero" in line


def test_replay_refuses_standard_input_above_16_mib() -> None:
    line = one_line_error(baloot("replay", "-", stdin=b" " * (16 * MIB + 1), timeout=60))
    assert "16 MiB" in line and "standard input" in line


def test_validate_refuses_a_file_above_16_mib(game: Path) -> None:
    result = baloot("validate", "/dev/zero", str(game), timeout=60)
    assert result.returncode == 2
    lines = text(result.stdout).splitlines()
    assert lines[0].startswith("/dev/zero: not a record: ") and "16 MiB" in lines[0]
    assert lines[1].startswith(f"{game}: ok")


def test_a_record_of_exactly_16_mib_is_read(tmp_path: Path) -> None:
    from baloot.cli.files import read_record_text

    body = record_text(ACTIONS).encode()
    padding = 16 * MIB - len(body) - 3
    path = tmp_path / "big.baloot"
    path.write_bytes(body + b"#" + b" " * padding + b"\n\n")
    assert path.stat().st_size == 16 * MIB
    assert len(read_record_text(str(path))) == 16 * MIB
    with pytest.raises(RecordError, match="larger than"):
        read_record_text(str(path), limit=16 * MIB - 1)


@pytest.mark.parametrize("command_name", ["replay", "validate"])
def test_help_states_the_record_size_limit(command_name: str) -> None:
    result = baloot(command_name, "--help")
    assert result.returncode == 0 and b"16 MiB" in result.stdout


CONTROLS = ["\x1b[2J", "\x1b]0;owned\x07", "\x9b31m", "\x7f", "\r"]


def controlled(tmp_path: Path, control: str) -> tuple[Path, Path]:
    """A record with ``control`` in an illegal action, and one with it in a key."""
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(json_record(actions=[f"N pa{control}ss"])), encoding="utf-8")
    bad_key = tmp_path / "key.json"
    bad_key.write_text(json.dumps(json_record(**{f"colour{control}": 1})), encoding="utf-8")
    return illegal, bad_key


def assert_never_shown(
    run: Callable[..., subprocess.CompletedProcess[bytes]], tmp_path: Path, control: str
) -> None:
    """Each command told of the records of :func:`controlled` writes the control nowhere."""
    illegal, bad_key = controlled(tmp_path, control)
    raw = control.encode("utf-8")
    for args in (
        ["replay", str(illegal)],
        ["replay", str(illegal), "--json"],
        ["validate", str(illegal), str(bad_key)],
        ["replay", str(bad_key)],
    ):
        result = run(*args)
        no_traceback(result)
        assert result.returncode in (1, 2)
        assert raw not in result.stdout and raw not in result.stderr, args
    assert json.loads(run("replay", str(illegal), "--json").stdout)["error"]["text"] == (
        f"N pa{control}ss"
    )


def test_control_characters_of_a_record_never_reach_the_terminal(tmp_path: Path) -> None:
    """The real command, with a control sequence that would retitle the terminal."""
    assert_never_shown(baloot, tmp_path, "\x1b]0;owned\x07")


@pytest.mark.parametrize("control", CONTROLS)
def test_no_control_character_of_a_record_reaches_the_terminal_in_process(
    tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes], control: str
) -> None:
    """Every control, as the command above writes it, run in this process."""

    def run(*args: str) -> subprocess.CompletedProcess[bytes]:
        status = cli_main(list(args))
        out, err = capfdbinary.readouterr()
        return subprocess.CompletedProcess(args, status, out, err)

    assert_never_shown(run, tmp_path, control)


def test_printable_escapes_controls_and_surrogates_only() -> None:
    from baloot.cli.files import printable

    assert printable("S play ♥ صن ok") == "S play ♥ صن ok"
    assert printable("a\x00b\x1bc\x7fd\x85e\ud800\tf") == "a\\x00b\\x1bc\\x7fd\\x85e\\ud800\\x09f"


def test_a_huge_action_is_shortened_in_the_text_output(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text(json.dumps(json_record(actions=["N " + "x" * 100_000])), encoding="utf-8")
    result = baloot("replay", str(path))
    assert result.returncode == 1 and len(result.stdout) < 400 and "…" in text(result.stdout)
    as_json = baloot("replay", str(path), "--json")
    assert json.loads(as_json.stdout)["error"]["text"] == "N " + "x" * 100_000


# ---------------------------------------------------------------------- words of errors


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    toml = tmp_path / "bom.baloot"
    toml.write_bytes(b"\xef\xbb\xbf" + record_text(ACTIONS).encode())
    as_json = tmp_path / "bom.json"
    as_json.write_bytes(b"\xef\xbb\xbf" + json.dumps(json_record()).encode())
    for path in (toml, as_json):
        result = baloot("replay", str(path), "--json")
        assert result.returncode == 0, result.stderr
    stdin = baloot("replay", "-", stdin=toml.read_bytes())
    assert stdin.returncode == 0
    assert loads("\ufeff" + record_text(ACTIONS)) == loads(record_text(ACTIONS))
    assert len(loads_all("\ufeff" + json.dumps(json_record()))) == 1


def test_json_duplicate_keys_are_refused_naming_the_key(tmp_path: Path) -> None:
    path = tmp_path / "twice.json"
    body = json.dumps(json_record())
    path.write_text(body[:-1] + ', "dealer": "N"}', encoding="utf-8")
    line = one_line_error(baloot("replay", str(path)))
    assert '"dealer"' in line and "duplicate" in line
    with pytest.raises(RecordError, match='duplicate key "N"'):
        loads(json.dumps(json_record())[:-1] + ', "players": {"N": "a", "N": "b"}}')
    bulk = tmp_path / "bulk.jsonl"
    bulk.write_text(body + "\n" + body[:-1] + ', "deck": "x"}\n', encoding="utf-8")
    result = baloot("validate", str(bulk))
    assert result.returncode == 2 and "line 2" in text(result.stdout)


@pytest.mark.parametrize(
    ("change", "shown", "hidden"),
    [
        ({"dealer": None}, "null", "None"),
        ({"format": "baloot/2"}, '"baloot/2"', "'"),
        ({"score_before": [1, True]}, "[1, true]", "True"),
        ({"rules": {"must_undertrump": "yes"}}, '"yes"', "'"),
        ({"rules": "clasic"}, '"clasic"', "'"),
        ({"deck": DECK.replace("7h", "7x")}, '"7x"', "'"),
    ],
)
def test_error_messages_word_values_as_the_file_writes_them(
    tmp_path: Path, change: dict[str, Any], shown: str, hidden: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(json_record(**change)), encoding="utf-8")
    line = one_line_error(baloot("replay", str(path)))
    assert shown in line and hidden not in line


def test_a_toml_date_is_worded_as_written(tmp_path: Path) -> None:
    path = tmp_path / "date.baloot"
    path.write_text(record_text([]).replace('dealer = "E"', "dealer = 2024-01-01"), "utf-8")
    line = one_line_error(baloot("replay", str(path)))
    assert "2024-01-01" in line and "datetime" not in line


def test_a_huge_value_is_never_echoed_in_full(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    for change in ({"x" * 100_000: 1}, {"rules": "r" * 100_000}, {"dealer": ["N"] * 50_000}):
        path.write_text(json.dumps(json_record(**change)), encoding="utf-8")
        line = one_line_error(baloot("replay", str(path)))
        assert len(line) < 200 and "…" in line


def test_version_prints_the_package_version() -> None:
    from importlib.metadata import version

    result = baloot("--version")
    assert result.returncode == 0
    assert text(result.stdout) == f"baloot {version('pybaloot')}\n"


# ---------------------------------------------------------------------- signals


def records(out: Path) -> list[Path]:
    return sorted(out.glob("*.baloot")) if out.is_dir() else []


def children(pid: int) -> list[int]:
    """The live (not zombie) processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if int(parent) == pid and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.fixture
def running_arena(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path, list[int]]]:
    """An endless arena on two jobs, once it has written records; its workers' pids."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc")
    out = tmp_path / "records"
    process = subprocess.Popen(
        command(
            "arena", "random", "random", "--matches", "100000", "--jobs", "2", "--out", str(out)
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        start_new_session=True,  # its own process group, as in a terminal
    )
    workers: list[int] = []
    try:
        assert wait_for(lambda: len(records(out)) >= 4), "no records"
        workers.extend(children(process.pid))
        assert len(workers) == 2, workers
        yield process, out, workers
    finally:
        workers.extend(children(process.pid))
        if process.poll() is None:
            process.kill()
        for pid in workers:  # a worker left behind would run on (and hold the pipes open)
            with contextlib.suppress(OSError):
                if alive(pid) and b"baloot" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.kill(pid, signal.SIGKILL)
        process.communicate(timeout=WAIT)


def check_whole_records(out: Path) -> None:
    """The last records written replay to their end."""
    for path in records(out)[-6:]:
        replay(loads(path.read_text(encoding="utf-8")))


def check_complete_records(out: Path) -> None:
    assert all(not p.name.startswith(".") for p in out.iterdir()), "a temporary file is left"
    check_whole_records(out)


@pytest.mark.parametrize(
    ("sig", "status", "to_group"),
    [(signal.SIGINT, 130, False), (signal.SIGINT, 130, True), (signal.SIGTERM, 143, False)],
    ids=["SIGINT", "Ctrl-C to the process group", "SIGTERM"],
)
def test_arena_stops_at_once_on_a_signal_without_orphans(
    running_arena: tuple[subprocess.Popen[bytes], Path, list[int]],
    sig: int,
    status: int,
    to_group: bool,
) -> None:
    process, out, workers = running_arena
    if to_group:
        os.killpg(process.pid, sig)
    else:
        process.send_signal(sig)
    _, err = process.communicate(timeout=WAIT)  # 100000 matches would outlast the wait
    assert process.returncode == status, err
    assert b"Traceback" not in err
    assert err.decode().strip().splitlines() == ["baloot: interrupted"]
    assert wait_for(lambda: not any(alive(pid) for pid in workers)), "orphaned workers"
    count = len(records(out))
    time.sleep(1)
    assert len(records(out)) == count  # nobody writes any more
    check_complete_records(out)


def test_arena_workers_die_with_a_killed_parent(
    running_arena: tuple[subprocess.Popen[bytes], Path, list[int]],
) -> None:
    process, out, workers = running_arena
    process.kill()
    process.wait(timeout=WAIT)
    assert wait_for(lambda: not any(alive(pid) for pid in workers)), "orphaned workers"
    count = len(records(out))
    time.sleep(1)
    assert len(records(out)) == count
    # SIGKILL gives no chance to clean up: a file being written stays a hidden temporary
    # (the next run on the folder removes it); every record in sight is whole
    hidden = [p.name for p in out.rglob(".*")]
    assert all(name.endswith(".tmp") for name in hidden), hidden
    check_whole_records(out)


def test_a_worker_stopped_while_not_playing_a_pair_ends_at_once_without_a_traceback(
    tmp_path: Path,
) -> None:
    """SIGTERM to a worker still starting or waiting for a pair (the pool prints whatever its
    set-up raises) ends it quietly with 143."""
    script = tmp_path / "idle_worker.py"
    script.write_text(
        "import os, signal, sys, time, traceback\n"
        "import baloot.bots.pool as pool\n"
        "try:\n"
        "    pool._start_worker(os.getppid())\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    time.sleep(10)\n"
        "except BaseException:\n"
        "    traceback.print_exc()\n"
        "    sys.exit(1)\n",
        encoding="utf-8",
    )
    result = subprocess.run([sys.executable, str(script)], capture_output=True, timeout=60, env=ENV)
    assert (result.returncode, result.stderr) == (143, b"")


def test_workers_end_when_their_parent_is_gone_even_without_the_kernel_signal(
    tmp_path: Path,
) -> None:
    """The watcher thread alone (no PR_SET_PDEATHSIG, as off Linux) ends an orphaned worker."""
    script = tmp_path / "orphan.py"
    script.write_text(
        "import os, sys, time\n"
        "import baloot.bots.pool as pool\n"
        "pool.PARENT_CHECK_SECONDS = 0.1\n"
        "pool._die_with_parent = lambda: None\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    started, tell = os.pipe()\n"
        "    if os.fork():  # the worker's parent, which goes once the worker watches it\n"
        "        os.read(started, 1)\n"
        "        os._exit(0)\n"
        "    pool._start_worker(os.getppid())\n"
        "    print(os.getpid(), flush=True)\n"
        "    os.write(tell, b'w')\n"
        "    time.sleep(30)\n"
        "    print('lived on', flush=True)\n"
        "    os._exit(0)\n"
        "os.waitpid(child, 0)\n",
        encoding="utf-8",
    )
    # the output ends when the worker (which holds it open) ends
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, timeout=WAIT, env=ENV
    )
    assert b"lived on" not in result.stdout, "the orphan lived on"
    worker = int(result.stdout.split()[0])
    assert wait_for(lambda: not alive(worker)), "the orphan lives on"


# ---------------------------------------------------------------------- deal and play agree


@pytest.mark.parametrize("seed", [1, 7, 42, 2024])
def test_deal_prints_the_first_hand_of_play_for_the_same_seed(seed: int) -> None:
    from baloot.table import first_dealer

    result = baloot("deal", "--seed", str(seed))
    assert result.returncode == 0
    lines = text(result.stdout).splitlines()
    hand = Match.new(rng=random.Random(seed), dealer=first_dealer(seed)).hand
    assert lines[0] == f"seed {seed}, dealer {hand.dealer.name}"
    assert lines[1] == "deck: " + " ".join(c.text for c in hand.deck)


def test_play_chooses_its_first_dealer_with_first_dealer() -> None:
    from baloot.cli import _parser
    from baloot.cli.play import parse_options
    from baloot.table import first_dealer

    for seed in range(20):
        args = _parser().parse_args(["play", "--seed", str(seed)])
        assert parse_options(args).dealer == first_dealer(seed)
    assert {first_dealer(seed) for seed in range(40)} == set(first_dealer(0).__class__)
