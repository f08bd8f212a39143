"""Worlds from a view (``baloot.bots.worlds``): a hand for a guess of the hidden cards, checked
against the history, and a sampler of such guesses.

The properties: in random hands under random flags, with declarations, Ekka and locked
doubles made common, at every kind of moment and from every seat and a spectator, the real
hidden cards make a world; every sampled guess makes one; a world is the view's hand again
(its seat's view of it is the same JSON), its actions replay legally on its own deck, and
taking actions back from it gives the hands a replay gives. Then worked refusals, each with
its one line; determinism; and uniformity on a small case counted by brute force.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable

import pytest
from conftest import whole_hands
from helpers import act, position
from hypothesis import given
from hypothesis import strategies as st

from baloot import Action, BalootError, CardSet, Hand, Phase, Rules, Seat, SeatView, Verb
from baloot.bots.worlds import InconsistentWorldError, WorldSampler, world


def public_state(hand: Hand) -> tuple[object, ...]:
    """Everything the engine says about a hand, hidden cards included."""
    return (
        [str(a) for a in hand.actions],
        hand.phase,
        hand.to_act,
        hand.question,
        hand.contract,
        hand.taker,
        hand.deck,
        tuple(hand.hand(s) for s in Seat),
        tuple(hand.full_hand(s) for s in Seat),
        tuple(hand.declared(s) for s in Seat),
        tuple(hand.projects(s) for s in Seat),
        hand.legal_actions(),
        hand.play_restriction(),
        hand.tricks(),
        hand.tricks_won,
        hand.card_points(),
        hand.shown_projects(),
        hand.result(),
        tuple(hand.knowledge(s) for s in Seat),
    )


def replayed(hand: Hand, count: int | None = None) -> Hand:
    """A new hand from ``hand``'s deck with its first ``count`` actions (all) applied."""
    fresh = Hand(hand.deck, hand.dealer, hand.rules, hand.score_before)
    for action in hand.actions[:count]:
        fresh.apply(action)
    return fresh


def choose(hand: Hand, rng: random.Random) -> Action:
    """A random legal action, biased toward Hokum, locked doubles, declarations (sometimes
    naming their cards) and Ekka."""
    legal = hand.legal_actions()
    if hand.phase.is_bidding:
        hokum = [a for a in legal if a.verb in (Verb.HOKUM, Verb.TRUMP)]
        if hokum and rng.random() < 0.6:
            return rng.choice(hokum)
        passes = [a for a in legal if a.verb is Verb.PASS]
        if passes and rng.random() < 0.7:
            return passes[0]
    if hand.phase is Phase.DOUBLING:
        locked = [a for a in legal if a.locked]
        if locked and rng.random() < 0.3:
            return rng.choice(locked)
    declares = [a for a in legal if a.verb is Verb.DECLARE]
    if declares and rng.random() < 0.8:
        action = rng.choice(declares)
        if rng.random() < 0.3:
            seat = action.seat
            pool = list(hand.projects(seat))
            words = []
            for claim in action.claims:
                project = next(p for p in pool if p.kind == claim.kind)
                pool.remove(project)
                words.append(str(project))
            return hand.parse_action(f"{seat.name} declare {' '.join(words)}")
        return action
    ekka = [a for a in legal if a.ekka]
    if ekka and rng.random() < 0.5:
        return rng.choice(ekka)
    return rng.choice(legal)


def random_hand(seed: int) -> tuple[Hand, random.Random]:
    """A random hand under random flags, stopped at a random moment."""
    rng = random.Random(seed)
    rules = Rules.random(rng).replace(
        must_undertrump=rng.random() < 0.5, partner_led_must_trump=rng.random() < 0.5
    )
    hand = Hand.new(rng=rng, dealer=rng.choice(list(Seat)), rules=rules)
    stop = rng.randrange(45)
    while not hand.is_over and len(hand.actions) < stop:
        hand.apply(choose(hand, rng))
    return hand, rng


def check_world(view: SeatView, other: Hand) -> None:
    """``other`` is a world of ``view``: the seat sees the same; it replays; undoing it gives
    what a replay gives."""
    assert SeatView.of(other, view.seat).to_json() == view.to_json()
    assert SeatView.of(other, view.seat) == view
    fresh = replayed(other)
    assert public_state(fresh) == public_state(other)
    back = other.copy()
    for count in range(len(other.actions) - 1, max(-1, len(other.actions) - 6), -1):
        back.undo()
        assert public_state(back) == public_state(replayed(other, count))


@whole_hands()
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_the_truth_and_every_sampled_guess_make_a_world_of_the_view(seed: int) -> None:
    hand, rng = random_hand(seed)
    listener = rng.choice((None, *Seat))
    view = SeatView.of(hand, listener)
    others = [s for s in Seat if s != listener]
    sampler = WorldSampler(view)
    if view.contract is not None:
        truth = {s: hand.hand(s) for s in others}
        check_world(view, world(view, truth))
        for _ in range(3):
            guess = sampler.sample(rng)
            assert set(guess) == set(others)
            for s in others:
                assert len(guess[s]) == view.held[s]
                assert not guess[s] & view.known[s].excluded
                assert view.known[s].holds <= guess[s]
            check_world(view, world(view, guess))
            check_world(view, sampler.world_of(guess))
        check_world(view, sampler.world(rng))
    deal = sampler.deal(rng)
    assert len(set(deal.deck)) == 32 and deal.exposed == view.exposed
    check_world(view, deal)


def test_a_world_before_the_contract_deals_the_first_fives_and_the_stock() -> None:
    hand = Hand.new(rng=random.Random(3), dealer="E")
    act(hand, "N pass", "W pass")
    view = SeatView.of(hand, "S")
    guess = {s: hand.hand(s) for s in (Seat.N, Seat.W, Seat.E)}
    other = world(view, guess)
    assert [other.hand(s) for s in Seat] == [hand.hand(s) for s in Seat]
    check_world(view, other)
    deals = [WorldSampler(view).deal(random.Random(seed)) for seed in range(20)]
    assert len({d.deck for d in deals}) == 20
    for deal in deals:
        assert deal.hand("S") == view.cards and deal.exposed == view.exposed
        check_world(view, deal)


# --------------------------------------------------------------------------- refusals

#: N leads the K♣; W ruffs with the 9♥; S holds no club (rules.md L5).
RUFFED = {
    "N": "Kc Ah Jh As Ks Qs Js Ts",
    "W": "9h 8h Ad Kd Qd Jd Td 9d",
    "S": "Qh 7h Th 9s 8s 7s 8d 7d",
    "E": "Kh Ac Qc Jc Tc 9c 8c 7c",
}


def ruffed_view() -> tuple[Hand, SeatView, dict[Seat, CardSet]]:
    """E's view after N K♣, W 9♥, S 7♥: W is void in clubs, S holds no J♥, N the A♥."""
    hand = position(RUFFED, [])
    act(hand, "N play Kc", "W play 9h", "S play 7h")
    view = SeatView.of(hand, "E")
    return hand, view, {s: hand.hand(s) for s in (Seat.N, Seat.W, Seat.S)}


def swapped(guess: dict[Seat, CardSet], a: Seat, x: str, b: Seat, y: str) -> dict[Seat, CardSet]:
    """``guess`` with card ``x`` of seat ``a`` and card ``y`` of seat ``b`` exchanged."""
    moved = dict(guess)
    moved[a] = moved[a] - CardSet.parse(x) | CardSet.parse(y)
    moved[b] = moved[b] - CardSet.parse(y) | CardSet.parse(x)
    return moved


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda g: {**g, Seat.W: g[Seat.W] - CardSet.parse("8h")}, "W holds 7 cards, not 6"),
        (lambda g: {Seat.N: g[Seat.N], Seat.W: g[Seat.W]}, "names the hidden cards of N W S"),
        (
            lambda g: {**g, Seat.W: g[Seat.W] - CardSet.parse("8h") | CardSet.parse("Ac")},
            "W cannot hold Ac: this seat has seen it",
        ),
        (
            lambda g: {**g, Seat.W: g[Seat.W] - CardSet.parse("8h") | CardSet.parse("Qs")},
            "Qs is guessed for two seats",
        ),
        (
            lambda g: swapped(g, Seat.S, "Qh", Seat.N, "Jh"),
            "S cannot hold Jh: it did not beat the 9h when it had to",
        ),
        (lambda g: swapped(g, Seat.N, "Ah", Seat.S, "Qh"), "N surely holds Ah"),
    ],
)
def test_a_guess_against_the_counts_or_the_history_is_refused_in_one_line(
    change: Callable[[dict[Seat, CardSet]], dict[Seat, CardSet]], reason: str
) -> None:
    _, view, truth = ruffed_view()
    with pytest.raises(InconsistentWorldError) as refused:
        world(view, change(truth))
    assert str(refused.value) == reason or reason in str(refused.value)
    assert "\n" not in str(refused.value)
    assert isinstance(refused.value, BalootError) and isinstance(refused.value, ValueError)


def test_a_card_of_a_suit_not_followed_is_refused() -> None:
    hand, _, _ = ruffed_view()
    north = SeatView.of(hand, "N")
    guess = swapped({s: hand.hand(s) for s in (Seat.W, Seat.S, Seat.E)}, Seat.W, "Ad", Seat.E, "Qc")
    with pytest.raises(InconsistentWorldError, match="W cannot hold Qc: it did not follow"):
        world(north, guess)


def test_a_declaration_the_guess_does_not_make_is_refused() -> None:
    """N declares a Sira (A K Q♥); a guess without it is refused by the engine's own check."""
    hand = position(
        {
            "N": "Ah Kh Qh 9s 7s Kd 9d 7c",
            "W": "Jh 9h 7h Ts Ad Qd Jd Jc",
            "S": "Th 8h 8s 7d Kc 9c Tc Ac",
            "E": "As Ks Qs Js Td 8d 8c Qc",
        },
        [],
    )
    act(hand, "N declare sira", "N play 7c")
    view = SeatView.of(hand, "W")
    truth = {s: hand.hand(s) for s in (Seat.N, Seat.S, Seat.E)}
    check_world(view, world(view, truth))
    broken = swapped(truth, Seat.N, "Kh", Seat.S, "Th")
    with pytest.raises(InconsistentWorldError, match="N would hold no sira"):
        world(view, broken)
    sampler = WorldSampler(view)
    rng = random.Random(8)
    for _ in range(20):
        other = sampler.world(rng)
        assert [p.kind.word for p in other.declared("N") or ()] == ["sira"]


def test_the_sampler_gives_up_in_one_line_when_no_deal_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, view, _ = ruffed_view()
    sampler = WorldSampler(view, tries=5)

    def refuse(*_: object) -> Hand:
        raise InconsistentWorldError("refused")

    monkeypatch.setattr(sampler._worlds, "assemble", refuse)
    with pytest.raises(InconsistentWorldError, match="no deal of the unseen cards fits the view"):
        sampler.world(random.Random(1))
    with pytest.raises(ValueError, match="tries"):
        WorldSampler(view, tries=0)


# --------------------------------------------------------------------------- randomness


def test_the_same_seed_deals_the_same_guesses() -> None:
    _, view, _ = ruffed_view()
    first = [WorldSampler(view).sample(random.Random(seed)) for seed in range(5)]
    again = [WorldSampler(view).sample(random.Random(seed)) for seed in range(5)]
    assert first == again
    assert len({tuple(sorted((s, g.mask) for s, g in x.items())) for x in first}) > 1


@whole_hands()
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_many_worlds_at_once_are_the_worlds_drawn_one_by_one_each_built_once(seed: int) -> None:
    hand, rng = random_hand(seed)
    view = SeatView.of(hand, hand.to_act if hand.to_act is not None else Seat.S)
    state = rng.getstate()
    try:
        alone = [WorldSampler(view).world(rng) for _ in range(30)]
    except InconsistentWorldError:
        return
    rng.setstate(state)
    together = WorldSampler(view).worlds(rng, 30)
    assert sum(n for _, n in together) == 30
    deals = Counter(other.deck for other in alone)
    assert [(other.deck, n) for other, n in together] == list(deals.items())
    for other, _ in together:
        check_world(view, other)


def test_the_guesses_are_uniform_over_the_consistent_deals() -> None:
    """Late in a hand, count every deal of the unseen cards that ``world`` accepts and draw
    many guesses: each consistent deal comes up about equally often, no other ever."""
    hand, _, _ = ruffed_view()
    while hand.trick_number < 5:
        hand.apply([a for a in hand.legal_actions() if not a.ekka][-1])
    view = SeatView.of(hand, "E")
    others = (Seat.N, Seat.W, Seat.S)
    unseen = list(view.unseen)
    consistent = set()
    for first in itertools.combinations(unseen, view.held[Seat.N]):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, view.held[Seat.W]):
            guess = {
                Seat.N: CardSet(first),
                Seat.W: CardSet(second),
                Seat.S: CardSet([c for c in rest if c not in second]),
            }
            try:
                world(view, guess)
            except InconsistentWorldError:
                continue
            consistent.add(tuple(guess[s].mask for s in others))
    k = len(consistent)
    assert k == 40  # of the 1680 deals of the 9 unseen cards, 3 to a seat
    sampler = WorldSampler(view)
    rng = random.Random(2)
    draws = 300 * k
    seen = Counter(
        tuple(guess[s].mask for s in others)
        for guess in (sampler.sample(rng) for _ in range(draws))
    )
    assert set(seen) == consistent
    expected = draws / k
    chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
    # Above the 99.9 % quantile of chi-square with k - 1 degrees of freedom.
    assert chi2 < k + 4.5 * (2 * k) ** 0.5, (chi2, k)
