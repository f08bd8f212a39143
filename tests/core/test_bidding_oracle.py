"""R4–R8 (bidding and doubling) read again from the text and decisions #1–#13, naively, and
checked against the engine: at every decision of random bidding sequences under random flags,
the seat to act, its legal calls and the resulting contract must agree."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from baloot import Hand, Rules, Seat

Ask = tuple[Seat, frozenset[str]]


class Done(Exception):
    """The oracle's bidding (or doubling) is over; ``result`` says how."""

    def __init__(self, result: tuple[object, ...]) -> None:
        super().__init__(result)
        self.result = result


class Oracle:
    """Replays the words of a hand's history and says what the next decision is."""

    def __init__(self, hand: Hand, words: list[tuple[Seat, str]]) -> None:
        self.rules: Rules = hand.rules
        self.exposed = hand.exposed
        self.order = [hand.dealer.after(i) for i in range(1, 5)]
        deck = hand.deck
        # R3.2: the first five of P1..P4 are deck cards 1-3 + 13-14, 4-6 + 15-16, and so on.
        self.five = {
            seat: deck[3 * i : 3 * i + 3] + deck[12 + 2 * i : 14 + 2 * i]
            for i, seat in enumerate(self.order)
        }
        self.before = hand.score_before
        self.words: Iterator[tuple[Seat, str]] = iter(words)

    def ask(self, seat: Seat, calls: set[str]) -> str:
        """The next word of the history, which must be ``seat``'s; or stop here."""
        try:
            who, word = next(self.words)
        except StopIteration:
            raise Done(("ask", seat, frozenset(calls))) from None
        assert who == seat and word in calls, (who, word, seat, calls)
        return word

    def ace(self) -> bool:
        return self.exposed.rank.letter == "A"

    def ashkal_ok(self, seat: Seat, round_: int, hokum: Seat | None) -> bool:
        r = self.rules
        if self.order.index(seat) < 2 or (self.ace() and not r.ashkal_on_ace):
            return False
        if round_ == 2 and not r.ashkal_round2:
            return False
        after_passes = hokum is None
        over = hokum is not None and hokum.team != seat.team
        return {
            "after_passes": after_passes,
            "over_opponent_hokum": over,
            "both": after_passes or over,
        }[r.ashkal_mode]

    def bidding(self) -> tuple[str, Seat, str | None]:
        """(kind, declarer, trump letter) or raise Done."""
        r = self.rules
        exposed_suit = self.exposed.suit.letter
        hokum: Seat | None = None
        for i, seat in enumerate(self.order):
            restricted = r.ace_hokum_sun_only_p1 and self.ace() and hokum is not None
            calls = {"pass"}
            if hokum is None:
                calls.add("hokum")
            if not restricted:
                calls.add("sun")
                if self.ashkal_ok(seat, 1, hokum):
                    calls.add("ashkal")
            low = all(c.rank.letter in "789" for c in self.five[seat])
            if r.kawesh_enabled and low:
                calls.add("kawesh")
            word = self.ask(seat, calls)
            if word == "kawesh":
                raise Done(("annulled",))
            if word == "hokum":
                hokum = seat
            if word in ("sun", "ashkal"):
                window = [
                    s for s in self.order[:i]
                    if not (s == hokum and not r.hokum_bidder_may_upgrade_to_sun)
                ]  # fmt: skip
                for s in window:
                    if self.ask(s, {"pass", "sun"}) == "sun":
                        return ("sun", s, None)
                return ("sun", seat.partner if word == "ashkal" else seat, None)
        if hokum is not None:
            earlier = self.order[: self.order.index(hokum)]
            if r.ace_hokum_sun_only_p1 and self.ace():
                window = earlier[:1]
                confirm = r.hokum_bidder_may_upgrade_to_sun and hokum == self.order[0]
            else:
                window = earlier
                confirm = r.hokum_bidder_may_upgrade_to_sun
            for s in window + ([hokum] if confirm else []):
                if self.ask(s, {"pass", "sun"}) == "sun":
                    return ("sun", s, None)
            return ("hokum", hokum, exposed_suit)
        hokum2: Seat | None = None
        for seat in self.order:
            calls = {"pass", "sun"}
            if hokum2 is None:
                calls.add("hokum")
            if self.ashkal_ok(seat, 2, hokum2):
                calls.add("ashkal")
            word = self.ask(seat, calls)
            if word == "sun":
                return ("sun", seat, None)
            if word == "ashkal":
                return ("sun", seat.partner, None)
            if word == "hokum":
                hokum2 = seat
        if hokum2 is not None:
            namings = {f"trump {x}" for x in "shdc" if x != exposed_suit}
            if r.hokum_bidder_may_upgrade_to_sun:
                namings.add("sun")
            word = self.ask(hokum2, namings)
            if word == "sun":
                return ("sun", hokum2, None)
            return ("hokum", hokum2, word[-1])
        if (
            r.third_round_on_ace
            and self.ace()
            and self.ask(self.order[0], {"pass", "sun"}) == "sun"
        ):
            return ("sun", self.order[0], None)
        raise Done(("annulled",))

    def doubling(self, kind: str, declarer: Seat) -> tuple[int, bool]:
        """(level, locked) or raise Done."""
        r = self.rules
        opponents = [s for s in self.order if s.team != declarer.team]
        if kind == "sun":
            ours, theirs = self.before[declarer.team], self.before[declarer.team.other]
            allowed = {
                "either_side_gt_lt": (ours > 100 > theirs) or (theirs > 100 > ours),
                "declarer_gt100_doubler_lt100": ours > 100 > theirs,
                "declarer_gt100_doubler_le100": ours > 100 and theirs <= 100,
            }[r.sun_double_rule]
            if allowed:
                for s in opponents:
                    if self.ask(s, {"double", "pass"}) == "double":
                        return (2, False)
            return (1, False)
        doubler = None
        for s in opponents:
            word = self.ask(s, {"double open", "double locked", "pass"})
            if word != "pass":
                doubler, locked = s, word.endswith("locked")
                break
        if doubler is None:
            return (1, False)
        if self.ask(declarer, {"triple", "pass"}) == "pass":
            return (2, locked)
        locked = locked and r.lock_persists_through_escalation
        word = self.ask(doubler, {"four open", "four locked", "pass"})
        if word == "pass":
            return (3, locked)
        locked = word.endswith("locked")
        if self.ask(declarer, {"gahwa", "pass"}) == "pass":
            return (4, locked)
        return (5, locked and r.lock_persists_through_escalation)


def oracle_state(hand: Hand) -> tuple[object, ...]:
    """What the oracle expects now: an ("ask", seat, calls), a contract, or an annulment."""
    words = []
    for action in hand.actions:
        text = str(action)
        words.append((action.seat, text.split(" ", 1)[1]))
    oracle = Oracle(hand, words)
    try:
        kind, declarer, trump = oracle.bidding()
        level, locked = oracle.doubling(kind, declarer)
    except Done as done:
        return done.result
    return ("play", kind, declarer, trump, level, locked)


def engine_state(hand: Hand) -> tuple[object, ...]:
    phase = hand.phase.value
    if hand.is_over and hand.contract is None:
        return ("annulled",)
    if phase not in ("playing", "over"):
        seat = hand.to_act
        assert seat is not None
        calls = frozenset(str(a).split(" ", 1)[1] for a in hand.legal_actions())
        return ("ask", seat, calls)
    contract = hand.contract
    assert contract is not None
    trump = None if contract.trump is None else contract.trump.letter
    level = int(contract.level)
    return ("play", contract.kind.value, contract.declarer, trump, level, contract.locked)


@pytest.mark.parametrize("block", range(4))
def test_bidding_and_doubling_follow_the_literal_reading(block: int) -> None:
    compared = 0
    for seed in range(block * 500, block * 500 + 500):
        rng = random.Random(seed)
        rules = Rules.random(rng)
        before = rng.choice([(0, 0), (120, 80), (80, 120), (120, 100), (101, 100), (99, 140)])
        hand = Hand.new(rng=rng, dealer=rng.choice(list(Seat)), rules=rules, score_before=before)
        while True:
            expected = oracle_state(hand)
            assert engine_state(hand) == expected, (seed, rules, [str(a) for a in hand.actions])
            compared += 1
            if expected[0] != "ask":
                break
            legal = hand.legal_actions()
            # Lean away from Sun, or nearly every auction ends at the first Sun offer.
            quiet = [a for a in legal if str(a).split(" ", 1)[1] not in ("sun", "ashkal")]
            hand.apply(rng.choice(quiet) if quiet and rng.random() < 0.75 else rng.choice(legal))
    assert compared > 3000
