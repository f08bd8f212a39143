"""The double-dummy solver is exact: the same values as plain minimax over the hand.

The oracle here knows no rule: it drives a :class:`Hand` through ``legal_actions``/``apply``/
``undo`` and reads every ending from ``hand.result()``. Against it, on random endgames under
random rules (bidding and doubling included, so locked games and every level up to the Gahwa
come up), both searches give the same value for every legal action, in both modes. The compiled
search restates the rules of play, so it is also compared with the pure Python search (which
asks the engine) on thousands of random positions, its rules of play with the engine's directly,
and its fast configuration with its slow one (no table, no merging) on longer endgames. Trick-1
declarations are checked against the engine's own declarations, and the utility tables against
the engine's results.
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_position import hand_in_play

from baloot import Action, Hand, Level, Phase, Rules, Seat, Verb
from baloot.core.play_rules import play_mask
from baloot.solver import Mode, _api, accelerated, solve, values
from baloot.solver._problem import Problem
from baloot.solver._search import Search
from baloot.solver._tables import EW_ALL, NEITHER, NS_ALL

COMPILED = _api._fast is not None
needs_compiled = pytest.mark.skipif(not COMPILED, reason="the compiled search is not built")
BOTH = [
    pytest.param(True, id="compiled", marks=needs_compiled),
    pytest.param(False, id="python"),
]


# --------------------------------------------------------------------------- positions


def endgame(rng: random.Random, tricks_left: int) -> Hand:
    """A random hand with ``tricks_left`` tricks to play (some of the next trick played)."""
    hand = hand_in_play(rng)
    while hand.trick_number < 8 - tricks_left:
        hand.apply(rng.choice(hand.legal_actions()))
    for _ in range(rng.randrange(4)):
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


def ns_result(hand: Hand, mode: Mode) -> int:
    """NS's value of a played-out hand, from the engine's result."""
    result = hand.result()
    if mode is Mode.POINTS:
        return result.card_points[0] - result.card_points[1]
    if result.gahwa_winner is not None:
        return 1 if result.gahwa_winner == 0 else -1
    assert result.score is not None
    return result.score[0] - result.score[1]


def oracle(hand: Hand, mode: Mode) -> dict[Action, int]:
    """Plain minimax over the hand: each legal action's value for the team to act.

    Positions at the start of a trick are remembered by everything public that decides the
    rest (hands, seat to lead, points and tricks taken), which only saves time."""
    memo: dict[tuple[object, ...], int] = {}

    def value(h: Hand) -> int:
        if h.is_over:
            return ns_result(h, mode)
        key: tuple[object, ...] | None = None
        if not h.current_trick:
            key = (
                tuple(h.hand(s).mask for s in Seat),
                h.to_act,
                h.card_points(),
                h.tricks_won,
            )
            if key in memo:
                return memo[key]
        maximising = int(h.to_act or 0) & 1 == 0
        found = []
        for action in h.legal_actions():
            h.apply(action)
            found.append(value(h))
            h.undo()
        best = max(found) if maximising else min(found)
        if key is not None:
            memo[key] = best
        return best

    sign = -1 if int(hand.to_act or 0) & 1 else 1
    result = {}
    for action in hand.legal_actions():
        hand.apply(action)
        result[action] = sign * value(hand)
        hand.undo()
    return result


@pytest.fixture
def python_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(_api.ENVIRONMENT, "python")
    yield


def on(compiled: bool) -> Iterator[None]:
    """Run the public functions on the compiled search or on the Python one."""
    saved = os.environ.get(_api.ENVIRONMENT)
    if compiled:
        os.environ.pop(_api.ENVIRONMENT, None)
    else:
        os.environ[_api.ENVIRONMENT] = "python"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(_api.ENVIRONMENT, None)
        else:
            os.environ[_api.ENVIRONMENT] = saved


# --------------------------------------------------------------------------- exactness


@pytest.mark.parametrize("compiled", BOTH)
@pytest.mark.parametrize("mode", list(Mode))
def test_every_value_is_the_minimax_value_over_the_hand(compiled: bool, mode: Mode) -> None:
    """Random endgames of 1 to 4 tricks under random rules: values() and solve() are the
    oracle's, action by action."""
    rng = random.Random(f"oracle {mode.value}")
    for n in range(40):
        hand = endgame(rng, 1 + n % 4)
        expected = oracle(hand, mode)
        for _ in on(compiled):
            found = values(hand, mode)
            best = solve(hand, mode)
        assert found == expected, hand.actions
        assert list(found) == list(hand.legal_actions())
        assert best == max(expected.values())


@pytest.mark.skipif(not shutil.which("cc"), reason="no C compiler here")
def test_the_compiled_search_is_built_where_a_c_compiler_is() -> None:
    """The extension is optional, so a C error would only make the install quieter and the
    solver slower: where a compiler is, the build must have made it."""
    assert COMPILED


@needs_compiled
def test_the_compiled_rules_of_play_are_the_engines() -> None:
    """The compiled search states R9 again: on thousands of random tricks under random flags
    its legal cards are those of :func:`play_mask`."""
    from baloot.solver._api import _fast

    assert _fast is not None
    rng = random.Random(4)
    checked = 0
    while checked < 4000:
        position = hand_in_play(rng).position()
        while not position.is_over:
            trick = position.trick
            leader = position.leader
            hands = tuple(position.hand(s) for s in range(4))
            ekka = bool(trick) and position.led_ekka
            for locked in (False, True):
                for partner_led_must_trump in (False, True):
                    for must_undertrump in (False, True):
                        # The C function replays the trick on the hands before it.
                        before = list(hands)
                        for i, card in enumerate(trick):
                            before[(leader + i) & 3] |= 1 << card
                        s = position.to_act
                        expected = play_mask(
                            hands[s],
                            trick,
                            bool((position.winning[0] ^ s) & 1),
                            position.winning[1],
                            ekka,
                            position.trump,
                            locked,
                            partner_led_must_trump,
                            must_undertrump,
                        )
                        found = _fast.play_mask(
                            tuple(before),
                            trick,
                            leader,
                            int(ekka),
                            position.trump,
                            int(locked),
                            int(partner_led_must_trump),
                            int(must_undertrump),
                        )
                        assert found == expected
                        checked += 1
            legal = position.legal()
            card = rng.choice([c for c in range(32) if legal >> c & 1])
            position.play(card, ekka=bool(position.ekka() >> card & 1) and rng.random() < 0.5)


@needs_compiled
def test_the_compiled_search_and_the_python_search_agree_on_thousands_of_positions() -> None:
    """Three positions of each random hand (three, two and one tricks to play, part of the
    trick played): 2,100 positions, each in both modes."""
    rng = random.Random(7)
    for _ in range(700):
        hand = hand_in_play(rng)
        for left in (3, 2, 1):
            while hand.trick_number < 8 - left:
                hand.apply(rng.choice(hand.legal_actions()))
            for _ in range(rng.randrange(4)):
                hand.apply(rng.choice(hand.legal_actions()))
            for score in (False, True):
                problem = Problem.of(hand.position(stakes=score), score=score)
                found = _api.search(problem, want_values=True, compiled=True)
                assert found == Search(problem).values(), hand.actions
                value = _api.search(problem, want_values=False, compiled=True)
                assert value == Search(problem).value()


@needs_compiled
@given(seed=st.integers(0, 2**32 - 1), tricks=st.integers(3, 5))
def test_the_searches_agree_on_longer_endgames(seed: int, tricks: int) -> None:
    hand = endgame(random.Random(seed), tricks)
    for score in (False, True):
        problem = Problem.of(hand.position(stakes=score), score=score)
        assert _api.search(problem, want_values=True, compiled=True) == Search(problem).values()


@needs_compiled
@pytest.mark.parametrize("seed", range(16))
def test_the_fast_configuration_gives_the_values_of_the_slow_one(seed: int) -> None:
    """Table, bounds and merged cards change no value: the compiled search without table and
    merging, on endgames of 5 and 6 tricks."""
    hand = endgame(random.Random(seed), 5 + seed % 2)
    for score in (False, True):
        problem = Problem.of(hand.position(stakes=score), score=score)
        fast = _api.search(problem, want_values=True, compiled=True)
        slow = _api.search(problem, want_values=True, compiled=True, use_table=False, merge=False)
        assert fast == slow, hand.actions


@pytest.mark.parametrize("seed", range(12))
def test_the_python_search_gives_the_values_of_its_slow_configuration(seed: int) -> None:
    hand = endgame(random.Random(seed), 3 + seed % 2)
    for score in (False, True):
        problem = Problem.of(hand.position(stakes=score), score=score)
        slow = Search(problem, use_table=False, merge=False).values()
        assert Search(problem).values() == slow, hand.actions


# --------------------------------------------------------------------------- the score


def test_the_utility_tables_are_the_engines_results() -> None:
    """Hands played out at random: the table of the outcome of their declarations, at their
    NS points and trick state, is what their result writes."""
    rng = random.Random(3)
    for _ in range(300):
        hand = hand_in_play(rng)
        while hand.trick_number < 1:
            hand.apply(rng.choice(hand.legal_actions()))
        problem = Problem.of(hand.position(stakes=True), score=True)
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_actions()))
        ns = hand.card_points()[0]
        tricks = hand.tricks_won
        state = NS_ALL if tricks[1] == 0 else EW_ALL if tricks[0] == 0 else NEITHER
        table = problem.tables[problem.outcome]
        assert table[ns * 3 + state] == ns_result(hand, Mode.SCORE)


def test_the_searchs_project_winner_is_the_engines() -> None:
    """Random declarations in trick 1, made through the engine: before the last card of the
    trick, the team the search credits with the projects (from the ranks of what was
    declared) is the engine's project winner, and after it the problem's table is that
    team's."""
    rng = random.Random(9)
    checked = 0
    while checked < 300:
        hand = hand_in_play(rng)
        if not Problem.of(hand.position(stakes=True), score=True).pending:
            continue
        while len(hand.current_trick) < 3 or hand.declared(hand.to_act or Seat.N) is None:
            legal = hand.legal_actions()
            declares = [a for a in legal if a.verb is Verb.DECLARE]
            if declares and rng.random() < 0.7:
                hand.apply(rng.choice(declares))
            elif len(hand.current_trick) < 3:
                hand.apply(legal[-1])
            else:
                break
        stakes = hand.position(stakes=True).stakes
        assert stakes is not None
        winner = stakes.project_winner
        expected = 0 if winner < 0 else 1 + (winner & 1)
        problem = Problem.of(hand.position(stakes=True), score=True, root_declares=False)
        assert Search(problem).outcome(problem.declared) == expected
        hand.apply(next(a for a in hand.legal_actions() if a.card is not None))
        assert Problem.of(hand.position(stakes=True), score=True).outcome == expected
        checked += 1


@pytest.mark.parametrize("seed", range(16))
def test_declarations_in_trick_one_are_searched_as_the_engine_plays_them(seed: int) -> None:
    """In trick 1 with two or three cards played, the seats still to play choose a declaration
    (or none) and a card through the engine; from the end of the trick on the solver values
    the hand with the engine's project winner. That is what values() finds in one search."""
    rng = random.Random(f"declare {seed}")
    while True:
        hand = hand_in_play(rng)
        while len(hand.current_trick) < 2 + seed % 2:
            plays = [a for a in hand.legal_actions() if a.card is not None]
            declares = [a for a in hand.legal_actions() if a.verb is Verb.DECLARE]
            declare = declares and rng.random() < 0.5
            hand.apply(rng.choice(declares) if declare else rng.choice(plays))
        if Problem.of(hand.position(stakes=True), score=True).pending:
            break

    def ns_value(h: Hand) -> int:
        if h.trick_number >= 1:
            v = solve(h)
            return -v if int(h.to_act or 0) & 1 else v
        maximising = int(h.to_act or 0) & 1 == 0
        found = []
        for action in h.legal_actions():
            h.apply(action)
            found.append(ns_value(h))
            h.undo()
        return max(found) if maximising else min(found)

    sign = -1 if int(hand.to_act or 0) & 1 else 1
    expected = {}
    for action in hand.legal_actions():
        hand.apply(action)
        expected[action] = sign * ns_value(hand)
        hand.undo()
    assert values(hand) == expected
    assert solve(hand) == max(expected.values())


def test_a_gahwa_is_worth_the_match() -> None:
    rng = random.Random(21)
    while True:
        hand = endgame(rng, 3)
        contract = hand.contract
        if contract is not None and contract.level == Level.GAHWA:
            break
    found = values(hand)
    assert set(found.values()) <= {-1, 1}
    assert found == oracle(hand, Mode.SCORE)


# --------------------------------------------------------------------------- the interface


def test_values_name_every_legal_action_in_order_with_ekka_and_declarations() -> None:
    rng = random.Random(2)
    seen_ekka = seen_declare = False
    for n in range(40):
        hand = endgame(rng, 2) if n % 2 else hand_in_play(rng)
        if n % 2 == 0 and rng.random() < 0.5:
            while hand.trick_number < 5 and not any(a.ekka for a in hand.legal_actions()):
                hand.apply(rng.choice(hand.legal_actions()))
            if hand.trick_number >= 5:
                continue
        found = values(hand, Mode.POINTS)
        assert list(found) == list(hand.legal_actions())
        seen_ekka |= any(a.ekka for a in found)
        seen_declare |= any(a.verb is Verb.DECLARE for a in found)
    assert seen_ekka and seen_declare


def test_a_declaration_changes_no_card_points() -> None:
    rng = random.Random(8)
    while True:
        hand = hand_in_play(rng)
        if any(a.verb is Verb.DECLARE for a in hand.legal_actions()):
            break
    found = values(hand, Mode.POINTS)
    best = max(found.values())
    assert all(v == best for a, v in found.items() if a.verb is Verb.DECLARE)
    assert solve(hand, "points") == best


def test_the_solver_wants_a_hand_in_its_play_phase() -> None:
    hand = Hand.new(rng=random.Random(1))
    with pytest.raises(ValueError, match="play phase, not bidding-1"):
        solve(hand)
    with pytest.raises(ValueError, match="is not a valid Mode"):
        solve(hand_in_play(random.Random(1)), "tricks")


def test_the_written_score_is_searched_on_a_position_taken_with_its_stakes() -> None:
    hand = hand_in_play(random.Random(2))
    with pytest.raises(ValueError, match="taken with its stakes"):
        Problem.of(hand.position(), score=True)
    assert Problem.of(hand.position(stakes=True), score=True).score
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    with pytest.raises(ValueError, match="a card to play"):
        Problem.of(hand.position(), score=False)


@needs_compiled
def test_the_environment_forces_the_python_search(python_only: None) -> None:
    assert not accelerated()


def full_deal(seed: int, bid: str) -> Hand:
    """A deal at its first lead: N's bid, every other call a pass."""
    hand = Hand.new(rng=random.Random(seed), rules=Rules(), dealer="E")
    hand.apply(bid)
    while hand.phase is not Phase.PLAYING:
        hand.apply(next(a for a in hand.legal_actions() if a.verb is Verb.PASS))
    return hand


@pytest.mark.parametrize("bid", ["N hokum", "N sun"])
def test_a_full_deal_is_solved_at_its_first_lead(bid: str) -> None:
    """The best value of the first lead is the solve value; card points and score agree on
    which team the deal favours when the score is not a tie."""
    hand = full_deal(4, bid)
    points, score = values(hand, Mode.POINTS), values(hand, Mode.SCORE)
    assert list(points) == list(score) == list(hand.legal_actions())
    assert solve(hand, Mode.POINTS) == max(points.values())
    assert solve(hand, Mode.SCORE) == max(score.values())


@pytest.mark.slow
@needs_compiled
@pytest.mark.parametrize(("seed", "bid"), [(7, "N hokum"), (0, "N sun")])
def test_full_deals_are_solved_the_same_way_on_both_searches(seed: int, bid: str) -> None:
    """At the first lead of a full deal, the pure Python search (seconds to minutes) gives
    the compiled search's values."""
    hand = full_deal(seed, bid)
    for mode in Mode:
        for _ in on(True):
            compiled = values(hand, mode)
        for _ in on(False):
            assert values(hand, mode) == compiled
