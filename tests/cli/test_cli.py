"""The ``baloot`` command line, end to end: the real command in a subprocess, as a user runs it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import baloot, one_line_error
from spec_example import ACTIONS, DECK, record_text
from spec_example import SUMMARY_JSON as SPEC_JSON

from baloot import Card, Rules
from baloot.records.record import loads
from baloot.records.replay import replay
from baloot.records.writer import dumps

COMMANDS = ["replay", "validate", "verify", "deal", "random"]


@pytest.fixture
def illegal(tmp_path: Path) -> Path:
    path = tmp_path / "illegal.baloot"
    path.write_text(record_text([*ACTIONS[:12], "S play Kh"]), encoding="utf-8")
    return path


@pytest.fixture
def repeated(tmp_path: Path) -> Path:
    path = tmp_path / "repeated.baloot"
    path.write_text(record_text([], deck=DECK.replace("7h", "9c")), encoding="utf-8")
    return path


# ---------------------------------------------------------------------- help


def test_help_lists_the_commands() -> None:
    result = baloot("--help")
    assert result.returncode == 0
    for command in COMMANDS:
        assert re.search(rf"^\s+{command}\s", result.stdout, re.MULTILINE), command


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_help_shows_examples(command: str) -> None:
    result = baloot(command, "--help")
    assert result.returncode == 0
    assert "examples:" in result.stdout
    assert f"baloot {command} " in result.stdout.split("examples:", 1)[1]


def test_no_command_is_a_usage_error() -> None:
    result = baloot()
    assert result.returncode == 2
    assert "usage" in result.stderr and result.stdout == ""


# ---------------------------------------------------------------------- replay


def test_replay_prints_a_readable_sheet(game: Path) -> None:
    result = baloot("replay", str(game))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    contract = [line for line in out.splitlines() if "contract" in line]
    assert contract and "hokum" in contract[0].lower() and "S" in contract[0]
    assert sorted(set(re.findall(r"trick (\d)", out))) == [str(k) for k in range(1, 9)]
    assert re.search(r"tricks\W+NS 6\W+EW 2", out)
    score = [line for line in out.splitlines() if "score" in line.lower()]
    assert any(re.search(r"NS\D{0,3}15\D+EW\D{0,3}3\b", line) for line in score), score
    assert "sira" in out
    assert result.stderr == ""


def test_replay_json_prints_the_summary(game: Path) -> None:
    result = baloot("replay", str(game), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == SPEC_JSON
    assert len(result.stdout.strip().splitlines()) == 1


def test_replay_json_of_a_position(tmp_path: Path) -> None:
    path = tmp_path / "position.baloot"
    path.write_text(record_text(ACTIONS[:12]), encoding="utf-8")
    result = baloot("replay", str(path), "--json")
    assert result.returncode == 0
    hand = json.loads(result.stdout)["hands"][0]
    assert (hand["outcome"], hand["to_act"], hand["legal"]) == ("in progress", "S", ["S play Jd"])


def test_replay_reads_standard_input() -> None:
    result = baloot("replay", "-", "--json", stdin=record_text(ACTIONS))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == SPEC_JSON


def test_a_hands_x_stand_in_is_read_and_kept_by_replay_validate_and_a_round_trip(
    tmp_path: Path,
) -> None:
    """A match record's hand may hold its own ``x_*`` keys, such as the server's
    ``x_stand_in`` (the decisions a stand-in made for a human): read, kept, written back."""
    match = (
        'format = "baloot/1"\nplayers = { N = "Noura", W = "bot:heuristic", S = "Saad", '
        f'E = "bot:heuristic" }}\n\n[[hands]]\ndealer = "E"\ndeck = "{DECK}"\n'
        f"actions = {json.dumps(ACTIONS)}\nx_stand_in = [3, 7, 11]\n"
    )
    path = tmp_path / "match.baloot"
    path.write_text(match, encoding="utf-8")
    validated = baloot("validate", str(path))
    assert validated.returncode == 0 and ": ok (1 hand, complete" in validated.stdout
    replayed = baloot("replay", str(path), "--json")
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["hands"] == SPEC_JSON["hands"]
    record = loads(match)
    assert record.hands[0].metadata == {"x_stand_in": [3, 7, 11]}
    for text in (dumps(record), dumps(record, json=True)):
        assert loads(text) == record
    assert "x_stand_in = [3, 7, 11]" in dumps(record).split("[[hands]]")[1]


def test_replay_of_an_illegal_action(illegal: Path) -> None:
    result = baloot("replay", str(illegal), "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout) == {
        "error": {"hand": 1, "action": 13, "text": "S play Kh", "reason": "S does not hold Kh"}
    }
    plain = baloot("replay", str(illegal))
    assert plain.returncode == 1
    # docs/records.md: the command "prints" the located error, like the JSON form.
    assert plain.stdout.strip() == 'hand 1: action 13 "S play Kh": S does not hold Kh'
    assert "Traceback" not in plain.stderr


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.baloot"
    for extra in ([], ["--json"]):
        line = one_line_error(baloot("replay", str(missing), *extra))
        assert "nowhere.baloot" in line


def test_replay_of_bad_toml(tmp_path: Path) -> None:
    path = tmp_path / "bad.baloot"
    path.write_text('format = "baloot/1"\ndealer = E\n', encoding="utf-8")
    for extra in ([], ["--json"]):
        line = one_line_error(baloot("replay", str(path), *extra))
        assert "TOML" in line


def test_replay_of_a_deck_with_a_repeated_card(repeated: Path) -> None:
    for extra in ([], ["--json"]):
        line = one_line_error(baloot("replay", str(repeated), *extra))
        assert "9c" in line and "repeated" in line


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("", "format"),
        ('{"format": "baloot/1"', "JSON"),
        (record_text([]).replace('rules = "classic"', 'rules = "clasic"'), "clasic"),
        (record_text([]) + "score_before = [160, 0]\n", "score_before"),
        (record_text([]) + "colour = 3\n", "colour"),
        (record_text([]).replace(" 7h", ""), "31"),
    ],
)
def test_replay_of_other_non_records(tmp_path: Path, text: str, named: str) -> None:
    path = tmp_path / "not.baloot"
    path.write_text(text, encoding="utf-8")
    assert named in one_line_error(baloot("replay", str(path), "--json"))


def test_replay_of_a_file_with_a_huge_integer(tmp_path: Path) -> None:
    """A file with an integer of more than 4300 digits is still just not a record (#44)."""
    path = tmp_path / "huge.baloot"
    path.write_text(record_text(ACTIONS) + "x_n = " + "1" * 5000 + "\n", encoding="utf-8")
    one_line_error(baloot("replay", str(path)))


def test_replay_of_non_utf8_bytes(tmp_path: Path) -> None:
    path = tmp_path / "latin.baloot"
    path.write_bytes(record_text([]).encode() + b'comment = "caf\xe9"\n')
    one_line_error(baloot("replay", str(path)))


# ---------------------------------------------------------------------- validate


def test_validate_prints_one_line_per_file(
    game: Path, illegal: Path, repeated: Path, tmp_path: Path
) -> None:
    result = baloot("validate", str(game), str(illegal), str(repeated))
    assert result.returncode != 0
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 3
    for line, path in zip(lines, (game, illegal, repeated), strict=True):
        assert line.startswith(str(path))
    assert "ok" in lines[0] and "ok" not in lines[1] and "ok" not in lines[2]
    assert "S play Kh" in lines[1]
    assert "repeated" in lines[2]


def test_validate_exit_status(game: Path, illegal: Path, repeated: Path) -> None:
    assert baloot("validate", str(game)).returncode == 0
    assert baloot("validate", str(game), str(game)).returncode == 0
    assert baloot("validate", str(game), str(illegal)).returncode == 1
    assert baloot("validate", str(repeated), str(game)).returncode == 2


# ---------------------------------------------------------------------- deal


def cards_of(line: str) -> list[Card]:
    return [Card.parse(word) for word in line.split(":", 1)[1].split()]


def test_deal_is_reproducible_and_shows_32_distinct_cards() -> None:
    first = baloot("deal", "--seed", "7", "--dealer", "E")
    second = baloot("deal", "--seed", "7", "--dealer", "E")
    assert first.returncode == 0 and first.stdout == second.stdout
    assert baloot("deal", "--seed", "8", "--dealer", "E").stdout != first.stdout
    lines = first.stdout.splitlines()
    deck = cards_of(next(line for line in lines if line.startswith("deck:")))
    assert len(deck) == len(set(deck)) == 32
    seats = {
        line.split(":")[0].strip(): cards_of(line)
        for line in lines
        if re.match(r"^\s+[NWSE]:", line)
    }
    assert {s: len(c) for s, c in seats.items()} == {"N": 5, "W": 5, "S": 5, "E": 5}
    # R3.2 with dealer E: N (P1) gets cards 1-3 and 13-14, and so on; card 21 is exposed
    assert seats["N"] and set(seats["N"]) == {*deck[0:3], *deck[12:14]}
    assert set(seats["W"]) == {*deck[3:6], *deck[14:16]}
    assert set(seats["S"]) == {*deck[6:9], *deck[16:18]}
    assert set(seats["E"]) == {*deck[9:12], *deck[18:20]}
    exposed = cards_of(next(line for line in lines if line.startswith("exposed")))
    assert exposed == [deck[20]]


@pytest.mark.parametrize("taker", ["S", "W"])
def test_deal_with_a_taker(taker: str) -> None:
    result = baloot("deal", "--seed", "7", "--dealer", "E", "--taker", taker)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    deck = cards_of(next(line for line in lines if line.startswith("deck:")))
    start = next(i for i, line in enumerate(lines) if "eight cards" in line)
    hands = {line.split(":")[0].strip(): set(cards_of(line)) for line in lines[start + 1 :]}
    assert sorted(hands) == ["E", "N", "S", "W"]
    assert all(len(h) == 8 for h in hands.values())
    assert set().union(*hands.values()) == set(deck)
    # R7.2 (example DC1): the taker gets card 21 and two more, the others three, from card 22
    order = ["N", "W", "S", "E"]
    position = 21
    for place, seat in enumerate(order):
        first = {*deck[3 * place : 3 * place + 3], *deck[12 + 2 * place : 14 + 2 * place]}
        count = 2 if seat == taker else 3
        rest = set(deck[position : position + count])
        position += count
        if seat == taker:
            rest.add(deck[20])
        assert hands[seat] == first | rest, seat


# ---------------------------------------------------------------------- random


def test_random_is_reproducible_and_replays_cleanly() -> None:
    result = baloot("random", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert baloot("random", "--seed", "1").stdout == result.stdout
    record = loads(result.stdout)
    assert record.is_match and record.rules == Rules.classic()
    summary = replay(record).to_json()
    assert summary["winner"] in ("NS", "EW")
    piped = baloot("replay", "-", "--json", stdin=result.stdout)
    assert piped.returncode == 0
    assert json.loads(piped.stdout) == summary


def test_random_count_out_writes_files_that_validate(tmp_path: Path) -> None:
    out = tmp_path / "recs"
    result = baloot("random", "--seed", "1", "--count", "3", "--out", str(out))
    assert result.returncode == 0, result.stderr
    files = sorted(out.iterdir())
    assert len(files) == 3
    assert len({f.read_text(encoding="utf-8") for f in files}) == 3  # three different matches
    checked = baloot("validate", *map(str, files))
    assert checked.returncode == 0
    lines = checked.stdout.strip().splitlines()
    assert len(lines) == 3 and all(" ok " in line for line in lines)


def test_random_with_the_federation_preset() -> None:
    result = baloot("random", "--seed", "2", "--rules", "federation")
    assert result.returncode == 0
    record = loads(result.stdout)
    assert record.rules == Rules.federation()
    replay(record)


def test_random_with_a_changed_flag() -> None:
    result = baloot("random", "--seed", "2", "--rule", "must_undertrump=true")
    assert result.returncode == 0
    record = loads(result.stdout)
    assert record.rules == Rules.classic().replace(must_undertrump=True)
    replay(record)
    both = baloot("random", "--seed", "2", "--rules", "federation", "--rule", "baloot_on_loss=void")
    assert loads(both.stdout).rules == Rules.federation().replace(baloot_on_loss="void")


def test_random_with_random_rules(tmp_path: Path) -> None:
    out = tmp_path / "random-rules"
    result = baloot("random", "--seed", "3", "--rules", "random", "--count", "4", "--out", str(out))
    assert result.returncode == 0, result.stderr
    records = [loads(f.read_text(encoding="utf-8")) for f in sorted(out.iterdir())]
    assert len(records) == 4
    assert len({r.rules for r in records}) > 1, "the same rules for every match"
    for record in records:
        replay(record)


@pytest.mark.parametrize(
    ("assignment", "named"),
    [
        ("bogus=true", "bogus"),
        ("must_undertrump=maybe", "must_undertrump"),
        ("first_lead=left", "first_lead"),
        ("must_undertrump", "must_undertrump"),
    ],
)
def test_random_with_a_bad_rule(assignment: str, named: str) -> None:
    line = one_line_error(baloot("random", "--seed", "1", "--rule", assignment))
    assert named in line


def test_random_json_writes_one_record_a_line() -> None:
    result = baloot("random", "--seed", "5", "--count", "2", "--json")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 2 and lines[0] != lines[1]
    for line in lines:
        assert line.startswith("{")
        replay(loads(line))


def test_validate_reads_a_bulk_file_of_json_lines(tmp_path: Path) -> None:
    """docs/records.md: JSON "for bulk files, one record a line"; validate checks each line."""
    bulk = tmp_path / "bulk.jsonl"
    generated = baloot("random", "--seed", "4", "--count", "3", "--json")
    assert generated.returncode == 0
    good = generated.stdout.strip().splitlines()
    bad = json.loads(good[0])
    bad["hands"][0]["actions"].insert(0, "E pass")  # N speaks first when E deals
    bulk.write_text("\n".join([*good, json.dumps(bad)]) + "\n", encoding="utf-8")
    result = baloot("validate", str(bulk))
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 1
    assert [line.split(": ")[0] for line in lines] == [f"{bulk}:{n}" for n in range(1, 5)]
    assert all(": ok (" in line for line in lines[:3])
    assert "illegal: hand 1: action 1" in lines[3]
