"""Property tests of the engine through its public API: random legal play under random rules.

A game is drawn as a seed (every choice comes from ``random.Random(seed)``), a value for every
flag of :class:`baloot.core.rules.Rules`, a dealer and the match totals before the hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baloot import Action, Card, CardSet, Hand, Phase, Rules, Seat, Suit, Verb
from baloot.core._state import (
    MUTABLE,
    PLAY_MUTABLE,
    play_restore,
    play_snapshot,
    restore,
    snapshot,
)
from baloot.core.errors import IllegalActionError
from baloot.core.match import Match
from baloot.core.rules import CHOICES, FLAG_NAMES
from baloot.core.vocabulary import ContractKind, Level, Outcome
from baloot.records.record import Record, loads
from baloot.records.replay import replay
from baloot.records.summary import hand_json
from baloot.records.writer import dumps
from baloot.view.seat_view import SeatView, heard

MAX_ACTIONS = 200  # a hand has far fewer decisions than this

# R2.3, written out again so that the engine is checked against the spec and not itself.
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
# R2.2, high to low.
PLAIN_ORDER = "ATKQJ987"
TRUMP_ORDER = "J9ATKQ87"

rules_strategy: st.SearchStrategy[Rules] = st.fixed_dictionaries(
    {
        name: st.sampled_from(CHOICES[name]) if name in CHOICES else st.booleans()
        for name in sorted(FLAG_NAMES)
    }
).map(lambda flags: Rules().replace(**flags))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
dealers = st.sampled_from(list(Seat))
# Totals that have not decided a match (#36), with weight on the Sun-double borders (R8.4).
totals = st.sampled_from([0, 40, 99, 100, 101, 120, 151]) | st.integers(0, 151)
scores_before = st.tuples(totals, totals)

State = tuple[object, ...]


def state(hand: Hand) -> State:
    """Everything a caller can observe of a hand."""
    return (
        hand.legal_actions(),
        hand.to_act,
        hand.phase,
        tuple(hand.hand(s) for s in Seat),
        tuple(hand.full_hand(s) for s in Seat),
        hand.result(),
        hand_json(hand.result()),
        tuple(hand.actions),
        tuple(hand.current_trick),
        hand.trick_number,
        hand.contract,
        tuple(hand.declared(s) for s in Seat),
        hand.shown_projects(),
    )


def new_hand(
    seed: int, rules: Rules, dealer: Seat, before: tuple[int, int]
) -> tuple[Hand, random.Random]:
    rng = random.Random(seed)
    return Hand.new(rng=rng, dealer=dealer, rules=rules, score_before=before), rng


def pick(hand: Hand, legal: Sequence[Action], rng: random.Random) -> Action:
    """A random legal action. During the bidding, Sun and Ashkal are mostly avoided: uniform
    calls end almost every hand in Sun (every take-over offer is a coin toss), which would leave
    the Hokum rules of play little exercised."""
    if hand.contract is None and rng.random() < 0.8:
        calm = [a for a in legal if a.verb not in (Verb.SUN, Verb.ASHKAL)]
        if calm:
            return rng.choice(calm)
    return rng.choice(legal)


def play_out(
    hand: Hand, rng: random.Random, before_each: Callable[[Hand], None] | None = None
) -> None:
    """Random legal actions until the hand ends; fails if it does not end."""
    for _ in range(MAX_ACTIONS):
        if hand.is_over:
            return
        legal = hand.legal_actions()
        assert legal, f"no legal action in {hand!r}"
        if before_each is not None:
            before_each(hand)
        action = pick(hand, legal, rng)
        assert hand.apply(action) == action
        assert hand.actions[-1] == action
    raise AssertionError(f"the hand did not end after {MAX_ACTIONS} actions")


def plays(hand: Hand) -> list[tuple[Seat, Card]]:
    """The cards played so far, in order."""
    out = []
    for action in hand.actions:
        if action.verb is Verb.PLAY:
            assert action.card is not None
            out.append((action.seat, action.card))
    return out


def points(cards: list[Card], trump: Suit | None) -> int:
    total = 0
    for card in cards:
        letter = card.text[0]
        total += TRUMP_POINTS[letter] if card.suit == trump else PLAIN_POINTS[letter]
    return total


def trick_winner(trick: list[tuple[Seat, Card]], trump: Suit | None) -> Seat:
    """R9.2: the highest trump, else the highest card of the suit led."""
    trumps = [(s, c) for s, c in trick if c.suit == trump]
    if trumps:
        return min(trumps, key=lambda sc: TRUMP_ORDER.index(sc[1].text[0]))[0]
    led = trick[0][1].suit
    followers = [(s, c) for s, c in trick if c.suit == led]
    return min(followers, key=lambda sc: PLAIN_ORDER.index(sc[1].text[0]))[0]


def expected_tricks_and_points(hand: Hand) -> tuple[tuple[int, int], tuple[int, int]]:
    """Tricks and card points of the completed tricks, worked out from the plays alone."""
    contract = hand.contract
    trump = None if contract is None else contract.trump
    played = plays(hand)
    tricks = [0, 0]
    cards_won = [0, 0]
    complete = len(played) // 4
    for k in range(complete):
        trick = played[4 * k : 4 * k + 4]
        team = trick_winner(trick, trump).team
        tricks[team] += 1
        cards_won[team] += points([c for _, c in trick], trump)
        if k == 7:
            cards_won[team] += 10
    return (tricks[0], tricks[1]), (cards_won[0], cards_won[1])


# ---------------------------------------------------------------------- random play


@given(seeds, rules_strategy, dealers, scores_before)
def test_random_legal_play_never_raises_and_always_ends(
    seed: int, rules: Rules, dealer: Seat, before: tuple[int, int]
) -> None:
    hand, rng = new_hand(seed, rules, dealer, before)

    def every_listed_action_is_accepted(h: Hand) -> None:
        legal = h.legal_actions()
        assert len(set(legal)) == len(legal), "an action is listed twice"
        for action in legal:
            assert action.seat == h.to_act
            h.copy().apply(action)

    play_out(hand, rng, every_listed_action_is_accepted)
    assert hand.phase is Phase.OVER
    assert hand.to_act is None
    assert hand.legal_actions() == ()
    assert hand.result().outcome in (Outcome.PLAYED, Outcome.ANNULLED)
    with pytest.raises(IllegalActionError):
        hand.apply(Action(Seat.N, Verb.PASS))


@given(seeds, rules_strategy, dealers, scores_before)
def test_32_cards_are_conserved_at_every_step(
    seed: int, rules: Rules, dealer: Seat, before: tuple[int, int]
) -> None:
    hand, rng = new_hand(seed, rules, dealer, before)
    deck = hand.deck
    assert len(set(deck)) == 32

    def conserved(h: Hand) -> None:
        played = plays(h)
        played_cards = CardSet(c for _, c in played)
        assert len(played_cards) == len(played) == 4 * h.trick_number + len(h.current_trick)
        held = [h.hand(s) for s in Seat]
        if h.taker is None:  # before the deal is completed: card 21 on up lie on the table
            undealt = CardSet(deck[20:])
            assert [len(cards) for cards in held] == [5, 5, 5, 5]
        else:
            undealt = CardSet()
            assert h.exposed in h.full_hand(h.taker)
            for seat in Seat:
                own_plays = CardSet(c for s, c in played if s == seat)
                assert len(h.full_hand(seat)) == 8
                assert held[seat] | own_plays == h.full_hand(seat)
                assert not held[seat] & own_plays
        parts = [*held, played_cards, undealt]
        union = CardSet()
        for part in parts:
            union = union | part
        assert sum(len(p) for p in parts) == 32, "a card is in two places"
        assert union == CardSet.full()

    play_out(hand, rng, conserved)
    conserved(hand)


@given(seeds, rules_strategy, dealers, scores_before)
def test_card_points_of_a_played_hand_are_162_or_130(
    seed: int, rules: Rules, dealer: Seat, before: tuple[int, int]
) -> None:
    hand, rng = new_hand(seed, rules, dealer, before)

    def tricks_and_points_so_far(h: Hand) -> None:
        result = h.result()
        assert (result.tricks, result.card_points) == expected_tricks_and_points(h)

    play_out(hand, rng, tricks_and_points_so_far)
    result = hand.result()
    if result.outcome is Outcome.ANNULLED:
        assert result.card_points == (0, 0) and result.tricks == (0, 0)
        return
    assert result.contract is not None
    assert (result.tricks, result.card_points) == expected_tricks_and_points(hand)
    assert sum(result.tricks) == 8
    assert sum(result.card_points) == (162 if result.contract.kind is ContractKind.HOKUM else 130)


@given(seeds, rules_strategy, dealers, scores_before)
def test_scores_are_non_negative(
    seed: int, rules: Rules, dealer: Seat, before: tuple[int, int]
) -> None:
    hand, rng = new_hand(seed, rules, dealer, before)
    play_out(hand, rng)
    result = hand.result()
    assert result.score is not None
    assert min(result.score) >= 0
    if result.outcome is Outcome.ANNULLED:
        assert result.score == (0, 0) and result.made is None and result.contract is None
        return
    assert isinstance(result.made, bool)
    if result.kaboot is not None:
        assert result.tricks[result.kaboot] == 8
    assert result.contract is not None
    if result.contract.level is Level.GAHWA:  # #27
        assert result.score == (0, 0) and result.gahwa_winner is not None


# ---------------------------------------------------------------------- undo and copy


@given(seeds, rules_strategy, dealers, scores_before)
def test_undo_restores_the_state_exactly(
    seed: int, rules: Rules, dealer: Seat, before: tuple[int, int]
) -> None:
    hand, rng = new_hand(seed, rules, dealer, before)
    fresh = state(Hand(hand.deck, dealer, rules, before))
    assert state(hand) == fresh
    history: list[State] = []
    while not hand.is_over:
        here = state(hand)
        history.append(here)
        legal = hand.legal_actions()
        probe = rng.choice(legal)
        hand.apply(probe)
        assert hand.undo() == probe
        assert state(hand) == here, f"apply {probe} + undo changed the hand"
        hand.apply(pick(hand, legal, rng))
        assert len(history) < MAX_ACTIONS
    final = state(hand)
    final_actions = hand.actions
    for here in reversed(history):
        hand.undo()
        assert state(hand) == here
    assert state(hand) == fresh
    with pytest.raises(IllegalActionError):
        hand.undo()
    for action in final_actions:  # and forward again
        hand.apply(action)
    assert state(hand) == final


@given(seeds)
def test_legal_actions_are_prebuilt_objects_never_built_anew(seed: int) -> None:
    """Two hands in the same position list the very same action objects: the legal moves
    of the hot path are looked up, declarations included, never built per call."""
    hand, rng = new_hand(seed, Rules(), Seat.E, (0, 0))
    twin = Hand(hand.deck, Seat.E)
    declarations = 0
    while not hand.is_over:
        legal = hand.legal_actions()
        assert all(a is b for a, b in zip(legal, twin.legal_actions(), strict=True))
        declarations += sum(a.verb is Verb.DECLARE for a in legal)
        action = pick(hand, legal, rng)
        hand.apply(action)
        twin.apply(action)
    assert declarations or not any(hand.projects(s) for s in Seat)


@given(seeds)
def test_the_undo_accessors_read_and_write_exactly_the_fields_they_name(seed: int) -> None:
    hand, rng = new_hand(seed, Rules(), Seat.E, (0, 0))
    other = Hand.new(rng=random.Random(seed + 1))
    accessors = ((snapshot, restore, MUTABLE), (play_snapshot, play_restore, PLAY_MUTABLE))
    while not hand.is_over:
        for read, write, names in accessors:
            saved = read(hand)
            assert saved == tuple(getattr(hand, name) for name in names)
            write(other, saved)
            assert tuple(getattr(other, name) for name in names) == saved
        hand.apply(pick(hand, hand.legal_actions(), rng))


@given(seeds, rules_strategy, dealers, scores_before, st.integers(0, 60), seeds)
def test_copy_is_independent(
    seed: int, rules: Rules, dealer: Seat, before: tuple[int, int], at: int, other_seed: int
) -> None:
    hand, rng = new_hand(seed, rules, dealer, before)
    for _ in range(at):
        if hand.is_over:
            break
        hand.apply(pick(hand, hand.legal_actions(), rng))
    original = state(hand)
    length = len(hand.actions)
    copy = hand.copy()
    assert state(copy) == original
    play_out(copy, random.Random(other_seed))
    assert state(hand) == original, "playing on the copy changed the original"
    copy_final = state(copy)
    play_out(hand, rng)
    assert state(copy) == copy_final, "playing on the original changed the copy"
    while len(copy.actions) > length:
        copy.undo()
    assert state(copy) == original


# ---------------------------------------------------------------------- records


def lists_and_tables(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner)


metadata_values = st.recursive(
    st.text(max_size=12) | st.integers(-(2**63), 2**63 - 1) | st.booleans(),
    lists_and_tables,
    max_leaves=6,
)
metadata = st.dictionaries(
    st.sampled_from(["event", "players", "comment"]) | st.text(max_size=8).map("x_".__add__),
    metadata_values,
    max_size=3,
)


def expected_summary(hand: Hand) -> dict[str, object]:
    entry = hand_json(hand.result())
    if not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        entry["to_act"] = seat.name
        entry["legal"] = sorted(str(a) for a in hand.legal_actions())
    return entry


@given(seeds, rules_strategy, dealers, scores_before, st.integers(0, 100), metadata, st.booleans())
def test_a_hand_record_replays_to_the_same_result(
    seed: int,
    rules: Rules,
    dealer: Seat,
    before: tuple[int, int],
    stop: int,
    meta: dict[str, Any],
    as_json: bool,
) -> None:
    hand, rng = new_hand(seed, rules, dealer, before)
    for _ in range(stop):
        if hand.is_over:
            break
        hand.apply(pick(hand, hand.legal_actions(), rng))
    record = Record.of(hand, **meta)
    text = dumps(record, json=as_json)
    back = loads(text)
    assert back == record
    assert back.rules == rules and back.metadata == meta
    replayed = replay(back)
    assert len(replayed.hands) == 1
    assert state(replayed.hands[0]) == state(hand)
    summary = replayed.to_json()
    assert summary["hands"] == [expected_summary(hand)]
    score = hand.result().score or (0, 0)
    assert summary["totals"] == {"NS": before[0] + score[0], "EW": before[1] + score[1]}


@given(seeds, rules_strategy, dealers, st.integers(0, 2000), st.booleans())
def test_a_match_record_replays_to_the_same_results(
    seed: int, rules: Rules, dealer: Seat, stop: int, as_json: bool
) -> None:
    rng = random.Random(seed)
    match = Match.new(rng=rng, dealer=dealer, rules=rules)
    for _ in range(stop):
        if match.is_over:
            break
        match.apply(rng.choice(match.legal_actions()))
    record = Record.of(match, event="property test")
    back = loads(dumps(record, json=as_json))
    assert back == record and back.is_match
    replayed = replay(back)
    assert replayed.totals == match.totals
    assert replayed.winner == match.winner
    assert [h.result() for h in replayed.hands] == [h.result() for h in match.hands]
    assert [h.dealer for h in replayed.hands] == [h.dealer for h in match.hands]
    summary = replayed.to_json()
    assert summary["winner"] == (None if match.winner is None else match.winner.name)
    assert summary["hands"][-1] == expected_summary(match.hands[-1])  # type: ignore[index]


# ---------------------------------------------------------------------- seat views


@given(seeds, rules_strategy, dealers, scores_before)
def test_a_view_holds_its_own_cards_and_legal_actions(
    seed: int, rules: Rules, dealer: Seat, before: tuple[int, int]
) -> None:
    hand, rng = new_hand(seed, rules, dealer, before)

    def views(h: Hand) -> None:
        for seat in Seat:
            view = SeatView.of(h, seat)
            assert view.seat == seat
            assert view.cards == h.hand(seat)
            for other in Seat:
                if other != seat:
                    assert not view.cards & h.hand(other)
            assert view.to_act == h.to_act and view.phase == h.phase
            assert view.exposed == h.exposed
            assert view.legal == (h.legal_actions() if h.to_act == seat else ())
            assert view.actions == tuple(heard(a, seat) for a in h.actions)
            assert view.current_trick == tuple(h.current_trick)
            assert view.own_projects == h.projects(seat)
            for project in view.own_projects:
                assert CardSet(project.mask) <= h.full_hand(seat)

    play_out(hand, rng, views)


# ---------------------------------------------------------------------- Ekka and Baloot words


def ekka_allowed(hand: Hand, card: Card) -> bool:
    """R9.5 / #14, worked out from the plays: a Hokum lead of a side-suit non-Ace whose every
    higher card lies in earlier completed tricks."""
    contract = hand.contract
    if contract is None or contract.kind is not ContractKind.HOKUM or hand.current_trick:
        return False
    if card.suit == contract.trump or card.text[0] == "A":
        return False
    gone = {c for _, c in plays(hand)[: 4 * hand.trick_number]}
    higher = PLAIN_ORDER[: PLAIN_ORDER.index(card.text[0])]
    return all(Card.parse(r + card.suit.letter) in gone for r in higher)


@given(seeds, rules_strategy, dealers, scores_before)
def test_ekka_and_baloot_words(
    seed: int, rules: Rules, dealer: Seat, before: tuple[int, int]
) -> None:
    hand, rng = new_hand(seed, rules, dealer, before)
    contract_kinds: set[ContractKind] = set()

    def words(h: Hand) -> None:
        legal = h.legal_actions()
        assert not any(a.baloot for a in legal), "#43: legal never carries baloot"
        if h.phase is not Phase.PLAYING:
            assert not any(a.ekka for a in legal)
            return
        contract = h.contract
        assert contract is not None
        contract_kinds.add(contract.kind)
        seat = h.to_act
        assert seat is not None
        for action in legal:
            if action.verb is not Verb.PLAY:
                continue
            assert action.card is not None
            if action.ekka:
                assert contract.kind is ContractKind.HOKUM and not h.current_trick
                assert h.trick_number >= 1
                assert ekka_allowed(h, action.card)
                assert Action(seat, Verb.PLAY, action.card) in legal
            else:
                with_ekka = Action(seat, Verb.PLAY, action.card, ekka=True)
                valid = ekka_allowed(h, action.card)
                assert (with_ekka in legal) == valid
                if not valid:
                    copy = h.copy()
                    with pytest.raises(IllegalActionError):
                        copy.apply(with_ekka)
                    assert copy.actions == h.actions, "a rejected action was applied"
        # the baloot word on the card about to be played
        if contract.kind is not ContractKind.HOKUM:
            return
        assert contract.trump is not None
        king = Card.parse("K" + contract.trump.letter)
        queen = Card.parse("Q" + contract.trump.letter)
        already = {c for s, c in plays(h) if s == seat}
        for action in legal:
            if action.verb is not Verb.PLAY or action.card not in (king, queen) or action.ekka:
                continue
            other = queen if action.card == king else king
            with_word = Action(seat, Verb.PLAY, action.card, baloot=True)
            copy = h.copy()
            if other in already:  # the second of the pair: the word is accepted, changes nothing
                copy.apply(with_word)
                plain = h.copy()
                plain.apply(action)
                assert copy.result() == plain.result()
                assert copy.legal_actions() == plain.legal_actions()
            else:
                with pytest.raises(IllegalActionError):
                    copy.apply(with_word)
                assert copy.actions == h.actions

    play_out(hand, rng, words)


# ---------------------------------------------------------------------- long runs


@pytest.mark.slow
@settings(max_examples=1000)
@given(seeds, rules_strategy, dealers)
def test_long_run_of_random_matches(seed: int, rules: Rules, dealer: Seat) -> None:
    rng = random.Random(seed)
    match = Match.new(rng=rng, dealer=dealer, rules=rules)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
        assert len(match.hands) < 200
    for hand in match.hands:
        result = hand.result()
        assert result.score is not None and min(result.score) >= 0
        if result.outcome is Outcome.PLAYED:
            assert (result.tricks, result.card_points) == expected_tricks_and_points(hand)
    assert max(match.totals) >= 152 or match.results[-1].gahwa_winner is not None
    replayed = replay(loads(dumps(Record.of(match), json=True)))
    assert replayed.totals == match.totals and replayed.winner == match.winner
