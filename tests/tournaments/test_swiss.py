"""The Swiss pairing of pairs (docs/tournaments.md): every pair paired once or one bye, no
rematch and no second bye while avoidable, the bye to the lowest placed, late entries and
withdrawals, directions balanced, the same round for the same seed, and the tie-breaks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from baloot.tournaments.scoring import Format
from baloot.tournaments.swiss import (
    Entrant,
    Game,
    Pairing,
    Settings,
    pair_round,
    scores,
    standings,
)


def matchings(keys: list[str]) -> Iterator[list[tuple[str, str | None]]]:
    """Every way to pair the keys, one of them on a bye when they are odd: the oracle's."""
    if not keys:
        yield []
        return
    if len(keys) % 2:
        for i, key in enumerate(keys):
            for rest in matchings(keys[:i] + keys[i + 1 :]):
                yield [(key, None), *rest]
        return
    first, others = keys[0], keys[1:]
    for i, other in enumerate(others):
        for rest in matchings(others[:i] + others[i + 1 :]):
            yield [(first, other), *rest]


def repeats(games: list[Game], tables: list[tuple[str, str | None]]) -> tuple[int, int]:
    """How many byes these tables give again, then how many rematches they hold."""
    met = Counter(frozenset((g.ns, g.ew)) for g in games if g.ew is not None)
    byes = Counter(g.ns for g in games if g.ew is None)
    again = sum(byes[a] for a, b in tables if b is None)
    return again, sum(met[frozenset((a, b))] for a, b in tables if b is not None)


def play(pairing: Pairing, rng: random.Random, form: Format) -> list[Game]:
    """The round's results, drawn at random, and its bye."""
    out = []
    for table in pairing.tables:
        ns = rng.choice((0, 1, 2)) if form is Format.MATCH else round(rng.uniform(0, 20), 2)
        out.append(Game(pairing.round, table.ns, table.ew, ns, form.total - ns))
    if pairing.bye is not None:
        bye = Settings(form).bye
        out.append(Game(pairing.round, pairing.bye, None, bye))
    return out


@st.composite
def events(draw: st.DrawFn) -> tuple[list[Entrant], int, int, Format]:
    """A field of 2–9 pairs, some entering late or withdrawing, its rounds, seed and format."""
    n = draw(st.integers(2, 9))
    rounds = draw(st.integers(1, 6))
    field = []
    for i in range(n):
        joined = draw(st.sampled_from([1, 1, 1, 2, 3]))
        withdrawn = draw(st.sampled_from([None, None, None, joined + 1, joined + 2]))
        field.append(Entrant(f"p{i}", i + 1, joined, withdrawn))
    return field, rounds, draw(st.integers(0, 2**32)), draw(st.sampled_from(list(Format)))


@settings(max_examples=60, deadline=None)
@given(events())
def test_every_round_is_whole_and_repeats_only_what_cannot_be_avoided(
    event: tuple[list[Entrant], int, int, Format],
) -> None:
    field, rounds, seed, form = event
    rng = random.Random(seed)
    games: list[Game] = []
    for round_no in range(1, rounds + 1):
        pairing = pair_round(field, games, round_no, seed=seed, settings=Settings(form))
        assert pairing == pair_round(field, games, round_no, seed=seed, settings=Settings(form))
        playing = sorted(e.id for e in field if e.plays(round_no))
        seated = [p for t in pairing.tables for p in (t.ns, t.ew)]
        seated += [pairing.bye] if pairing.bye is not None else []
        assert sorted(seated) == playing, "each pair that plays is paired once"
        assert (pairing.bye is not None) == (len(playing) % 2 == 1)
        tables: list[tuple[str, str | None]] = [(t.ns, t.ew) for t in pairing.tables]
        if pairing.bye is not None:
            tables.append((pairing.bye, None))
        least = min(repeats(games, m) for m in matchings(playing))
        assert repeats(games, tables) == least, "an avoidable second bye or rematch"
        if pairing.bye is not None:
            had = {g.ns for g in games if g.ew is None}
            fine = [m for m in matchings(playing) if repeats(games, m) == least]
            givable = {a for m in fine for a, b in m if b is None}
            score = scores(field, games, Settings(form))
            assert score[pairing.bye] == min(score[p] for p in givable)
            assert pairing.bye in givable
            assert (pairing.bye in had) == (set(playing) <= had), "a second bye, avoidable"
        games += play(pairing, rng, form)


def test_the_bye_goes_to_the_lowest_placed_pair_that_has_not_had_one() -> None:
    field = [Entrant(x, i) for i, x in enumerate("abcde", 1)]
    one = pair_round(field, [], 1)
    assert one.bye == "e"
    games = [Game(1, t.ns, t.ew, 2, 0) for t in one.tables] + [Game(1, "e", None, 2)]
    two = pair_round(field, games, 2)
    assert two.bye != "e"
    losers = {t.ew for t in one.tables}
    assert two.bye in losers and two.bye == max(losers, key="abcde".index)


def test_a_late_entrant_plays_from_its_round_with_its_documented_points() -> None:
    field = [Entrant("a", 1), Entrant("b", 2), Entrant("c", 3, joined=2)]
    one = pair_round(field, [], 1)
    assert "c" not in {one.bye} | {p for t in one.tables for p in (t.ns, t.ew)}
    assert scores(field, [], Settings()) == {"a": 0.0, "b": 0.0, "c": 0.0}
    assert scores(field, [], Settings(late_points=1))["c"] == 1.0
    two = pair_round(field, [Game(1, "a", "b", 2, 0)], 2)
    assert "c" in {two.bye} | {p for t in two.tables for p in (t.ns, t.ew)}


def test_a_pair_that_withdrew_is_not_paired_but_its_games_still_count() -> None:
    field = [Entrant("a", 1), Entrant("b", 2, withdrawn=2), Entrant("c", 3), Entrant("d", 4)]
    games = [Game(1, "a", "b", 0, 2), Game(1, "c", "d", 2, 0)]
    two = pair_round(field, games, 2)
    assert "b" not in {p for t in two.tables for p in (t.ns, t.ew)}
    assert two.bye is not None and len(two.tables) == 1
    assert scores(field, games)["b"] == 2.0
    assert {s.id for s in standings(field, games)} == {"a", "b", "c", "d"}


def test_directions_alternate_when_they_can() -> None:
    field = [Entrant(f"p{i}", i + 1) for i in range(8)]
    games: list[Game] = []
    rng = random.Random(3)
    for round_no in range(1, 7):
        pairing = pair_round(field, games, round_no)
        games += play(pairing, rng, Format.MATCH)
    balance = Counter[str]()
    for g in games:
        balance[g.ns] += 1
        balance[g.ew or ""] -= 1
    assert all(abs(balance[e.id]) <= 2 for e in field), balance


def test_the_seed_decides_among_equals_and_only_the_seed() -> None:
    field = [Entrant(f"p{i}", 1) for i in range(10)]
    rounds = {pair_round(field, [], 1, seed=s) for s in range(6)}
    assert len(rounds) > 1
    assert pair_round(field, [], 1, seed=4) == pair_round(list(reversed(field)), [], 1, seed=4)


def test_score_groups_fold_top_half_against_bottom_half() -> None:
    field = [Entrant(x, i) for i, x in enumerate("abcdefgh", 1)]
    one = pair_round(field, [], 1)
    assert {frozenset((t.ns, t.ew)) for t in one.tables} == {
        frozenset(p) for p in ("ae", "bf", "cg", "dh")
    }
    games = [Game(1, t.ns, t.ew, 2, 0) for t in one.tables]
    two = pair_round(field, games, 2)
    winners = {t.ns for t in one.tables}
    for table in two.tables:
        assert (table.ns in winners) == (table.ew in winners), "winners meet winners"


def test_tie_breaks_buchholz_then_sonneborn_berger_then_seed() -> None:
    field = [Entrant(x, i) for i, x in enumerate("abcd", 1)]
    games = [
        Game(1, "a", "b", 2, 0),
        Game(1, "c", "d", 2, 0),
        Game(2, "a", "c", 0, 2),
        Game(2, "b", "d", 2, 0),
    ]
    rows = standings(field, games)
    assert [(s.id, s.score, s.buchholz, s.sonneborn_berger) for s in rows] == [
        ("c", 4.0, 2.0, 2.0),
        ("a", 2.0, 6.0, 2.0),
        ("b", 2.0, 2.0, 0.0),
        ("d", 0.0, 6.0, 0.0),
    ]
    level = [Entrant(x, i) for i, x in enumerate("xy", 1)]
    assert [s.id for s in standings(level, [Game(1, "x", "y", 1, 1)])] == ["x", "y"], "seed"
