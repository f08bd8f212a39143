"""baloot.rl: the PettingZoo environment, the OpenSpiel game, the action space, the observation."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from helpers import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from baloot import Action, Hand, Rules, RulesError, Seat, SeatView  # noqa: E402
from baloot.bots.worlds import WorldSampler  # noqa: E402
from baloot.rl import (  # noqa: E402
    LAYOUT,
    NUM_ACTIONS,
    OFFSETS,
    SIZE,
    VERSION,
    VectorEnv,
    action_at,
    aec_env,
    encode,
    index_of,
    random_actions,
    register_openspiel,
    tracker_table,
)
from baloot.rl import tracker as tracking  # noqa: E402
from baloot.rl.action_space import indices  # noqa: E402
from baloot.rl.tracker import COMPILED, TABLE_SIZE, Tracker, observe_rows  # noqa: E402

DOCS = ROOT / "docs" / "rl.md"


def random_hands(count: int, seed: int = 0) -> list[Hand]:
    """Hands played at random to their end, under random rules."""
    hands = []
    for i in range(count):
        rng = random.Random(seed * 1000 + i)
        hand = Hand.new(rng=rng, dealer=Seat(i % 4), rules=Rules.random(rng))
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_actions()))
        hands.append(hand)
    return hands


def positions(hand: Hand) -> list[Hand]:
    """The hand before each of its actions."""
    replay = Hand(list(hand.deck), hand.dealer, hand.rules)
    found = []
    for action in hand.actions:
        found.append(replay.copy())
        replay.apply(action)
    return found


# ------------------------------------------------------------------ the action space


def test_every_index_is_one_action_of_each_seat_and_back() -> None:
    for seat in Seat:
        actions = [action_at(i, seat) for i in range(NUM_ACTIONS)]
        assert len(set(actions)) == NUM_ACTIONS
        assert all(a.seat == seat for a in actions)
        assert [index_of(a) for a in actions] == list(range(NUM_ACTIONS))


def test_every_legal_action_of_random_hands_has_its_index() -> None:
    for hand in random_hands(30):
        for position in positions(hand):
            for action in position.legal_actions():
                assert action_at(index_of(action), action.seat) == action


def test_an_index_out_of_range_or_a_declaration_with_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="0–99, not 100"):
        action_at(100, Seat.N)
    with pytest.raises(ValueError, match="no index"):
        index_of(Action.parse("N declare sira:QhJhTh"))


# ------------------------------------------------------------------ the observation


def test_the_layout_is_contiguous_and_docs_list_every_slice() -> None:
    offset = 0
    for part in LAYOUT:
        assert OFFSETS[part.name] == offset
        offset += part.size
    assert offset == SIZE
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", DOCS.read_text(), re.M)
    assert [(name, int(at), int(size)) for name, at, size in rows] == [
        (part.name, OFFSETS[part.name], part.size) for part in LAYOUT
    ]
    assert f"version {VERSION}" in DOCS.read_text()


def test_observations_lie_in_the_unit_interval() -> None:
    for hand in random_hands(10, seed=1):
        for position in positions(hand)[::3]:
            for seat in Seat:
                vector = encode(SeatView.of(position, seat))
                assert vector.dtype == np.float32 and vector.shape == (SIZE,)
                assert vector.min() >= 0.0 and vector.max() <= 1.0


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_hidden_cards_never_change_the_observation(seed: int) -> None:
    """Every world the sampler deals for a seat's view (the hidden cards dealt again, the
    same actions heard) gives that seat the observation of the real hand: no hidden card
    reaches the vector."""
    rng = random.Random(seed)
    hand = Hand.new(rng=rng, dealer=Seat(rng.randrange(4)), rules=Rules.random(rng))
    for _ in range(rng.randrange(60)):
        if hand.is_over:
            break
        hand.apply(rng.choice(hand.legal_actions()))
    seat = hand.to_act or Seat(rng.randrange(4))
    view = SeatView.of(hand, seat)
    expected = encode(view)
    sampler = WorldSampler(view)
    for _ in range(3):
        other = sampler.world(rng)
        assert np.array_equal(encode(SeatView.of(other, seat)), expected)


def test_the_worlds_of_the_hidden_card_test_do_deal_other_cards() -> None:
    """The property above is not idle: the worlds it compares hold other hidden cards."""
    rng = random.Random(1)
    hand = Hand.new(rng=rng)
    for _ in range(12):
        hand.apply(rng.choice(hand.legal_actions()))
    seat = hand.to_act
    assert seat is not None
    worlds = [WorldSampler(SeatView.of(hand, seat)).world(rng) for _ in range(3)]
    assert any(w.hand(s) != hand.hand(s) for w in worlds for s in Seat if s != seat)


def test_a_spectators_view_has_no_observation() -> None:
    with pytest.raises(ValueError, match="spectator"):
        encode(SeatView.of(Hand.new(rng=random.Random(1)), None))


# ------------------------------------------------------------------ the PettingZoo environment


@pytest.mark.filterwarnings("ignore::UserWarning")  # its advice on names and Dict spaces
def test_pettingzoo_api_test_passes_for_hands_and_matches() -> None:
    api_test(aec_env(seed=1), num_cycles=200)
    api_test(aec_env(seed=2, reward="match", rules="federation"), num_cycles=400)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: aec_env(), num_cycles=100)


def play(env: Any, rng: random.Random) -> dict[str, float]:
    """Random legal actions until every agent is done; each agent's total reward."""
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert list(np.flatnonzero(mask)) == indices(env.unwrapped.hand.legal_actions())
        env.step(rng.choice(list(np.flatnonzero(mask))))
    return totals


def test_a_hand_pays_each_team_its_written_score_difference() -> None:
    env = aec_env(seed=11)
    for _ in range(5):
        env.reset()
        totals = play(env, random.Random(3))
        score = env.unwrapped.hand.result().score or (0, 0)
        assert totals["N"] == totals["S"] == score[0] - score[1]
        assert totals["W"] == totals["E"] == score[1] - score[0]


def test_a_match_pays_the_winners_one_and_the_losers_minus_one() -> None:
    env = aec_env(seed=4, reward="match")
    env.reset()
    totals = play(env, random.Random(4))
    assert sorted(totals.values()) == [-1.0, -1.0, 1.0, 1.0]
    assert totals["N"] == totals["S"]


def test_the_same_seed_deals_the_same_hands() -> None:
    decks = []
    for _ in range(2):
        env = aec_env(seed=9)
        env.reset()
        first = env.unwrapped.hand.deck
        env.reset()
        decks.append((first, env.unwrapped.hand.deck))
    assert decks[0] == decks[1] and decks[0][0] != decks[0][1]
    env.reset(seed=9)
    assert env.unwrapped.hand.deck == decks[0][0]


def test_variant_flags_are_options_and_a_wrong_one_is_one_line() -> None:
    env = aec_env(rules="federation", must_undertrump=True)
    assert env.unwrapped.rules == Rules.federation().replace(must_undertrump=True)
    with pytest.raises(RulesError, match="unknown rule flag 'undertrump'"):
        aec_env(undertrump=True)
    with pytest.raises(ValueError, match="reward is 'hand' or 'match'"):
        aec_env(reward="points")


def test_ansi_rendering_is_one_line_of_the_hand_and_other_modes_are_refused() -> None:
    env = aec_env(seed=6, render_mode="ansi", reward="match")
    env.reset()
    text = env.render()
    assert text.startswith("<Hand dealer=") and text.endswith("match NS 0 EW 0")
    quiet = aec_env(seed=6)
    quiet.reset()
    assert quiet.render() is None
    with pytest.raises(ValueError, match="render_mode is None or 'ansi', not 'human'"):
        aec_env(render_mode="human")


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = aec_env(seed=2)
    env.reset()
    before = env.unwrapped.hand.actions
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="is not legal now"):
        env.step(illegal)
    assert env.unwrapped.hand.actions == before


def test_importing_baloot_loads_neither_numpy_nor_the_rl_package() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys, baloot; print(sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "'numpy'" not in done.stdout and "baloot.rl" not in done.stdout


# ------------------------------------------------------------------ the OpenSpiel game


def baloot_game(**params: Any) -> Any:
    register_openspiel()
    return pyspiel.load_game("python_baloot", params)


def dealt(game: Any, rng: random.Random, decisions: int = 0) -> Any:
    """A state after the deal and ``decisions`` random decisions."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_openspiel_random_sim_test_passes() -> None:
    register_openspiel()
    register_openspiel()
    pyspiel.random_sim_test(baloot_game(), num_sims=2, serialize=False, verbose=False)


def test_the_game_takes_the_variant_flags_and_the_dealer() -> None:
    game = baloot_game(must_undertrump=True, baloot_on_loss="keep", dealer="S")
    assert game.rules == Rules().replace(must_undertrump=True, baloot_on_loss="keep")
    assert dealt(game, random.Random(1)).current_player() == int(Seat.E)


def looks_the_same(player: int, one: Any, other: Any) -> bool:
    """True when ``player``'s information state and observation are the same in both."""
    return bool(
        one.information_state_string(player) == other.information_state_string(player)
        and one.information_state_tensor(player) == other.information_state_tensor(player)
        and one.observation_string(player) == other.observation_string(player)
        and one.observation_tensor(player) == other.observation_tensor(player)
    )


def test_a_resampled_state_looks_the_same_to_its_seat_and_deals_other_cards() -> None:
    game = baloot_game()
    rng = random.Random(3)
    differ = 0
    for decisions in (0, 6, 20, 35):
        state = dealt(game, rng, decisions)
        if state.is_terminal():
            continue
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        for _ in range(3):
            other = state.resample_from_infostate(player, sampler)
            assert looks_the_same(player, other, state)
            assert other.legal_actions() == state.legal_actions()
            differ += other.history()[:32] != state.history()[:32]
    assert differ


def test_a_clone_keeps_the_history_and_plays_on_alone() -> None:
    state = dealt(baloot_game(), random.Random(5), 10)
    clone = state.clone()
    assert clone.history() == state.history() and str(clone) == str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert len(clone.history()) == len(state.history()) + 1


def test_openspiel_ismcts_plays_a_hand_to_its_end() -> None:
    game = baloot_game()
    state = dealt(game, random.Random(6))
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(2))
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    returns = state.returns()
    assert sum(returns) == 0 and returns[0] == returns[2]


# ------------------------------------------------------------------ the tracker


def followed(hand: Hand) -> Tracker:
    """A tracker that followed the actions of ``hand`` from its deal, on a hand of its own."""
    replay = Hand(list(hand.deck), hand.dealer, hand.rules, hand.score_before)
    tracker = Tracker(replay)
    for action in hand.actions:
        tracker.follow(replay.apply(action))
    return tracker


needs_compiled = pytest.mark.skipif(not COMPILED, reason="the compiled play is not built")
#: The tracker with the compiled play (built at install where a C compiler is) and without.
BOTH = [
    pytest.param(True, id="compiled", marks=needs_compiled),
    pytest.param(False, id="python"),
]


@pytest.mark.parametrize("compiled", BOTH)
@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_the_tracker_gives_every_seat_the_encoding_of_its_view_at_every_decision(
    compiled: bool, seed: int
) -> None:
    """Action by action through a random hand under random rules (and a random match
    score), each seat's row of the tracker is :func:`encode` of its view, value for value,
    the mask is the engine's legal actions, and so to the hand's end."""
    rng = random.Random(seed)
    before = (rng.randrange(200), rng.randrange(200))
    hand = Hand.new(rng=rng, dealer=Seat(rng.randrange(4)), rules=Rules.random(rng),
                    score_before=before)  # fmt: skip
    tracker = Tracker(hand, compiled=compiled)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    while True:
        for seat in Seat:
            assert np.array_equal(tracker.observe(seat), encode(SeatView.of(hand, seat)))
        if hand.is_over:
            break
        tracker.legal(mask)
        assert list(np.flatnonzero(mask)) == indices(hand.legal_actions())
        tracker.follow(hand.apply(hand.announced(rng.choice(hand.legal_actions()))))


@pytest.mark.skipif(not shutil.which("cc"), reason="no C compiler here")
def test_the_compiled_play_is_built_where_a_c_compiler_is() -> None:
    """The extension is optional, so a C error would only make the install quieter and the
    vector environment slower: where a compiler is, the build must have made it."""
    assert COMPILED


@needs_compiled
def test_the_compiled_play_follows_every_card_once_the_play_begins() -> None:
    """The compiled play takes over as the play begins: the plays of a hand under it write
    the same table as the Python tracker's (a check that it is used, not only correct)."""
    rng = random.Random(5)
    for _ in range(20):
        hand = Hand.new(rng=rng, rules=Rules.random(rng))
        compiled, python = Tracker(hand), Tracker(hand, compiled=False)
        used = False
        while not hand.is_over:
            applied = hand.apply(hand.announced(rng.choice(hand.legal_actions())))
            compiled.follow(applied)
            python.follow(applied)
            used |= compiled.compiled
            assert not python.compiled
            assert np.array_equal(compiled.table, python.table)
        assert used or hand.result().outcome.value == "annulled"


@needs_compiled
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda t: t.play(np.zeros(3, np.float32), np.zeros(39, np.int64), 0, 0, 0, 0, 0),
         "configured size"),
        (lambda t: t.play(np.zeros(TABLE_SIZE, np.float32), np.zeros(39, np.int64), 4, 0, 0, 0,
                          0), "a seat 0-3"),
        (lambda t: t.play(np.zeros(TABLE_SIZE, np.float32), np.full(39, 99, np.int64), 0, 0, 0,
                          0, 0), "the tracker made"),
        (lambda t: t.legal(np.zeros(39, np.int64), np.zeros(99, np.int8)), "configured size"),
        (lambda t: t.gather(np.zeros((2, TABLE_SIZE), np.float32), tracking.GATHER,
                            np.array([0, 4], np.int8), np.zeros((2, SIZE), np.float32)),
         "agree"),
        (lambda t: t.gather(np.zeros((2, TABLE_SIZE), np.float32), tracking.GATHER,
                            np.array([0, 1], np.int8), np.zeros((3, SIZE), np.float32)),
         "agree"),
    ],
    ids=["table too small", "seat out of range", "state out of range", "mask too small",
         "seat out of range in a gather", "rows that do not agree"],
)  # fmt: skip
def test_the_compiled_play_refuses_arrays_it_cannot_use(call: Any, message: str) -> None:
    """Memory it was not given is never read or written: an array of the wrong size, or a
    state whose values would index outside the table, is a ValueError."""
    module = tracker_table.TRICKS
    assert module is not None and module.STATE_SIZE == 39
    with pytest.raises(ValueError, match=message):
        call(module)


def test_each_rows_observation_is_gathered_the_same_with_and_without_compiled_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(2)
    trackers = [Tracker(Hand.new(rng=rng)) for _ in range(5)]
    tables = np.stack([tracker.table for tracker in trackers])
    seats = np.array([0, 1, 2, 3, 1], np.int8)
    found = np.zeros((5, SIZE), np.float32)
    observe_rows(tables, seats, found)
    monkeypatch.setattr(tracking, "TRICKS", None)
    expected = np.zeros((5, SIZE), np.float32)
    observe_rows(tables, seats, expected)
    assert np.array_equal(found, expected)
    for i, tracker in enumerate(trackers):
        assert np.array_equal(found[i], tracker.observe(int(seats[i])))


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_hidden_cards_never_change_the_trackers_observation(seed: int) -> None:
    """A tracker that follows a world the sampler deals for a seat (the hidden cards dealt
    again, the same actions heard) gives that seat the row of the real hand."""
    rng = random.Random(seed)
    hand = Hand.new(rng=rng, dealer=Seat(rng.randrange(4)), rules=Rules.random(rng))
    for _ in range(rng.randrange(60)):
        if hand.is_over:
            break
        hand.apply(rng.choice(hand.legal_actions()))
    seat = hand.to_act or Seat(rng.randrange(4))
    expected = followed(hand).observe(seat)
    sampler = WorldSampler(SeatView.of(hand, seat))
    for _ in range(3):
        assert np.array_equal(followed(sampler.world(rng)).observe(seat), expected)


def test_a_tracker_follows_a_hand_from_its_deal() -> None:
    hand = Hand.new(rng=random.Random(1))
    hand.apply(hand.legal_actions()[0])
    with pytest.raises(ValueError, match="from its first action"):
        Tracker(hand)


# ------------------------------------------------------------------ the vector environment


@pytest.mark.parametrize("reward", ["hand", "match"])
def test_each_row_of_the_vector_env_is_its_episodes_seat_to_act(reward: str) -> None:
    """Row by row, the observation is the encoding of the seat to act's view and the mask its
    legal actions, across the hands of a match too."""
    env = VectorEnv(6, seed=3, rules="federation", reward=reward)
    _, masks, _ = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(90):
        observations, masks, to_act, _, _ = env.step(random_actions(masks, rng))
        for i in range(env.n):
            hand = env.episode(i).hand
            assert hand.to_act == Seat(int(to_act[i]))
            view = SeatView.of(hand, hand.to_act)
            assert np.array_equal(observations[i], encode(view))
            assert list(np.flatnonzero(masks[i])) == indices(hand.legal_actions())


def test_the_vector_env_pays_each_ended_hand_and_deals_the_next() -> None:
    env = VectorEnv(8, seed=5)
    _, masks, _ = env.reset()
    rng = np.random.default_rng(2)
    ended = 0
    while ended < 12:
        before = [env.episode(i).hand for i in range(env.n)]
        _, masks, _, rewards, done = env.step(random_actions(masks, rng))
        for i in np.flatnonzero(done).tolist():
            score = before[i].result().score or (0, 0)
            assert rewards[i].tolist() == [score[0] - score[1], score[1] - score[0]] * 2
            assert env.episode(i).hand is not before[i] and not env.episode(i).hand.actions
            ended += 1
        assert not rewards[~done].any()


def test_a_vector_env_of_matches_pays_plus_or_minus_one() -> None:
    env = VectorEnv(2, seed=7, reward="match")
    _, masks, _ = env.reset()
    rng = np.random.default_rng(3)
    paid: list[list[float]] = []
    while len(paid) < 2:
        _, masks, _, rewards, done = env.step(random_actions(masks, rng))
        paid.extend(rewards[i].tolist() for i in np.flatnonzero(done))
    assert all(sorted(pay) == [-1.0, -1.0, 1.0, 1.0] and pay[0] == pay[2] for pay in paid)


def test_the_same_seed_runs_the_vector_env_the_same() -> None:
    runs = []
    for _ in range(2):
        env = VectorEnv(4, seed=11)
        _, masks, _ = env.reset()
        rng = np.random.default_rng(4)
        seen = []
        for _ in range(40):
            observations, masks, to_act, rewards, done = env.step(random_actions(masks, rng))
            seen.append((observations.copy(), to_act.copy(), rewards.copy(), done.copy()))
        runs.append(seen)
    assert all(
        all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))
        for one, two in zip(*runs, strict=True)
    )


def test_a_wrong_action_in_any_row_is_refused_before_any_is_applied() -> None:
    env = VectorEnv(3, seed=2)
    _, masks, _ = env.reset()
    before = [env.episode(i).hand.actions for i in range(3)]
    actions = random_actions(masks, np.random.default_rng(5))
    actions[2] = int(np.flatnonzero(masks[2] == 0)[0])
    with pytest.raises(ValueError, match="not legal in episode 2"):
        env.step(actions)
    with pytest.raises(ValueError, match="actions are 3 integers"):
        env.step([0, 1])
    assert [env.episode(i).hand.actions for i in range(3)] == before
    with pytest.raises(ValueError, match="at least 1"):
        VectorEnv(0)
