"""The ``neural`` bot: the shipped weights load (NumPy only, the layout they were made for,
their card beside them) and play whole legal matches; it plays the heuristic bot's card unless
the network values another more by the trained margin (without the prior, the network's
best); it is in the registry, takes its two options and refuses others in one line; its
decisions can be sent to the bot workers; a short training run on a tiny self-play folder
writes weights it can read, with its prior's margin; and renaming the suits of a hand renames
its observation and legal actions, as the training's renamings assume."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import numpy as np
import pytest
from helpers import ROOT

from baloot.bots.arena import ArenaConfig, play_pair
from baloot.bots.base import available_bots, check_bot_name, make_bot
from baloot.bots.decisions import DecisionTask, decide
from baloot.bots.heuristic import HeuristicBot
from baloot.bots.names import BotOptions, UnknownBotError
from baloot.core.cards import CARDS, Card, Suit
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase
from baloot.rl.action_space import index_of
from baloot.rl.network import CARD_FILE, WEIGHTS, WEIGHTS_FILE, shipped
from baloot.rl.network import shipped_card as card_of_weights
from baloot.rl.neural import NeuralBot
from baloot.rl.observation import SIZE, VERSION, encode
from baloot.rl.suits import PERMUTATIONS, averaged, contracts, renamings
from baloot.view.seat_view import SeatView

PACKAGE = ROOT / "src" / "baloot" / "rl" / WEIGHTS
SCRIPT = ROOT / "scripts" / "train_neural.py"


def test_the_shipped_weights_are_small_and_made_for_this_layout() -> None:
    network = shipped()
    assert (PACKAGE / WEIGHTS_FILE).stat().st_size < 5_000_000
    assert network.meta["layout_version"] == VERSION
    assert network.layers[0][0].shape[0] == SIZE and network.layers[-1][0].shape[1] == 100
    card = card_of_weights()
    assert card == json.loads((PACKAGE / CARD_FILE).read_text(encoding="utf-8"))
    assert card["network"]["layout_version"] == VERSION
    assert all(data["layout_version"] == VERSION for data in card["data"])
    assert card["data"][0]["format"] == "baloot-selfplay/1" and card["data"][0]["hands"] > 0


def test_the_match_score_is_not_read() -> None:
    hand = Hand.new(rng=random.Random(4))
    vector = encode(SeatView.of(hand, hand.to_act))
    other = vector.copy()
    other[shipped().zeroed] = 0.5
    assert np.array_equal(shipped()(vector), shipped()(other))


@pytest.mark.parametrize(("name", "hands"), [("neural", False), ("neural:calls=expert", True)])
def test_it_plays_whole_legal_games(name: str, hands: bool) -> None:
    pair = play_pair(ArenaConfig(name, "heuristic", pairs=1, seed=5, hands=hands), 1, 12)
    assert pair.failures == [] and pair.hands >= 2
    assert pair.sides[0].decisions > 0


def test_without_the_prior_it_plays_the_card_of_highest_predicted_value() -> None:
    hand = Hand.new(rng=random.Random(9))
    bot = make_bot("neural:prior=none,endgame=0", random.Random(1))
    assert isinstance(bot, NeuralBot)
    checked = 0
    while not hand.is_over:
        view, legal = SeatView.of(hand, hand.to_act), hand.legal_actions()
        chosen = bot.choose(view, legal)
        plays = [a for a in legal if a.verb.value == "play"]
        if hand.phase is Phase.PLAYING and len(plays) == len(legal) > 1:
            values = bot.values(view)
            assert values[index_of(chosen)] == max(values[index_of(a)] for a in plays)
            checked += 1
        hand.apply(hand.announced(chosen))
    assert checked > 5


def test_it_plays_the_heuristic_bots_card_unless_the_network_sees_one_better_by_its_margin() -> (
    None
):
    margin = shipped().meta["prior"]["margin"]
    hand = Hand.new(rng=random.Random(9))
    bot = NeuralBot(random.Random(1), BotOptions.parse("endgame=0", bot="neural"))
    kept = overruled = 0
    while not hand.is_over:
        view, legal = SeatView.of(hand, hand.to_act), hand.legal_actions()
        twin = HeuristicBot(random.Random())
        twin.rng.setstate(bot.rng.getstate())  # the heuristic bot inside draws from it
        heuristic = twin.choose(view, legal)
        chosen = bot.choose(view, legal)
        plays = [a for a in legal if a.verb.value == "play"]
        if hand.phase is Phase.PLAYING and len(plays) == len(legal) > 1:
            values = bot.values(view)
            best = max(float(values[index_of(a)]) for a in plays)
            gain = best - float(values[index_of(heuristic)])
            if chosen == heuristic:
                assert gain <= margin
                kept += 1
            else:
                assert gain > margin and float(values[index_of(chosen)]) == best
                overruled += 1
        hand.apply(hand.announced(chosen))
    assert kept > 5


def test_it_is_registered_with_its_option_and_refuses_others() -> None:
    assert "neural" in available_bots()
    assert make_bot("neural", random.Random(1)).name == "neural"
    check_bot_name("neural:calls=expert")
    with pytest.raises(UnknownBotError, match="has no option 'deep'"):
        make_bot("neural:deep", random.Random(1))
    with pytest.raises(UnknownBotError, match="calls is heuristic or expert or network"):
        check_bot_name("neural:calls=random")
    check_bot_name("neural:prior=none")
    with pytest.raises(UnknownBotError, match="prior is heuristic or none"):
        check_bot_name("neural:prior=random")


def test_a_decision_sent_to_a_worker_is_the_bots_own() -> None:
    hand = Hand.new(rng=random.Random(2))
    bot, twin = make_bot("neural", random.Random(5)), make_bot("neural", random.Random(5))
    while not hand.is_over:
        view, legal = SeatView.of(hand, hand.to_act), hand.legal_actions()
        decision = decide(DecisionTask.of(bot, view, legal, seconds=60))
        decision.restore(bot)
        assert decision.action == twin.choose(view, legal)
        assert bot.rng.getstate() == twin.rng.getstate()  # type: ignore[attr-defined]
        hand.apply(hand.announced(decision.action))


def test_its_options_load_weights_of_ones_own_and_bound_the_search(tmp_path: Path) -> None:
    own = tmp_path / "mine.npz"
    own.write_bytes((PACKAGE / WEIGHTS_FILE).read_bytes())
    bot = make_bot(f"neural:weights={own}", random.Random(1))
    assert isinstance(bot, NeuralBot) and bot.network is not shipped()
    assert np.array_equal(bot.network.layers[0][0], shipped().layers[0][0])
    with pytest.raises(UnknownBotError, match="no weights file"):
        make_bot(f"neural:weights={tmp_path / 'none.npz'}", random.Random(1))
    (tmp_path / "text.npz").write_text("not weights", encoding="utf-8")
    with pytest.raises(UnknownBotError, match="is not a network's weights"):
        make_bot(f"neural:weights={tmp_path / 'text.npz'}", random.Random(1))
    # a web table names no file of the server's machine
    with pytest.raises(UnknownBotError, match="option 'weights' is not taken at a web table"):
        check_bot_name(f"neural:weights={own}", programs=False, bounded=True)
    check_bot_name("neural:endgame=3,draws=64,average=24,calls=expert", bounded=True)
    for bad in ("endgame=4", "draws=65", "average=25"):
        with pytest.raises(UnknownBotError, match="is at most"):
            check_bot_name(f"neural:{bad}", bounded=True)
    for bad in ("endgame=4", "draws=65", "draws=0", "average=25"):
        with pytest.raises(UnknownBotError, match="takes a whole number from"):
            check_bot_name(f"neural:{bad}")


def test_with_calls_from_the_network_it_makes_the_call_the_network_values_most() -> None:
    hand = Hand.new(rng=random.Random(3))
    bot = make_bot("neural:calls=network", random.Random(1))
    assert isinstance(bot, NeuralBot)
    checked = 0
    while hand.phase is not Phase.PLAYING and not hand.is_over:
        view, legal = SeatView.of(hand, hand.to_act), hand.legal_actions()
        chosen = bot.choose(view, legal)
        values = bot.values(view)
        assert values[index_of(chosen)] == max(values[index_of(a)] for a in legal)
        checked += 1
        hand.apply(hand.announced(chosen))
    assert checked >= 1


@pytest.mark.parametrize("seed", range(4))
def test_values_averaged_over_every_naming_of_the_suits_do_not_depend_on_the_names(
    seed: int,
) -> None:
    """In a Sun every renaming keeps the game: averaged over all of them, the network's
    values of a renamed position are the renamed values."""
    hand = Hand.new(rng=random.Random(seed))
    while hand.phase is not Phase.PLAYING or hand.contract.trump is not None:  # type: ignore[union-attr]
        sun = [a for a in hand.legal_actions() if a.verb.value == "sun"]
        hand.apply(sun[0] if sun else hand.legal_actions()[0])
        if hand.is_over:
            pytest.skip("no Sun in this deal")
    x = encode(SeatView.of(hand, hand.to_act))
    observation, actions, _ = renamings()
    k = 1 + seed * 5
    plain = averaged(shipped(), x, 24)
    renamed = averaged(shipped(), x[observation[k]], 24)
    assert renamed == pytest.approx(plain[actions[k]], abs=1e-4)
    assert not np.allclose(shipped()(x[observation[k]]), shipped()(x)[actions[k]], atol=1e-4)


@pytest.mark.parametrize("seed", range(12))
def test_renaming_the_suits_renames_the_observation_and_the_legal_actions(seed: int) -> None:
    """A hand dealt and played with its suits renamed (the trump kept in a Hokum) gives every
    seat the renamed observation and the renamed legal actions: what training relies on."""
    rng = random.Random(seed)
    hand = Hand.new(rng=rng)
    played = []
    while not hand.is_over and not (hand.phase is Phase.PLAYING and hand.trick_number >= 2):
        action = hand.announced(rng.choice(hand.legal_actions()))
        hand.apply(action)
        played.append(action)
    if hand.is_over:
        return
    observation, actions, allowed = renamings()
    k = int(allowed[int(contracts(encode(SeatView.of(hand, Seat.N)))), rng.randrange(24)])
    perm = PERMUTATIONS[k]

    def card(c: Card) -> Card:
        return CARDS[perm[int(c.suit)] * 8 + c.index % 8]

    renamed = Hand.from_deck([card(c) for c in hand.deck], dealer=hand.dealer, rules=hand.rules)
    for action in played:
        changes: dict[str, object] = {}
        if action.card is not None:
            changes["card"] = card(action.card)
        if action.suit is not None:
            changes["suit"] = Suit(perm[int(action.suit)])
        renamed.apply(dataclasses.replace(action, **changes))  # type: ignore[arg-type]
    for seat in Seat:
        mine = encode(SeatView.of(hand, seat))
        assert np.array_equal(mine[observation[k]], encode(SeatView.of(renamed, seat)))
    mask, other = np.zeros(100), np.zeros(100)
    mask[[index_of(a) for a in hand.legal_actions()]] = 1
    other[[index_of(a) for a in renamed.legal_actions()]] = 1
    assert np.array_equal(mask[actions[k]], other)
