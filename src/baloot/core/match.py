"""A match: hands until a team reaches 152 with the higher total, or wins a Gahwa (R13).

A match deals its own hands from an injected generator, or, without one, waits for each deck
(replaying a record). It drives its hands through the same door as a lone hand.

>>> import random
>>> m = Match.new(rng=random.Random(3), dealer="E")
>>> m.hand.dealer, m.totals, m.winner
(<Seat.E: 3>, (0, 0), None)
>>> players = random.Random(4)
>>> while not m.is_over:
...     _ = m.apply(players.choice(m.legal_actions()))
>>> m.winner, m.totals, len(m.hands)
(<Team.EW: 1>, (126, 152), 9)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from baloot.core.actions import Action
from baloot.core.cards import Card
from baloot.core.checked import Checked
from baloot.core.errors import IllegalActionError
from baloot.core.hand import Hand, checked_rng, checked_rules, checked_score
from baloot.core.reasons import ReasonCode
from baloot.core.rules import Rules
from baloot.core.scoring import HandResult
from baloot.core.seats import Seat, Team

TARGET = 152


def match_winner(totals: tuple[int, int], gahwa_winner: Team | None = None) -> Team | None:
    """R13.2–R13.3: the match winner after a hand, or None if play goes on.

    >>> match_winner((156, 150)), match_winner((158, 158)), match_winner((10, 3), Team.EW)
    (<Team.NS: 0>, None, <Team.EW: 1>)
    """
    if gahwa_winner is not None:
        return gahwa_winner
    if max(totals) >= TARGET and totals[0] != totals[1]:
        return Team.NS if totals[0] > totals[1] else Team.EW
    return None


class Match:
    """Hands in sequence with running totals, dealer rotation and the end at 152 (R13)."""

    def __init__(
        self,
        rules: Rules | None = None,
        dealer: Seat | str = Seat.E,
        rng: random.Random | None = None,
        score_before: tuple[int, int] = (0, 0),
        auto_deal: bool = True,
    ) -> None:
        self.rules = checked_rules(rules)
        self.rng = checked_rng(rng)
        self.auto_deal = auto_deal
        self.score_before = checked_score(score_before)
        self.first_dealer = Seat.coerce(dealer, "dealer")
        self.hands: list[Hand] = []
        self._undealt: list[tuple[Card, ...]] = []
        self.results: list[HandResult] = []
        self._after: list[tuple[int, int]] = []
        self._winner = match_winner(self.score_before)
        if rng is not None and self._winner is None:
            self.deal()

    @classmethod
    def new(
        cls,
        rng: random.Random | None = None,
        dealer: Seat | str = Seat.E,
        rules: Rules | None = None,
        auto_deal: bool = True,
    ) -> Match:
        """A match that shuffles its own decks with ``rng`` (pass ``random.Random(seed)``).

        With ``auto_deal`` False the next hand waits for :meth:`deal` (a table deals when its
        players are ready); by default it is dealt as soon as a hand ends.
        """
        rng = rng if rng is not None else random.Random()
        return cls(rules, dealer, rng, auto_deal=auto_deal)

    @property
    def hand(self) -> Hand:
        """The hand in progress (or the last one, once the match is over)."""
        if not self.hands:
            raise IllegalActionError.of(ReasonCode.NO_HAND_YET)
        return self.hands[-1]

    @property
    def totals(self) -> tuple[int, int]:
        """Running totals (NS, EW) after the finished hands."""
        return self._after[-1] if self._after else self.score_before

    @property
    def totals_after(self) -> tuple[tuple[int, int], ...]:
        """The running totals (NS, EW) after each finished hand, in order, ``score_before``
        included: what the score sheet writes below each hand of :attr:`results`.

        >>> m = Match(dealer="E", score_before=(20, 10))
        >>> m.totals_after, m.totals
        ((), (20, 10))
        """
        return tuple(self._after)

    @property
    def winner(self) -> Team | None:
        """The team that won the match, or None."""
        return self._winner

    @property
    def is_over(self) -> bool:
        """True once a team has won."""
        return self._winner is not None

    @property
    def next_dealer(self) -> Seat:
        """The dealer of the next hand to deal (R1.4, #9)."""
        return self.hands[-1].next_dealer if self.hands else self.first_dealer

    @property
    def to_act(self) -> Seat | None:
        """The seat to act in the hand in progress, or None."""
        if self._winner is not None or not self.hands:
            return None
        return self.hands[-1].to_act

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions in the hand in progress."""
        if self._winner is not None or not self.hands:
            return ()
        return self.hands[-1].legal_actions()

    def deal(self, deck: Sequence[Card] | str | None = None, dealer: Seat | None = None) -> Hand:
        """Start the next hand, from ``deck`` or shuffled by the match's generator."""
        if self._winner is not None:
            raise IllegalActionError.of(ReasonCode.MATCH_OVER)
        if self.hands and not self.hands[-1].is_over:
            raise IllegalActionError.of(ReasonCode.HAND_NOT_OVER)
        expected = self.next_dealer
        if dealer is not None and dealer != expected:
            raise IllegalActionError.of(
                ReasonCode.WRONG_DEALER, dealer=expected.name, seat=dealer.name
            )
        if deck is None and self._undealt:
            deck = self._undealt.pop()
        if deck is None:
            if self.rng is None:
                raise IllegalActionError.of(ReasonCode.NO_GENERATOR)
            hand = Hand.new(self.rng, expected, self.rules, self.totals)
        else:
            hand = Hand.from_deck(deck, expected, self.rules, self.totals)
        self.hands.append(hand)
        return hand

    def apply(self, action: Action | str | Checked) -> Action:
        """Apply an action to the hand in progress (one :meth:`Hand.check` checked is not
        checked again); score the hand when it ends."""
        if self._winner is not None:
            raise IllegalActionError.of(ReasonCode.MATCH_OVER, str(action))
        hand = self.hand
        applied = hand.apply(action)
        if hand.is_over:
            result = hand.result()
            self.results.append(result)
            score = result.score or (0, 0)
            before = self.totals
            self._after.append((before[0] + score[0], before[1] + score[1]))
            self._winner = match_winner(self.totals, result.gahwa_winner)
            if self._winner is None and self.rng is not None and self.auto_deal:
                self.deal()
        return applied

    def undo(self) -> Action:
        """Take back the last action, across the start of a hand if need be."""
        if self.hands and not self.hands[-1].actions and len(self.hands) > 1:
            self._undealt.append(self.hands.pop().deck)
        if not self.hands or not self.hands[-1].actions:
            raise IllegalActionError.of(ReasonCode.NOTHING_TO_UNDO)
        hand = self.hands[-1]
        if hand.is_over:
            self.results.pop()
            self._after.pop()
            self._winner = match_winner(self.totals)
        return hand.undo()

    def __repr__(self) -> str:
        state = f"won by {self._winner.name}" if self._winner is not None else "in progress"
        return f"<Match hands={len(self.hands)} totals={self.totals} {state}>"
