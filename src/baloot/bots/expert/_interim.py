"""Stand-ins for the knowledge, worlds, solver and bot-options interfaces (INTERFACES.md)
until those land: same names and signatures, simpler insides. Only ``support`` imports this."""

from __future__ import annotations

import random
from enum import Enum
from typing import Final

from baloot.core import _lookup as T
from baloot.core._play import play_mask
from baloot.core.actions import Action, Verb
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.core.vocabulary import ContractKind

_FIRST_DEAL: Final = (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3)
PLAIN_POINTS: Final = (11, 4, 3, 2, 10, 0, 0, 0)
TRUMP_POINTS: Final = (11, 4, 3, 20, 10, 14, 0, 0)


class Mode(Enum):
    SCORE = "score"
    POINTS = "points"


def accelerated() -> bool:
    return False


class Position:
    """A cheap mutable play state over ints and masks."""

    __slots__ = (
        "ekka",
        "gone",
        "hands",
        "leader",
        "locked",
        "ntricks",
        "plmt",
        "stack",
        "to_act",
        "trick",
        "trick_no",
        "trump",
        "undertrump",
        "win_card",
        "win_seat",
        "won",
    )  # fmt: skip

    hands: list[int]
    trick: tuple[int, ...]

    @classmethod
    def of(cls, hand: Hand) -> Position:
        p = cls.__new__(cls)
        contract = hand.contract
        assert contract is not None
        p.hands = [hand.hand(s).mask for s in Seat]
        p.trump = -1 if contract.kind is ContractKind.SUN else int(contract.trump or 0)
        p.locked = contract.locked
        p.plmt = hand.rules.partner_led_must_trump
        p.undertrump = hand.rules.must_undertrump
        cur = hand.current_trick
        p.trick = tuple(c.index for _, c in cur)
        p.to_act = int(hand.to_act) if hand.to_act is not None else -1
        p.leader = int(cur[0][0]) if cur else p.to_act
        p.win_seat, p.win_card = -1, -1
        p.ekka = False
        if cur:
            last_lead = [a for a in hand.actions if a.verb is Verb.PLAY][-len(cur)]
            p.ekka = last_lead.ekka
            p.win_seat, p.win_card = int(cur[0][0]), cur[0][1].index
            for s, c in cur[1:]:
                p._beat(int(s), c.index)
        pts = hand.card_points()
        p.won = [pts[0], pts[1]]
        p.ntricks = list(hand.tricks_won)
        p.trick_no = hand.trick_number
        p.gone = hand.played().mask & ~sum(1 << c for c in p.trick)
        p.stack = []
        return p

    def copy(self) -> Position:
        p = Position.__new__(Position)
        for name in Position.__slots__:
            setattr(p, name, getattr(self, name))
        p.hands = list(self.hands)
        p.won = list(self.won)
        p.ntricks = list(self.ntricks)
        p.stack = []
        return p

    @property
    def is_over(self) -> bool:
        return self.trick_no == 8

    def legal(self) -> int:
        s = self.to_act
        return play_mask(
            self.hands[s],
            self.trick,
            bool((self.win_seat ^ s) & 1),
            self.win_card,
            self.ekka,
            self.trump,
            self.locked,
            self.plmt,
            self.undertrump,
        )

    def _beat(self, s: int, c: int) -> None:
        w = self.win_card
        if c >> 3 == w >> 3:
            table = T.TRUMP_RANK_STRENGTH if w >> 3 == self.trump else T.PLAIN_RANK_STRENGTH
            if table[c] > table[w]:
                self.win_seat, self.win_card = s, c
        elif c >> 3 == self.trump:
            self.win_seat, self.win_card = s, c

    def points(self, c: int) -> int:
        return (TRUMP_POINTS if c >> 3 == self.trump else PLAIN_POINTS)[c & 7]

    def play(self, c: int, ekka: bool = False) -> None:
        s = self.to_act
        self.stack.append(
            (self.trick, self.leader, self.to_act, self.win_seat, self.win_card, self.ekka,
             self.won[0], self.won[1], self.ntricks[0], self.ntricks[1], self.trick_no, self.gone, c)
        )  # fmt: skip
        self.hands[s] ^= 1 << c
        if not self.trick:
            self.leader = s
            self.ekka = ekka
            self.win_seat, self.win_card = s, c
        else:
            self._beat(s, c)
        self.trick = (*self.trick, c)
        if len(self.trick) < 4:
            self.to_act = (s + 1) & 3
            return
        pts = sum(self.points(x) for x in self.trick)
        w = self.win_seat
        self.trick_no += 1
        if self.trick_no == 8:
            pts += 10
        self.won[w & 1] += pts
        self.ntricks[w & 1] += 1
        for x in self.trick:
            self.gone |= 1 << x
        self.trick = ()
        self.leader = self.to_act = w

    def undo(self) -> None:
        (self.trick, self.leader, self.to_act, self.win_seat, self.win_card, self.ekka,
         w0, w1, t0, t1, self.trick_no, self.gone, c) = self.stack.pop()  # fmt: skip
        self.won = [w0, w1]
        self.ntricks = [t0, t1]
        self.hands[self.to_act] |= 1 << c

    def card_points(self) -> tuple[int, int]:
        return (self.won[0], self.won[1])

    def tricks(self) -> tuple[int, int]:
        return (self.ntricks[0], self.ntricks[1])

    def key(self) -> tuple[int, ...]:
        return (*self.hands, self.to_act, *self.trick)

    def playout(self, rng: random.Random) -> None:
        while self.trick_no < 8:
            cards = _bits(self.legal())
            self.play(cards[rng.randrange(len(cards))])


_ORDER: Final = tuple(sorted(range(8), key=lambda r: -T.PLAIN_RANK_STRENGTH[r]))


def _search(p: Position, alpha: int, beta: int, tt: dict[tuple[int, ...], tuple[int, int]]) -> int:
    """Future card points, team to act minus the other, by alpha-beta."""
    if p.trick_no == 8:
        return 0
    key = p.key()
    entry = tt.get(key)
    if entry is not None:
        value, flag = entry
        if flag == 0 or (flag > 0 and value >= beta) or (flag < 0 and value <= alpha):
            return value
    me = p.to_act & 1
    best = -1000
    a0 = alpha
    mask = p.legal()
    cards = _bits(mask)
    cards.sort(key=lambda c: -p.points(c) - (20 if c >> 3 == p.trump else 0))
    for c in cards:
        before = p.won[me] - p.won[me ^ 1]
        p.play(c)
        delta = p.won[me] - p.won[me ^ 1] - before
        if p.trick_no == 8:
            v = delta
        elif p.to_act & 1 == me:
            v = delta + _search(p, alpha - delta, beta - delta, tt)
        else:
            v = delta - _search(p, delta - beta, delta - alpha, tt)
        p.undo()
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    flag = 1 if best >= beta else (-1 if best <= a0 else 0)
    tt[key] = (best, flag)
    return best


def values(hand: Hand, mode: Mode = Mode.SCORE) -> dict[Action, int]:
    p = Position.of(hand)
    me = p.to_act & 1
    base = p.won[me] - p.won[me ^ 1]
    tt: dict[tuple[int, ...], tuple[int, int]] = {}
    by_card: dict[int, int] = {}
    for c in _bits(p.legal()):
        before = p.won[me] - p.won[me ^ 1]
        p.play(c)
        delta = p.won[me] - p.won[me ^ 1] - before
        if p.trick_no == 8:
            v = delta
        elif p.to_act & 1 == me:
            v = delta + _search(p, -1000, 1000, tt)
        else:
            v = delta - _search(p, -1000, 1000, tt)
        p.undo()
        by_card[c] = base + v
    out: dict[Action, int] = {}
    best = max(by_card.values())
    for action in hand.legal_actions():
        if action.card is not None:
            out[action] = by_card[action.card.index]
        else:
            out[action] = best
    return out


def solve(hand: Hand, mode: Mode = Mode.SCORE) -> int:
    return max(values(hand, mode).values())
