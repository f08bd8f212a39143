"""A round's points (docs/tournaments.md): the VP scale symmetric, capped and concave, IMPs
odd and growing, duplicate margins summing to nothing, and the doc's worked example."""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from baloot.tournaments.scoring import (
    IMP_STEPS,
    DealResult,
    Format,
    blitz,
    duplicate_margins,
    duplicate_points,
    imps,
    match_points,
    victory_points,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "tournaments.md"


@given(st.integers(-500, 500), st.integers(1, 32))
def test_the_two_pairs_of_a_table_share_twenty_and_the_winner_has_more(m: int, n: int) -> None:
    ours, theirs = victory_points(m, n)
    assert math.isclose(ours + theirs, 20)
    assert 0 <= theirs <= 10 <= ours <= 20 if m >= 0 else 0 <= ours < 10 < theirs <= 20
    assert victory_points(-m, n) == (theirs, ours)


@given(st.integers(1, 32))
def test_each_further_imp_is_worth_no_more_than_the_one_before(n: int) -> None:
    values = [victory_points(m, n)[0] for m in range(0, 200)]
    gains = [b - a for a, b in itertools.pairwise(values)]
    assert all(g >= 0 for g in gains)
    assert all(later <= earlier + 0.011 for earlier, later in itertools.pairwise(gains))
    assert values[0] == 10 and values[math.ceil(blitz(n))] == 20 and values[-1] == 20


@given(st.integers(-300, 300))
def test_imps_are_odd_and_grow_with_the_difference(d: int) -> None:
    assert imps(-d) == -imps(d)
    assert imps(d + 1) >= imps(d)
    assert 0 <= imps(abs(d)) <= len(IMP_STEPS)


@given(
    st.lists(
        st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), min_size=3, max_size=3),
        min_size=1,
        max_size=6,
    )
)
def test_duplicate_results_are_symmetric_and_total_twenty_a_table(
    raw: list[list[tuple[int, int]]],
) -> None:
    tables = [[DealResult(ns, ew) for ns, ew in t] for t in raw]
    for ns, ew in duplicate_points(tables):
        assert math.isclose(ns + ew, Format.DUPLICATE.total)
    swapped = [[DealResult(d.ew, d.ns) for d in t] for t in tables]
    assert duplicate_margins(swapped) == [-m for m in duplicate_margins(tables)]
    same = [tables[0]] * len(tables)
    if len(tables) > 1:
        assert duplicate_margins(same) == [0] * len(tables)


def test_a_match_scores_two_one_or_nothing() -> None:
    assert match_points(152, 100) == (2, 0)
    assert match_points(100, 152) == (0, 2)
    assert match_points(150, 150) == (1, 1)
    assert Format.MATCH.total == 2


def test_the_documented_scale_and_worked_example_are_the_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    steps = re.search(r"\n\s+(2, 5, 8[\d, ]+)\n", text)
    assert steps is not None
    assert tuple(int(x) for x in steps.group(1).split(", ")) == IMP_STEPS
    assert "B  = 15 · √N" in text and blitz(4) == 30
    rows = re.findall(r"^\| (\d) \| (\d+)–(\d+) \| (\d+)–(\d+) \| .* \| ([+−]?\d+) \|$", text, re.M)
    assert len(rows) == 4
    one = [DealResult(int(r[1]), int(r[2])) for r in rows]
    two = [DealResult(int(r[3]), int(r[4])) for r in rows]
    documented = [int(r[5].replace("−", "-").replace("+", "")) for r in rows]
    data = [(a.ns - a.ew + b.ns - b.ew) / 2 for a, b in zip(one, two, strict=True)]
    assert [imps(a.ns - a.ew - d) for a, d in zip(one, data, strict=True)] == documented
    assert duplicate_margins([one, two]) == [sum(documented), -sum(documented)]
    ns, ew = duplicate_points([one, two])[0]
    assert f"scores {ns} VP, its East–West pair {ew}" in text
