"""The command line run in-process: every command and the score sheet of every kind of hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baloot.cli import main
from baloot.cli.random_matches import random_match
from baloot.core.rules import KabootProjects, Rules, SunDoubleRule
from baloot.records.record import Record
from baloot.records.writer import dumps


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("seed", range(12))
def test_the_sheet_states_each_hands_score_and_the_totals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    rules = Rules(
        sun_double_rule=SunDoubleRule.EITHER_SIDE_GT_LT, kaboot_projects=KabootProjects.ALL
    )
    path = tmp_path / "match.baloot"
    path.write_text(dumps(Record.of(random_match(seed, rules))), encoding="utf-8")
    status, summary, _ = run(capsys, "replay", str(path), "--json")
    assert status == 0
    status, sheet, err = run(capsys, "replay", str(path))
    assert status == 0 and err == ""
    data = json.loads(summary)
    blocks = sheet.split("\n\nHand ")[1:]
    assert len(blocks) == len(data["hands"])
    for block, hand in zip(blocks, data["hands"], strict=True):
        score = hand["score"]
        assert f"score: NS {score['NS']}, EW {score['EW']}" in block or (
            hand["outcome"] == "annulled" and "annulled" in block
        )
        if hand["contract"] is not None:
            assert f"by {hand['contract']['declarer']}" in block
        if hand["kaboot"] is not None:
            assert f"al-kaboot: {hand['kaboot']}" in block
    totals = data["totals"]
    assert sheet.rstrip().endswith(
        f"totals: NS {totals['NS']}, EW {totals['EW']}; match winner: {data['winner']}"
    )


def test_the_sheet_of_a_hand_in_progress_lists_the_legal_actions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = Record.of(random_match(1, Rules()))
    record.hands = record.hands[:1]
    record.hands[0].actions = record.hands[0].actions[:14]
    path = tmp_path / "position.baloot"
    path.write_text(dumps(record), encoding="utf-8")
    status, sheet, _ = run(capsys, "replay", str(path))
    assert status == 0
    assert "(in progress)" in sheet and " to act; legal: " in sheet


def test_validate_deal_and_random_in_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "random", "--seed", "5", "--count", "2", "--out", str(tmp_path))
    assert status == 0 and "wrote 2 records" in out
    files = sorted(str(p) for p in tmp_path.iterdir())
    status, out, _ = run(capsys, "validate", *files)
    assert status == 0 and out.count(": ok (") == 2
    status, out, _ = run(capsys, "deal", "--seed", "3", "--taker", "W")
    assert status == 0 and "when W takes the exposed card" in out
    status, out, _ = run(capsys, "random", "--seed", "3", "--rules", "random", "--json")
    assert status == 0 and json.loads(out)["format"] == "baloot/1"


def test_bad_arguments_are_clear_errors(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "random", "--seed", "1", "--count", "0")
    assert status == 2 and out == "" and "--count" in err
    status, out, err = run(capsys, "random", "--seed", "1", "--rule", "nosuchflag=true")
    assert status == 2 and out == "" and "nosuchflag" in err and "Traceback" not in err
    status, out, err = run(capsys, "replay", "/no/such/file.baloot")
    assert status == 2 and out == "" and err.startswith("baloot: cannot read")


@pytest.mark.parametrize(
    "command",
    [
        ["play"],
        ["deal"],
        ["random"],
        ["arena", "random", "random", "--hands", "1"],
        ["analyze", "x"],
    ],
)
@pytest.mark.parametrize("seed", [str(2**63), str(-(2**63) - 1), "9" * 5000, "7.5"])
def test_a_seed_beyond_what_a_record_keeps_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], command: list[str], seed: str
) -> None:
    """A seed is kept as the record's ``x_seed``, a whole number of 64 bits: a larger one
    would make a match whose record could not be read back."""
    with pytest.raises(SystemExit) as exited:
        main([*command, "--seed", seed])
    assert exited.value.code == 2
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert said.endswith("--seed: a seed is a whole number from -2**63 to 2**63 - 1")
