"""What the history proves about hidden cards (``Hand.knowledge``, the view's ``known``).

Worked positions for each fact, after the L-examples of rules.md §3.2: a suit not
followed, a trump not played when one was due, a trump not beaten, the ``must_undertrump``
and ``partner_led_must_trump`` flags, a lead under a lock, the exposed card, shown projects,
declared kinds, Kawesh. Then the properties: the hidden cards of every seat, in random hands
under random flags, never meet what the history excludes, and hold what it says they hold;
and excluding card by card is exactly the rules of play (``play_mask``) on whole hands.
"""

from __future__ import annotations

import random

import pytest
from helpers import KAWESH_FIVE, act, new_hand, position
from hypothesis import given
from hypothesis import strategies as st

from baloot import (
    Card,
    CardSet,
    Hand,
    IllegalActionError,
    Phase,
    ProjectKind,
    Rules,
    Seat,
    Suit,
    Verb,
)
from baloot.core.knowledge import Knowledge, excluded_by_play
from baloot.core.play_rules import play_mask

HEARTS = CardSet.suit(Suit.HEARTS)


def known(hand: Hand, seat: str) -> Knowledge:
    return hand.knowledge(seat)


def unplayed(hand: Hand, cards: CardSet) -> CardSet:
    return cards - hand.played()


# --------------------------------------------------------------------------- plays
# Each position is trick 1 of a real hand: N bids (Hokum in hearts unless said, taking the
# first heart it lists, or Sun taking its first card) and leads.

#: N leads the K♣; W ruffs with the 9♥; S holds no club and no J♥ (only the J♥ beats the 9♥).
RUFFED = {
    "N": "Kc Ah Jh As Ks Qs Js Ts",
    "W": "9h 8h Ad Kd Qd Jd Td 9d",
    "S": "Qh 7h Th 9s 8s 7s 8d 7d",
    "E": "Kh Ac Qc Jc Tc 9c 8c 7c",
}
#: The same, but S holds no trump at all (N has them).
RUFFED_NO_TRUMP = {
    "N": "Kc Ah Jh Qh 7h Th As Ks",
    "W": "9h 8h Ad Kd Qd Jd Td 9d",
    "S": "Qs Js Ts 9s 8s 7s 8d 7d",
    "E": "Kh Ac Qc Jc Tc 9c 8c 7c",
}
#: N leads the K♣ (or the A♣), W follows, S holds no club and no trump.
PARTNER_LED = {
    "N": "Kc Ah Jh 9h Th As Ks Qs",
    "W": "Ac Qc Jc Tc 9c 8c 7c 8h",
    "S": "Js Ts 9s 8s 7s Ad Kd Qd",
    "E": "Kh Qh 7h Jd Td 9d 8d 7d",
}


def dealt(
    hands: dict[str, str], contract: str = "hokum", rules: Rules | None = None, **options: object
) -> Hand:
    return position(hands, [], contract=contract, rules=rules, **options)  # type: ignore[arg-type]


def test_a_seat_that_does_not_follow_is_void_in_the_suit_led() -> None:
    """Sun (R9.3): N leads the A♠, E plays a heart: E holds no spade."""
    hand = dealt(
        {
            "N": "As Ks 7s Ad Kd Qd Jd 9c",
            "W": "Qs Js Ts 9s Td 9d 8d 7d",
            "S": "8s Ah Kh Qh Jh Ac Kc Qc",
            "E": "Th 9h 8h 7h Jc Tc 8c 7c",
        },
        contract="sun",
    )
    act(hand, "N play As", "W play Qs", "S play 8s")
    assert known(hand, "E").void == () and not known(hand, "E").excluded
    hand.apply("E play Th")
    east = known(hand, "E")
    assert east.void == (Suit.SPADES,)
    assert east.excluded == CardSet.parse("Ks Js Ts 9s 7s")
    assert not east.no_trump and east.trump_below is None
    assert east.to_json() == {
        "void": ["s"],
        "no_trump": False,
        "trump_below": None,
        "holds": [],
        "kinds": [],
    }


def test_a_seat_that_does_not_trump_an_opponents_card_holds_no_trump() -> None:
    """L7 (R9.4 d3): N leads the Q♦; W discards rather than trump: no diamond, no trump."""
    hand = dealt(
        {
            "N": "Qd Ah Kh As Ks Qs Js Ts",
            "W": "9s 8s 7s Ac Kc Qc Jc Tc",
            "S": "Jh 9h Th Ad Kd Jd Td 9c",
            "E": "Qh 8h 7h 9d 8d 7d 8c 7c",
        }
    )
    act(hand, "N play Qd", "W play 9s")
    west = known(hand, "W")
    assert west.void == (Suit.HEARTS, Suit.DIAMONDS)
    assert west.no_trump and west.trump_below is None
    assert west.to_json()["no_trump"] is True
    assert west.excluded == unplayed(hand, HEARTS | CardSet.suit(Suit.DIAMONDS))


def test_a_seat_that_under_trumps_holds_no_trump_above_the_one_winning() -> None:
    """L5 (R9.4 d3): S cannot beat W's 9♥; it under-trumps with the 7♥: it holds no J♥."""
    hand = dealt(RUFFED)
    act(hand, "N play Kc", "W play 9h", "S play 7h")
    south = known(hand, "S")
    assert south.trump_below == Card.parse("9h")
    assert south.void == (Suit.CLUBS,) and not south.no_trump
    assert south.to_json()["trump_below"] == "9h"
    assert south.excluded & HEARTS == CardSet.parse("Ah Jh")  # the J♥, and N's exposed A♥


@pytest.mark.parametrize("flag", [False, True])
def test_a_discard_on_an_opponents_trump_and_the_must_undertrump_flag(flag: bool) -> None:
    """L5: S discards on W's 9♥. It cannot hold a trump above it; with ``must_undertrump`` it
    cannot hold a trump at all (it would have had to under-trump), which says it all."""
    hand = dealt(RUFFED_NO_TRUMP, rules=Rules(must_undertrump=flag))
    act(hand, "N play Kc", "W play 9h", "S play 9s")
    south = known(hand, "S")
    assert south.trump_below == (None if flag else Card.parse("9h"))
    assert south.no_trump is flag
    assert (Suit.HEARTS in south.void) is flag


def test_under_must_undertrump_a_seat_with_trumps_may_not_discard() -> None:
    hand = dealt(RUFFED, rules=Rules(must_undertrump=True))
    act(hand, "N play Kc", "W play 9h")
    with pytest.raises(IllegalActionError):
        hand.apply("S play 9s")
    hand.apply("S play 7h")
    assert known(hand, "S").trump_below == Card.parse("9h")


def test_trump_led_a_lower_trump_on_an_opponents_proves_none_above_it() -> None:
    """L8-like (R9.4 b): N leads the A♥, W plays the 7♥: W holds neither J♥ nor 9♥."""
    hand = dealt(
        {
            "N": "Ah Kh As Ks Qs Js Ts 9s",
            "W": "7h Ac Kc Qc Jc Tc 9c 8c",
            "S": "Jh 9h Qh 8s 7s Ad Kd Qd",
            "E": "Th 8h Jd Td 9d 8d 7d 7c",
        }
    )
    act(hand, "N play Ah", "W play 7h")
    west = known(hand, "W")
    assert west.trump_below == Card.parse("Ah") and west.void == ()
    assert west.excluded & HEARTS == CardSet.parse("Jh 9h")


@pytest.mark.parametrize("flag", [True, False])
def test_partner_led_must_trump_flag(flag: bool) -> None:
    """L1 (R9.4 d2): N leads the K♣, W follows, S discards: with the flag S holds no trump;
    without it the discard proves only the void; after an Ace lead (L3), only the void."""
    hand = dealt(PARTNER_LED, rules=Rules(partner_led_must_trump=flag))
    act(hand, "N play Kc", "W play 7c", "S play 7s")
    south = known(hand, "S")
    assert south.no_trump is flag
    assert south.void == ((Suit.HEARTS, Suit.CLUBS) if flag else (Suit.CLUBS,))
    ace = dict(PARTNER_LED, N=PARTNER_LED["N"].replace("Kc", "Ac"))
    ace["W"] = ace["W"].replace("Ac", "Kc")
    hand = dealt(ace, rules=Rules(partner_led_must_trump=flag))
    act(hand, "N play Ac", "W play 7c", "S play 7s")
    assert known(hand, "S").void == (Suit.CLUBS,) and not known(hand, "S").no_trump


@pytest.mark.parametrize("locked", [True, False])
def test_a_trump_led_under_a_lock_proves_only_trumps(locked: bool) -> None:
    """L15b (R9.4 a): under a locked double a seat leads a trump only when it holds nothing
    else, so it is void in every side suit; open, a trump lead proves nothing."""
    hand = dealt(
        {
            "N": "Jh 9h Ah Th Kh Qh 8h 7h",
            "W": "As Ks Qs Js Ts 9s 8s 7s",
            "S": "Ad Kd Qd Jd Td 9d 8d 7d",
            "E": "Ac Kc Qc Jc Tc 9c 8c 7c",
        },
        doubling=["W double locked" if locked else "W double open"],
    )
    hand.apply("N play 8h")
    north = known(hand, "N")
    assert north.void == ((Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS) if locked else ())
    assert not north.no_trump


# --------------------------------------------------------------------------- cards it holds


def test_the_taker_holds_the_exposed_card_until_it_plays_it() -> None:
    hand = dealt(RUFFED)
    assert hand.exposed == Card.parse("Ah")
    assert known(hand, "N").holds == CardSet.parse("Ah")
    assert known(hand, "N").to_json()["holds"] == ["Ah"]
    for seat in "WSE":
        assert Card.parse("Ah") in known(hand, seat).excluded
    hand.apply("N play Ah")
    for seat in "NWSE":
        assert Card.parse("Ah") not in known(hand, seat).holds | known(hand, seat).excluded


#: N holds a Sira (A K Q♥) and takes the A♥ in Hokum; E holds a Fifty (A K Q J♠).
PROJECTS = {
    "N": "Ah Kh Qh 9s 7s Kd 9d 7c",
    "W": "Jh 9h 7h Ts Ad Qd Jd Jc",
    "S": "Th 8h 8s 7d Kc 9c Tc Ac",
    "E": "As Ks Qs Js Td 8d 8c Qc",
}


def test_declared_kinds_then_shown_projects() -> None:
    """N declares a Sira, E a Fifty; at the second trick E's team shows its projects (R10.5):
    E surely holds their unplayed cards and its kinds are shown; N's Sira stays a kind."""
    hand = dealt(PROJECTS)
    assert [str(p) for p in hand.projects("N")] == ["sira:AhKhQh"]
    assert [str(p) for p in hand.projects("E")] == ["fifty:AsKsQsJs"]
    hand.apply("N declare sira")
    assert known(hand, "N").kinds == (ProjectKind.SIRA,)
    assert known(hand, "N").to_json()["kinds"] == ["sira"]
    assert known(hand, "N").holds == CardSet.parse("Ah")  # the exposed card only
    act(hand, "N play 7c", "W play Jc", "S play Ac", "E declare fifty")
    assert known(hand, "E").kinds == (ProjectKind.FIFTY,)
    hand.apply("E play 8c")
    (shown,) = hand.shown_projects()
    east = known(hand, "E")
    assert shown.seat == Seat.E and east.kinds == ()
    assert east.holds == CardSet.parse("As Ks Qs Js")
    assert east.to_json()["holds"] == ["As", "Ks", "Qs", "Js"]
    assert known(hand, "N").kinds == (ProjectKind.SIRA,)
    for seat in "NWS":
        assert east.holds <= known(hand, seat).excluded
    act(hand, "S play 8s", "E play As")
    assert known(hand, "E").holds == CardSet.parse("Ks Qs Js")


def test_kawesh_proves_the_callers_five_are_low() -> None:
    hand = new_hand(exposed="As", N=KAWESH_FIVE)
    hand.apply("N kawesh")
    assert hand.is_over
    assert known(hand, "N").excluded == CardSet.full() - CardSet.parse(
        "9s 8s 7s 9h 8h 7h 9d 8d 7d 9c 8c 7c"
    )
    assert known(hand, "W").excluded == CardSet()


# --------------------------------------------------------------------------- properties


def random_rules(rng: random.Random) -> Rules:
    """Random flags, the flags of play and the lock among them."""
    return Rules.random(rng).replace(
        must_undertrump=rng.random() < 0.5,
        partner_led_must_trump=rng.random() < 0.5,
        lock_persists_through_escalation=rng.random() < 0.5,
    )


def choose(hand: Hand, rng: random.Random) -> object:
    """A random legal action, biased toward Hokum, locked doubles, declarations and Ekka."""
    legal = hand.legal_actions()
    if hand.phase.is_bidding:
        hokum = [a for a in legal if a.verb in (Verb.HOKUM, Verb.TRUMP)]
        if hokum and rng.random() < 0.7:
            return rng.choice(hokum)
        passes = [a for a in legal if a.verb is Verb.PASS]
        if passes and rng.random() < 0.8:
            return passes[0]
    if hand.phase is Phase.DOUBLING:
        locked = [a for a in legal if a.locked]
        if locked and rng.random() < 0.4:
            return rng.choice(locked)
    special = [a for a in legal if a.verb is Verb.DECLARE or a.ekka]
    if special and rng.random() < 0.6:
        return rng.choice(special)
    return rng.choice(legal)


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_the_hidden_cards_never_meet_what_the_history_excludes(seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand.new(rng=rng, dealer=rng.choice(list(Seat)), rules=random_rules(rng))
    while True:
        for seat in Seat:
            fact = hand.knowledge(seat)
            held = hand.hand(seat)
            assert not fact.excluded & held, (seat, fact, held, [str(a) for a in hand.actions])
            assert fact.holds <= held
            assert not fact.excluded & hand.played() and not fact.holds & hand.played()
            for suit in fact.void:
                assert not held & CardSet.suit(suit)
            trump = hand.contract.trump if hand.contract else None
            assert fact.no_trump == (trump is not None and trump in fact.void)
            if fact.trump_below is not None:
                assert trump is not None and fact.trump_below.suit == trump
            kinds = [p.kind for p in hand.projects(seat)]
            for kind in fact.kinds:
                assert kind in kinds
        if hand.is_over:
            break
        hand.apply(choose(hand, rng))  # type: ignore[arg-type]


@st.composite
def trick_states(draw: st.DrawFn) -> tuple[int, tuple[int, ...], bool, int, bool, int, bool]:
    """A card, a trick it is played on, who is winning, the Ekka word, trump and lock."""
    cards = draw(st.permutations(range(32)))
    size = draw(st.integers(min_value=0, max_value=3))
    trick = tuple(cards[:size])
    card = cards[size]
    trump = draw(st.sampled_from((-1, 0, 1, 2, 3)))
    win = draw(st.sampled_from(trick)) if trick else -1
    return (
        card,
        trick,
        draw(st.booleans()),
        win,
        draw(st.booleans()),
        trump,
        draw(st.booleans()),
    )


@given(trick_states(), st.booleans(), st.booleans(), st.integers(0, 2**32 - 1))
def test_excluding_card_by_card_is_the_rules_of_play_on_whole_hands(
    state: tuple[int, tuple[int, ...], bool, int, bool, int, bool],
    must_trump: bool,
    undertrump: bool,
    others: int,
) -> None:
    """For every hand holding the card: the card may be played exactly when the hand holds
    no excluded card (pairs suffice, both ways); and the suit-at-a-time shortcut finds every
    card that a pair excludes."""
    card, trick, opponent, win, ekka, trump, locked = state
    flags = (trick, opponent, win, ekka, trump, locked, must_trump, undertrump)
    excluded = excluded_by_play(card, *flags)
    bit = 1 << card
    by_pairs = 0
    for x in range(32):
        if x != card and not play_mask(bit | 1 << x, *flags) & bit:
            by_pairs |= 1 << x
    assert excluded == by_pairs
    on_table = 0
    for c in trick:
        on_table |= 1 << c
    held = (others & ~on_table) | bit
    allowed = bool(play_mask(held, *flags) & bit)
    assert allowed == (not held & excluded)
