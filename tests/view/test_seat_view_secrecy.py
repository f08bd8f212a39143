"""docs/seat-view.md: a view never holds a card its seat may not know, in any key, in any form.

A seat may know its own cards (the five of the first deal, its eight once the deal is
complete, its own projects), the exposed card, the cards played and, from the second trick
on, the cards of the projects shown (R10.5). A spectator may know only the public part. Once
a hand is played out every card has been played, so everything is known.

The checker looks twice: it walks the :class:`SeatView` value itself (dataclasses, tuples,
actions and their claims, projects, tricks, the result…) collecting every card it meets, and
it scans the serialized ``baloot-view/1`` JSON for every card token, also inside words such
as ``sira:Td9d8d``. What the view ``known`` proves about a seat names cards it does *not*
hold (``excluded``): those must be exactly what its public facts say (the suits it cannot
hold, the trumps above the one it did not beat, the cards others surely hold), so that they
tell nothing more. The hands are driven to make the dangerous cases common: declarations that
name their cards (one or two projects, sometimes only the kinds), Ekka leads, Baloot words,
and bidding biased toward Hokum so that trumps, Ekka and Baloot occur.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import re
from collections import Counter
from collections.abc import Mapping
from enum import Enum

import pytest
from conftest import whole_hands
from helpers import bid, build_deck, end_doubling
from hypothesis import given
from hypothesis import strategies as st
from spec_example import ACTIONS, DECK

import baloot.view.seat_view as seat_view_module
from baloot import (
    Action,
    Card,
    CardSet,
    ContractKind,
    Hand,
    Outcome,
    Phase,
    Project,
    Rules,
    Seat,
    SeatView,
    Verb,
)
from baloot.bots.worlds import WorldSampler
from baloot.core.cards import TRUMP_ABOVE
from baloot.core.knowledge import Knowledge

LISTENERS: tuple[Seat | None, ...] = (None, Seat.N, Seat.W, Seat.S, Seat.E)

#: A run of card texts, alone or glued together (``Td``, ``sira:Td9d8d``), in any written form
#: a reader accepts (``10h``, ``T♥``), not inside a longer word. A word here is also a
#: URL-safe identifier, which glues letters with ``-`` and ``_``: a table's random id such as
#: ``x3-Kh9`` holds no card.
_CARD_RUN = re.compile(
    r"(?<![A-Za-z0-9_-])((?:(?:10|[AKQJT987])[shdc♠♥♦♣]\ufe0f?)+)(?![A-Za-z0-9_-])"
)
_ONE_CARD = re.compile(r"(?:10|[AKQJT987])[shdc♠♥♦♣]\ufe0f?")


# --------------------------------------------------------------------------- the checker


@functools.lru_cache(maxsize=4096)
def cards_in_text(text: str) -> frozenset[Card]:
    """Every card written in ``text``, also inside glued runs such as ``sira:Td9d8d``."""
    found: set[Card] = set()
    for run in _CARD_RUN.finditer(text):
        found.update(Card.parse(token) for token in _ONE_CARD.findall(run.group(1)))
    return frozenset(found)


def cards_in_object(value: object) -> frozenset[Card]:
    """Every card reachable from ``value``: cards, card sets, projects' cards, and cards
    written in strings, through dataclasses (actions, claims, tricks, results…), tuples,
    lists and mappings. A value of a type it does not know is an error, so that a new field
    cannot slip past the check."""
    try:
        return _cards_in_frozen(value)
    except TypeError:  # not hashable (a list, a mapping, or a value holding one)
        return _walk(value)


@functools.lru_cache(maxsize=1 << 16, typed=True)
def _cards_in_frozen(value: object) -> frozenset[Card]:
    """:func:`_walk` of a hashable value, remembered: equal values hold equal cards, and the
    actions of a hand come back in every view of it."""
    return _walk(value)


def _walk(value: object) -> frozenset[Card]:
    if value is None or isinstance(value, Enum | bool | int | float):
        return frozenset()
    if isinstance(value, Card):
        return frozenset([value])
    if isinstance(value, CardSet):
        return frozenset(value)
    if isinstance(value, Project):  # its cards are a mask (an int): read them as cards
        return frozenset(value.cards)
    if isinstance(value, Knowledge):  # ``excluded``: cards it does not hold, see said_excluded
        told = (value.seat, value.void, value.no_trump, value.trump_below, value.holds)
        return _walk((*told, value.kinds))
    if isinstance(value, str):
        return cards_in_text(value)
    parts: list[object]
    if isinstance(value, tuple | list | set | frozenset):
        parts = list(value)
    elif isinstance(value, Mapping):
        parts = [*value.keys(), *value.values()]
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = [getattr(value, f.name) for f in dataclasses.fields(value)]
    else:
        raise AssertionError(f"unexpected value in a view: {type(value).__name__} {value!r}")
    found: frozenset[Card] = frozenset()
    for part in parts:
        found |= cards_in_object(part)
    return found


def cards_in_json(view: SeatView) -> frozenset[Card]:
    """Every card token in the serialized ``baloot-view/1`` object."""
    return cards_in_text(json.dumps(view.to_json(), ensure_ascii=False))


def public_cards(hand: Hand) -> CardSet:
    """What every seat and a spectator may know: the exposed card, the cards played, and
    once the first trick is over the cards of the projects shown (R10.5)."""
    plays = [a.card for a in hand.actions if a.verb is Verb.PLAY and a.card is not None]
    known = CardSet(plays) | CardSet([hand.exposed])
    shown = hand.shown_projects()
    if len(plays) < 4:
        assert not shown, "projects are shown only once the first trick is over (R10.5)"
        return known
    if shown:
        # Shown by one team only, one that declared, and only projects its players hold.
        teams = {s.seat.team for s in shown}
        assert len(teams) == 1, f"projects shown by both teams: {shown}"
        (team,) = teams
        assert any(hand.declared(s) for s in team.seats), f"{team} shows without declaring"
        for s in shown:
            assert s.project in hand.projects(s.seat), f"{s.seat} does not hold {s.project}"
            known = known | CardSet(s.project.cards)
    else:
        assert not any(hand.declared(s) for s in Seat), "declared projects were not shown"
    return known


def may_know(hand: Hand, seat: Seat | None) -> CardSet:
    """The cards ``seat`` (None: a spectator) may know now."""
    known = public_cards(hand)
    if seat is not None:
        known = known | hand.hand(seat) | hand.full_hand(seat)
    return known


def said_excluded(view: SeatView, known: Knowledge) -> CardSet:
    """The unplayed cards that the public facts of ``known`` say its seat cannot hold, read
    from the view alone: its void suits, the trumps above its ``trump_below``, the cards other
    seats surely hold (the exposed card with its taker, shown projects), and for a Kawesh
    caller every card but the 7s, 8s and 9s (R6)."""
    mask = 0
    for suit in known.void:
        mask |= suit.mask
    if known.trump_below is not None:
        mask |= TRUMP_ABOVE[known.trump_below.index]
    if view.taker is not None and view.taker != known.seat:
        mask |= view.exposed.bit
    for shown in view.shown:
        if shown.seat != known.seat:
            mask |= shown.project.mask
    if any(a.verb is Verb.KAWESH and a.seat == known.seat for a in view.actions):
        mask |= CardSet.full().mask & ~CardSet.parse("9s 8s 7s 9h 8h 7h 9d 8d 7d 9c 8c 7c").mask
    return CardSet(mask) - view.played - known.holds


def leaks(view: SeatView, hand: Hand) -> dict[str, frozenset[Card]]:
    """The cards in ``view`` that its seat may not know, found in the value and in the JSON,
    and the cards that ``known`` excludes other than its public facts say (or the other way
    round): empty sets when the view is clean."""
    allowed = set(may_know(hand, view.seat))
    return {
        "object": cards_in_object(view) - allowed,
        "json": cards_in_json(view) - allowed,
        "excluded": frozenset().union(
            *(k.excluded ^ said_excluded(view, k) for k in view.known.values())
        ),
    }


def assert_no_leak(hand: Hand, where: str) -> None:
    for listener in LISTENERS:
        found = leaks(SeatView.of(hand, listener), hand)
        if any(found.values()):
            who = "the spectator" if listener is None else listener.name
            raise AssertionError(
                f"{where}: the view of {who} holds cards it may not know: "
                f"{ {k: sorted(c.text for c in v) for k, v in found.items()} }; "
                f"actions: {[str(a) for a in hand.actions]}"
            )


# --------------------------------------------------------------------------- the driver


def declaration_text(action: Action, projects: tuple[Project, ...], rng: random.Random) -> str:
    """A legal declaration (kinds only) written as a player may write it: sometimes with
    the cards of every project (``N declare sira:Td9d8d fifty:...``), sometimes with the
    cards of the first only, sometimes as the kinds."""
    mode = rng.random()
    if mode < 0.25:
        return str(action)
    pool = list(projects)
    words = []
    for i, claim in enumerate(action.claims):
        project = next(p for p in pool if p.kind == claim.kind)
        pool.remove(project)
        words.append(str(project) if mode >= 0.5 or i == 0 else claim.kind.word)
    return f"{action.seat.name} declare {' '.join(words)}"


def choose(hand: Hand, rng: random.Random, hokum_bias: bool) -> str | Action:
    """One action for the seat to act, chosen to make declarations, Ekka and Baloot common."""
    legal = hand.legal_actions()
    seat = hand.to_act
    assert seat is not None
    phase = hand.phase
    if phase is Phase.PLAYING:
        declares = [a for a in legal if a.verb is Verb.DECLARE]
        if declares and rng.random() < 0.85:
            return declaration_text(rng.choice(declares), hand.projects(seat), rng)
        ekkas = [a for a in legal if a.ekka]
        plain = [a for a in legal if a.verb is Verb.PLAY and not a.ekka]
        play = rng.choice(ekkas) if ekkas and rng.random() < 0.6 else rng.choice(plain)
        return hand.announced(play) if rng.random() < 0.85 else play
    if hokum_bias and phase.is_bidding:
        hokum = [a for a in legal if a.verb in (Verb.HOKUM, Verb.TRUMP)]
        if hokum and rng.random() < 0.7:
            return rng.choice(hokum)
        passes = [a for a in legal if a.verb is Verb.PASS]
        if passes and rng.random() < 0.85:
            return passes[0]
    if phase is Phase.DOUBLING and rng.random() < 0.6:
        return next(a for a in legal if a.verb is Verb.PASS)
    return rng.choice(legal)


#: 0-based deck positions that always reach P1 (R3.2, R7.2): its first five, and cards
#: 22–23, the first two of the completion whoever takes the exposed card.
_P1_POSITIONS = (0, 1, 2, 12, 13, 21, 22)
_RANKS = "AKQJT987"


def two_projects_deck(rng: random.Random) -> list[Card]:
    """A shuffled deck in which P1 surely holds two projects: a run of three or four and
    another run of three in another suit, or a run of three and four of a kind."""
    suits = rng.sample("shdc", 2)
    length = rng.choice((3, 4))
    start = rng.randrange(0, 9 - length)
    first = [r + suits[0] for r in _RANKS[start : start + length]]
    if rng.random() < 0.6:
        start = rng.randrange(0, 6)
        second = [r + suits[1] for r in _RANKS[start : start + 3]]
    else:
        first = first[:3]
        rank = rng.choice([r for r in "AKQJT" if r + suits[0] not in first])
        second = [rank + s for s in "shdc"]
    chosen = [Card.parse(t) for t in first + second]
    rest = [c for c in CardSet.full() if c not in chosen]
    rng.shuffle(rest)
    mine = chosen + rest[: 7 - len(chosen)]
    others = rest[7 - len(chosen) :]
    rng.shuffle(mine)
    deck: list[Card] = []
    for position in range(32):
        deck.append(mine.pop() if position in _P1_POSITIONS else others.pop())
    return deck


def deal(seed: int) -> tuple[Hand, random.Random, bool]:
    """A random hand under random rules; one in four deals P1 two projects."""
    rng = random.Random(seed)
    rules = Rules.random(rng)
    dealer = rng.choice(list(Seat))
    if rng.random() < 0.25:
        hand = Hand(two_projects_deck(rng), dealer, rules)
    else:
        hand = Hand.new(rng=rng, dealer=dealer, rules=rules)
    return hand, rng, rng.random() < 0.7


def tally(hand: Hand) -> Counter[str]:
    """What a finished hand exercised, for the driver's own test."""
    seen: Counter[str] = Counter()
    for action in hand.actions:
        if action.verb is Verb.DECLARE:
            named = [c for c in action.claims if c.cards is not None]
            seen["declaration"] += 1
            seen["declaration naming cards" if named else "declaration as kinds"] += 1
            if len(action.claims) == 2 and named:
                seen["two projects naming cards"] += 1
        seen["ekka"] += action.ekka
        seen["baloot"] += action.baloot
    contract = hand.contract
    if contract is not None:
        seen[contract.kind.value] += 1
    if hand.result().outcome is Outcome.ANNULLED:
        seen["annulled"] += 1
    if hand.shown_projects():
        seen["shown"] += 1
    return seen


def drive(seed: int, check: bool) -> Hand:
    """Play one random hand to its end; with ``check``, look at every view at every step,
    and check that a declaration reaches the other seats as its kinds only."""
    hand, rng, hokum_bias = deal(seed)
    if check:
        assert_no_leak(hand, "the deal")
    while not hand.is_over:
        applied = hand.apply(choose(hand, rng, hokum_bias))
        if not check:
            continue
        assert_no_leak(hand, f"after {applied}")
        if applied.verb is Verb.DECLARE:
            kinds = f"{applied.seat.name} declare " + " ".join(c.kind.word for c in applied.claims)
            for listener in LISTENERS:
                last = SeatView.of(hand, listener).actions[-1]
                assert str(last) == (str(applied) if listener == applied.seat else kinds)
    return hand


# --------------------------------------------------------------------------- the property


@whole_hands()
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_no_view_holds_a_card_its_seat_may_not_know(seed: int) -> None:
    drive(seed, check=True)


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_what_a_view_knows_of_the_others_depends_on_no_hidden_card(seed: int) -> None:
    """Deal the cards a seat has not seen otherwise (a world of its view): what every view
    of that world says in ``known`` is what the same view of the real hand says."""
    rng = random.Random(seed)
    hand = drive(seed, check=False)
    while len(hand.actions) > rng.randrange(len(hand.actions) + 1):
        hand.undo()
    listener = rng.choice(LISTENERS)
    other = WorldSampler(SeatView.of(hand, listener)).deal(rng)
    for seat in LISTENERS:
        assert SeatView.of(other, seat).known == SeatView.of(hand, seat).known


def test_the_driver_makes_the_dangerous_cases_common() -> None:
    """The property is only as good as its hands: over 200 of them the driver declares with
    and without cards (two projects too), leads Ekka, announces Baloot, shows projects, and
    plays both contracts."""
    seen: Counter[str] = Counter()
    for seed in range(200):
        seen.update(tally(drive(seed, check=False)))
    for what in (
        "declaration naming cards",
        "two projects naming cards",
        "declaration as kinds",
        "ekka",
        "baloot",
        "shown",
        "hokum",
        "sun",
    ):
        assert seen[what] >= 3, f"only {seen[what]} {what} in 200 hands: {seen}"
    assert seen["declaration naming cards"] >= 30, seen
    assert seen["hokum"] >= 60, seen


def test_the_record_example_with_its_sira_named_leaks_nothing() -> None:
    """docs/records.md's example hand, N declaring its Sira with the cards."""
    hand = Hand.from_deck(DECK, dealer="E")
    for text in ACTIONS:
        if text == "N declare sira":
            text = "N declare sira:AhKhQh"
        hand.apply(text)
        assert_no_leak(hand, f"after {text}")
    assert hand.is_over


# --------------------------------------------------------------------------- the checker can fail


def sira_hand(contract: str) -> Hand:
    """N holds the Sira T♦ 9♦ 8♦ and wins a round-1 ``contract`` on the exposed 7♠;
    nobody doubles, and N is to lead."""
    deck = build_deck(
        {
            "N": "Td 9d 8d As Kh 9c Jc 7s",
            "W": "Ks Qs Js Ts Ah Qh Jh Th",
            "S": "9s 8s Ad Kd Qd 9h 8h 7h",
            "E": "Jd 7d Ac Kc Qc Tc 8c 7c",
        },
        taker="N",
        exposed="7s",
    )
    hand = Hand.from_deck(deck, dealer="E")
    bid(hand, "N", contract)
    end_doubling(hand)
    assert hand.phase is Phase.PLAYING and hand.to_act is Seat.N
    assert hand.contract is not None and hand.contract.kind is ContractKind(contract)
    assert [str(p) for p in hand.projects("N")] == ["sira:Td9d8d"]
    return hand


SIRA = {Card.parse("Td"), Card.parse("9d"), Card.parse("8d")}


def test_the_checker_reads_cards_in_any_written_form() -> None:
    assert cards_in_text("N declare sira:Td9d8d") == SIRA
    assert cards_in_text("T♦ 9♦ 10h") == {*SIRA - {Card.parse("8d")}, Card.parse("Th")}
    assert cards_in_text('{"hand": ["As"], "x": "four-hundred:AsAhAdAc"}') == {
        Card.parse(t) for t in ("As", "Ah", "Ad", "Ac")
    }
    # Words of the view that are not cards.
    assert not cards_in_text(
        json.dumps(
            {"phase": "doubling", "kind": "sun", "rules": "classic", "x": "dealer_right", "y": 7}
        )
    )


def test_the_checker_finds_a_declaration_heard_with_its_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``heard`` made the identity, the other seats would hear N's cards: the checker
    must say so, in the value and in the JSON."""
    hand = sira_hand("hokum")
    hand.apply("N declare sira:Td9d8d")
    assert all(not any(leaks(SeatView.of(hand, s), hand).values()) for s in LISTENERS)
    monkeypatch.setattr(seat_view_module, "heard", lambda action, listener: action)
    for listener in (None, Seat.W, Seat.S, Seat.E):
        found = leaks(SeatView.of(hand, listener), hand)
        assert found == {"object": SIRA, "json": SIRA, "excluded": set()}
    assert leaks(SeatView.of(hand, Seat.N), hand) == {
        "object": set(),
        "json": set(),
        "excluded": set(),
    }
    with pytest.raises(AssertionError, match="holds cards it may not know"):
        assert_no_leak(hand, "with the leak")


def test_the_checker_finds_another_seats_cards_or_projects_in_a_view() -> None:
    hand = sira_hand("sun")
    view = SeatView.of(hand, "E")
    north = set(hand.hand(Seat.N)) - {hand.exposed}
    assert leaks(dataclasses.replace(view, cards=hand.hand(Seat.N)), hand) == {
        "object": north,
        "json": north,
        "excluded": set(),
    }
    assert leaks(dataclasses.replace(view, own_projects=hand.projects(Seat.N)), hand) == {
        "object": SIRA,
        "json": SIRA,
        "excluded": set(),
    }
    spectator = SeatView.of(hand, None)
    assert leaks(dataclasses.replace(spectator, cards=hand.hand(Seat.E)), hand)["json"]


def test_the_checker_finds_what_known_tells_beyond_its_public_facts() -> None:
    """A ``known`` whose excluded cards say more than its facts (here: that W does not hold
    N's Sira, which only N's hand tells), or that names a hidden card it holds."""
    hand = sira_hand("sun")
    view = SeatView.of(hand, "E")
    assert not any(leaks(view, hand).values())
    west = view.known[Seat.W]
    told = dataclasses.replace(west, excluded=west.excluded | CardSet(SIRA))
    found = leaks(dataclasses.replace(view, known={**view.known, Seat.W: told}), hand)
    assert found["excluded"] == SIRA
    holds = dataclasses.replace(west, holds=CardSet.parse("Ks"))
    found = leaks(dataclasses.replace(view, known={**view.known, Seat.W: holds}), hand)
    assert found["object"] == found["json"] == {Card.parse("Ks")}


def test_the_checker_refuses_a_value_it_cannot_read() -> None:
    with pytest.raises(AssertionError, match="unexpected value"):
        cards_in_object((object(),))


# --------------------------------------------------------------------------- the example


@pytest.mark.parametrize("contract", ["hokum", "sun"])
def test_a_declaration_naming_cards_reaches_the_others_as_its_kinds(contract: str) -> None:
    hand = sira_hand(contract)
    hand.apply("N declare sira:Td9d8d")
    for other in ("W", "S", "E"):
        heard = [str(a) for a in SeatView.of(hand, other).actions]
        assert "N declare sira:Td9d8d" not in heard
        assert heard[-1] == "N declare sira"
        assert not cards_in_json(SeatView.of(hand, other)) & SIRA
    assert [str(a) for a in SeatView.of(hand, None).actions][-1] == "N declare sira"
    north = SeatView.of(hand, "N")
    assert [str(a) for a in north.actions][-1] == "N declare sira:Td9d8d"
    assert north.to_json()["actions"][-1] == "N declare sira:Td9d8d"
    assert set(north.cards) >= SIRA
    assert north.to_json()["own_projects"] == ["sira:Td9d8d"]


@pytest.mark.parametrize("contract", ["hokum", "sun"])
def test_the_sira_is_public_once_the_second_trick_begins(contract: str) -> None:
    """Nobody else declared, so N's team shows the Sira at the second trick (R10.5)."""
    hand = sira_hand(contract)
    hand.apply("N declare sira:Td9d8d")
    shown = {"seat": "N", "project": "sira", "cards": ["Td", "9d", "8d"]}
    while hand.trick_number < 1:
        assert SeatView.of(hand, "E").to_json()["shown"] == []
        play = next(a for a in hand.legal_actions() if a.verb is Verb.PLAY and not a.ekka)
        hand.apply(play)
    for listener in LISTENERS:
        assert shown in SeatView.of(hand, listener).to_json()["shown"]
    assert_no_leak(hand, "the second trick")


def test_a_random_identifier_is_never_read_as_a_card() -> None:
    """A table's id and a seat's token are URL-safe text: ``Kh`` glued to one by ``-`` is no
    card, so that the leak checks do not fail on the id a room drew."""
    assert cards_in_text('{"id": "x3-Kh", "token": "Kh-9d_Qs"}') == frozenset()
    assert cards_in_text('{"action": "S play Kh", "cards": ["Kh", "9d"]}') == {
        Card.parse("Kh"),
        Card.parse("9d"),
    }
