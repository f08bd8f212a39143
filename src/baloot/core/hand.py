"""One deal of Baloot as a state machine: bidding, trump naming, doubling, play (R3–R12).

There is one door: :meth:`Hand.legal_actions` lists what the seat to act may do, and
:meth:`Hand.apply` checks and applies one action; :meth:`Hand.undo` takes it back. A bot, a
replayed record and a user interface all drive the engine this way.

>>> import random
>>> hand = Hand.new(rng=random.Random(7), dealer="E")
>>> hand.phase, hand.to_act
(<Phase.BIDDING_ROUND_1: 'bidding-1'>, <Seat.N: 0>)
>>> [str(a) for a in hand.legal_actions()]
['N hokum', 'N pass', 'N sun']
>>> hand.apply("N sun")
Action('N sun')
>>> hand.phase, hand.contract.kind, hand.contract.declarer
(<Phase.PLAYING: 'playing'>, <ContractKind.SUN: 'sun'>, <Seat.N: 0>)
>>> hand.apply("S play As")
Traceback (most recent call last):
...
baloot.IllegalActionError: "S play As": it is N's turn
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import overload

from baloot.core._bidding import Bidding
from baloot.core._outcome import Results
from baloot.core._play import Play
from baloot.core._state import (
    DOUBLING,
    HOKUM,
    NAMING,
    OVER,
    PLAY_MUTABLE,
    PLAYING,
    SUN,
    HandState,
    play_restore,
    play_snapshot,
    restore,
)
from baloot.core.actions import Action, Verb, action_words, parse_after_seat
from baloot.core.cards import CARDS, Card, CardSet
from baloot.core.checked import Checked, stamp, stamped
from baloot.core.errors import IllegalActionError, NotationError
from baloot.core.knowledge import Knowledge, every_seat
from baloot.core.position import Position, Stakes
from baloot.core.projects import Project
from baloot.core.reasons import Reason, ReasonCode
from baloot.core.rules import CLASSIC, Rules
from baloot.core.seats import SEATS, Seat
from baloot.core.vocabulary import Contract, Phase, Question


class Hand(Bidding, Play, Results):
    """One deal, from the first bid to the last trick.

    Seats and cards are plain ints inside (seat = place in play order from N, card = mask bit)
    so that the hot path is bit arithmetic; the public methods speak :class:`Seat`,
    :class:`Card` and :class:`Action`. The rules are its private bases: the auction
    (``_bidding``), the play and the declarations (``_play``, ``_declarations``), and what
    the hand comes to: tricks, points and its result (``_outcome``).
    """

    __slots__ = ()

    def __init__(
        self,
        deck: Sequence[Card],
        dealer: Seat | str = Seat.E,
        rules: Rules | None = None,
        score_before: tuple[int, int] = (0, 0),
    ) -> None:
        if isinstance(deck, str) or not all(isinstance(c, Card) for c in deck):
            raise TypeError("a deck is a sequence of 32 Card values (see Hand.from_deck)")
        indices = tuple(c.index for c in deck)
        if len(indices) != 32 or len(set(indices)) != 32:
            raise NotationError("a deck is 32 distinct cards")
        self._setup(indices, dealer, checked_rules(rules), checked_score(score_before))

    @classmethod
    def new(
        cls,
        rng: random.Random | None = None,
        dealer: Seat | str = Seat.E,
        rules: Rules | None = None,
        score_before: tuple[int, int] = (0, 0),
    ) -> Hand:
        """A hand dealt from a deck shuffled by ``rng`` (pass ``random.Random(seed)``).

        >>> Hand.new(dealer=4)
        Traceback (most recent call last):
        ...
        TypeError: dealer must be a Seat or one of 'N', 'W', 'S', 'E', not int 4
        """
        rng = checked_rng(rng)
        seat = Seat.coerce(dealer, "dealer")
        checked, before = checked_rules(rules), checked_score(score_before)
        hand = cls.__new__(cls)
        hand._setup(_shuffled(rng if rng is not None else random.Random()), seat, checked, before)
        return hand

    @classmethod
    def from_deck(
        cls,
        deck: Sequence[Card] | str,
        dealer: Seat | str = Seat.E,
        rules: Rules | None = None,
        score_before: tuple[int, int] = (0, 0),
    ) -> Hand:
        """A hand dealt from a given deck, top card first (R3.2, R7.2).

        >>> h = Hand.from_deck("9c 8d Th 9h Jc 8s Qs Js As 7d 8h Td Kc Qh Kd 7s Qd Qc "
        ...                    "Ks Jh Jd Ad Kh Ah Ts Ac 9s 7c 8c Tc 9d 7h")
        >>> h.exposed, h.hand(Seat.N)
        (Card('Jd'), CardSet('Qh Th 8d Kc 9c'))
        """
        cards = [Card.parse(w) for w in deck.split()] if isinstance(deck, str) else list(deck)
        return cls(cards, dealer, rules, score_before)

    @property
    def rules(self) -> Rules:
        """The variant flags in force."""
        return self._rules

    @property
    def dealer(self) -> Seat:
        """The dealer of this hand."""
        return SEATS[self._dealer]

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck, top card first."""
        return tuple(CARDS[i] for i in self._deck)

    @property
    def score_before(self) -> tuple[int, int]:
        """Match totals (NS, EW) before this hand."""
        return self._score_before

    @property
    def exposed(self) -> Card:
        """The exposed card (card 21 of the deck)."""
        return CARDS[self._exposed]

    @property
    def phase(self) -> Phase:
        """The phase the hand is in."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """True when the hand is played out or annulled."""
        return self._phase is OVER

    @property
    def to_act(self) -> Seat | None:
        """The seat that must act next, or None when the hand is over."""
        return None if self._phase is OVER else SEATS[self._to_act]

    @property
    def actions(self) -> list[Action]:
        """The actions applied so far, in order (a copy)."""
        return list(self._actions)

    @property
    def trick_number(self) -> int:
        """Completed tricks so far (0–8)."""
        return self._trick_no

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks (NS, EW) taken so far."""
        return self._tricks

    @property
    def current_trick(self) -> list[tuple[Seat, Card]]:
        """The cards of the trick in progress, in playing order."""
        return [(SEATS[(self._leader + i) & 3], CARDS[c]) for i, c in enumerate(self._trick)]

    @property
    def question(self) -> Question | None:
        """What the seat to act is asked now (a bid, a Sun take-over, a double…), or None.

        >>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
        >>> for call in ("N pass", "W hokum", "S pass", "E pass"):
        ...     _ = hand.apply(call)
        >>> hand.question, hand.legal_actions()
        (Question(kind=<QuestionKind.SUN_OVER_HOKUM: 'sun-over-hokum'>, about=<Seat.W: 1>), \
(Action('N pass'), Action('N sun')))
        """
        return self._question()

    @property
    def bidding_length(self) -> int | None:
        """How many of the actions were bidding (trump naming included), once it is over."""
        return None if self._bid_length < 0 else self._bid_length

    def bidding(self) -> tuple[Action, ...]:
        """The calls of the bidding so far, trump naming included (R4–R7)."""
        end = len(self._actions) if self._bid_length < 0 else self._bid_length
        return tuple(self._actions[:end])

    def doubling(self) -> tuple[Action, ...]:
        """The answers of the doubling ladder (R8), once the bidding is over."""
        if self._bid_length < 0:
            return ()
        answers: list[Action] = []
        for action in self._actions[self._bid_length :]:
            if action.verb is Verb.PLAY or action.verb is Verb.DECLARE:
                break
            answers.append(action)
        return tuple(answers)

    @property
    def round_two_start(self) -> int | None:
        """Where the second bidding round begins among the actions, or None if it did not.

        Round 1 ends without a contract only when all four seats passed (R4.5), so round 2
        begins at the fifth call.
        """
        if self._phase is Phase.BIDDING_ROUND_1:
            return None
        calls = self.bidding()
        if len(calls) > 4 and all(a.verb is Verb.PASS for a in calls[:4]):
            return 4
        return None

    @property
    def taker(self) -> Seat | None:
        """The seat that took the exposed card, once the contract is known."""
        return None if self._declarer < 0 else SEATS[self._declarer]

    def hand(self, seat: Seat | str) -> CardSet:
        """The cards ``seat`` holds now (before completion: its first five)."""
        return CardSet(self._hands[_seat(seat)])

    def full_hand(self, seat: Seat | str) -> CardSet:
        """The 8 cards ``seat`` was dealt (empty before the deal is completed)."""
        return CardSet(self._full[_seat(seat)])

    def completed_deal(self, taker: Seat | str) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        """The 8 cards of each seat (by seat) once ``taker`` takes the exposed card (R7.2).

        The deck fixes the completion for whichever seat takes the card, so it can be asked
        at any time, before the bidding ends too (``baloot deal --taker``); it is the rule the
        hand itself deals by once the contract is made (then it equals :meth:`full_hand`).

        >>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
        >>> str(hand.hand("N")), str(hand.hand("W")), hand.exposed
        ('As Ks Qs Th 9h', 'Js Ts 9s 8h 7h', Card('Td'))
        >>> north, west, south, east = hand.completed_deal("W")
        >>> str(north), str(west)
        ('As Ks Qs Th 9h 9d 8d 7d', 'Js Ts 9s 8h 7h Td Ac Kc')
        >>> _ = hand.apply("N sun")
        >>> hand.taker, hand.completed_deal("N") == tuple(hand.full_hand(seat) for seat in Seat)
        (<Seat.N: 0>, True)
        """
        hands = self._completion(_seat(taker))
        return (CardSet(hands[0]), CardSet(hands[1]), CardSet(hands[2]), CardSet(hands[3]))

    @property
    def contract(self) -> Contract | None:
        """The contract once the bidding is over (the level grows during doubling)."""
        return self._contract()

    def projects(self, seat: Seat | str) -> tuple[Project, ...]:
        """The projects in ``seat``'s complete hand (R10.4), strongest first."""
        return self._reading(_seat(seat))

    def declared(self, seat: Seat | str) -> tuple[Project, ...] | None:
        """What ``seat`` declared in trick 1, or None if it has not declared."""
        return self._declared[_seat(seat)]

    def knowledge(self, seat: Seat | str) -> Knowledge:
        """What the public history proves about the hidden cards of ``seat``: the suits it
        cannot hold, the trumps it cannot hold, the cards it surely holds, the kinds of project
        it declared (see :mod:`baloot.core.knowledge`). Derived from public actions only, so
        it is the same for every seat that looks.
        """
        return every_seat(self)[_seat(seat)]

    def played(self) -> CardSet:
        """Every card played so far, the trick in progress included."""
        mask = self._gone
        for card in self._trick:
            mask |= 1 << card
        return CardSet(mask)

    @overload
    def announced(self, action: Action) -> Action: ...
    @overload
    def announced(self, action: Checked) -> Checked: ...
    def announced(self, action: Action | Checked) -> Action | Checked:
        """``action`` (checked or not: the word is the one the rules ask for) with the Baloot
        word added when it plays the second of the King and Queen of trumps (R11.3), as a
        player announces it; any other action unchanged. The word is optional in a record
        (#15): interfaces use this to announce for a player."""
        if isinstance(action, Checked):
            said = self.announced(action.action)
            return action if said is action.action else dataclasses.replace(action, action=said)
        card = action.card
        if card is not None and not action.baloot and self._baloot_due(action.seat, card.index):
            return dataclasses.replace(action, baloot=True)
        return action

    def play_restriction(self) -> Reason | None:
        """Why the seat to act may not play every card it holds, under the rules in force
        (R9.3–R9.4), or None when any card goes; the engine's own reason for a card it
        refuses, so an interface can say why a card is forced before it is played.

        >>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
        >>> for call in ("N sun", "N play As"):
        ...     _ = hand.apply(call)
        >>> hand.play_restriction()
        Reason(code=<ReasonCode.MUST_FOLLOW: 'must_follow'>, params={'seat': 'W', 'suit': 'spades'})
        """
        if self._phase is not PLAYING:
            return None
        s = self._to_act
        held = self._hands[s]
        allowed = self._play_mask(s)
        refused = held & ~allowed
        if not refused:
            return None
        same_suits = 0
        for suit in range(4):
            if allowed >> (8 * suit) & 0xFF:
                same_suits |= 0xFF << (8 * suit)
        pick = refused & same_suits or refused
        c = (pick & -pick).bit_length() - 1
        error = self._explain_play(Action(SEATS[s], Verb.PLAY, card=CARDS[c]), c, allowed)
        assert error.code is not None  # every rule of the play has its code
        return Reason(error.code, error.params)

    def position(self, *, stakes: bool = False) -> Position:
        """The play from here on as the one state to search (:mod:`baloot.core.position`):
        cards as masks, ``play`` and ``undo``, no history. With ``stakes`` it also carries
        what the play is scored for (:class:`~baloot.core.position.Stakes`), which a search of
        the written score needs. The hand must be in its play phase, or played out.

        >>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
        >>> hand.position()
        Traceback (most recent call last):
        ...
        ValueError: a position is taken in the play phase, not in bidding-1
        >>> _ = hand.apply("N sun")
        >>> hand.position(), hand.position().stakes
        (<Position trick 1, seat 0 to play []>, None)
        """
        if self._phase is not PLAYING and not (self._phase is OVER and self._trick_no == 8):
            raise ValueError(f"a position is taken in the play phase, not in {self._phase.value}")
        if not stakes:
            return Position._of(self, None)
        scratch = self.copy() if self._trick_no == 0 else None
        return Position._of(self, Stakes._of(self, scratch))

    def copy(self) -> Hand:
        """An independent copy (its undo history included)."""
        other = Hand.__new__(Hand)
        for name in HandState.__slots__:
            setattr(other, name, getattr(self, name))
        other._actions = list(self._actions)
        other._stack = list(self._stack)
        other._readings = None if self._readings is None else list(self._readings)
        return other

    def undo(self) -> Action:
        """Take back the last action and return it."""
        if not self._stack:
            raise IllegalActionError.of(ReasonCode.NOTHING_TO_UNDO)
        saved = self._stack.pop()
        if len(saved) == len(PLAY_MUTABLE):
            play_restore(self, saved)
        else:
            restore(self, saved)
        self._legal = None
        self._legal_mask = -1
        if self._kind == 0:
            self._readings = None
        return self._actions.pop()

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act.

        Declarations come first, then plays by suit (♠ ♥ ♦ ♣) high card first, each Ekka
        lead right after its plain play; calls in a fixed order. The record format's sorted
        listing (#43) is :func:`sorted` with ``key=str`` of this.
        """
        legal = self._legal
        if legal is None:
            if self._phase is PLAYING:
                legal = self._legal = self._legal_plays(self._to_act)
            else:
                legal = self._legal = self._generate()
        return legal

    def check(self, action: Action | str) -> Checked:
        """The verify half of :meth:`apply`: raise what ``apply`` would raise, change nothing.

        Text that is not an action at all raises :class:`NotationError`; an action the rules
        forbid now raises :class:`IllegalActionError` (#39: the seat is checked first, so an
        action by the wrong seat is "it is X's turn" whatever follows it). Returns the verdict
        (:mod:`baloot.core.checked`), which :meth:`apply` does not check again.

        >>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
        >>> hand.check("N sun").action
        Action('N sun')
        >>> hand.check("W sun")
        Traceback (most recent call last):
        ...
        baloot.IllegalActionError: "W sun": it is N's turn
        >>> hand.check("N fly")
        Traceback (most recent call last):
        ...
        baloot.NotationError: "N fly": unknown verb 'fly'
        >>> hand.actions
        []
        """
        action = self._as_action(action)
        self._check_turn(action)
        return stamp(action, self, self._stack, self._verify(action))

    def apply(self, action: Action | str | Checked) -> Action:
        """Check ``action`` against the rules and apply it; return it as recorded.

        Raises :class:`NotationError` for text that is not an action and
        :class:`IllegalActionError` for an action the rules forbid now, as :meth:`check`
        does; either way nothing is applied. What :meth:`check` returned is applied as checked
        while the hand has not moved: the rules are not gone through twice."""
        if action.__class__ is not Action:  # one identity test on the hot path
            if isinstance(action, Checked):
                if stamped(action, self, self._stack):
                    self._commit(action.action, action._found)
                    return action.action
                action = action.action
            else:
                action = self._as_action(action)
        phase = self._phase
        s = action.seat
        card = action.card
        if phase is PLAYING and s == self._to_act and card is not None:
            mask = self._legal_mask
            if mask < 0:
                mask = self._play_mask(s)
            c = card.index
            if mask >> c & 1 and not action.ekka and not action.baloot:
                self._stack.append(play_snapshot(self))
                self._actions.append(action)
                self._legal = None
                self._legal_mask = -1
                self._play(s, c, False)
                return action
        self._check_turn(action)
        self._commit(action, self._verify(action))
        return action

    def parse_action(self, text: str) -> Action:
        """Read an action in this position, checking the seat first (#39).

        ``NotationError`` for text that is no action (empty, an unknown seat or verb, bad
        arguments); ``IllegalActionError`` when the hand is over or another seat is to act.
        """
        if not isinstance(text, str):
            raise TypeError(f"an action's text is a str, not {type(text).__name__}")
        words = action_words(text)
        seat = Seat.parse(words[0])
        if self._phase is OVER:
            raise IllegalActionError.of(ReasonCode.HAND_OVER, text)
        if seat != self._to_act:
            raise IllegalActionError.of(
                ReasonCode.NOT_YOUR_TURN, text, seat=SEATS[self._to_act].name
            )
        return parse_after_seat(seat, words[1:], text)

    def _as_action(self, action: Action | str) -> Action:
        if isinstance(action, str):
            return self.parse_action(action)
        if not isinstance(action, Action):
            raise TypeError(f"an action is an Action or its text, not {type(action).__name__}")
        return action

    def _check_turn(self, action: Action) -> None:
        if self._phase is OVER:
            raise self._fail(action, ReasonCode.HAND_OVER)
        if action.seat != self._to_act:
            raise self._fail(action, ReasonCode.NOT_YOUR_TURN, seat=SEATS[self._to_act].name)

    def _verify(self, action: Action) -> object:
        """Raise the rule that ``action`` breaks, or return what applying it needs: the card
        of a play, the projects of a declaration."""
        verb = action.verb
        name = action.seat.name
        if self._phase is PLAYING:
            if verb is Verb.PLAY:
                return self._check_play(action)
            if verb is Verb.DECLARE:
                return self._check_declaration(action)
            raise self._fail(action, ReasonCode.PLAY_NOW, seat=name)
        if verb is Verb.PLAY or verb is Verb.DECLARE:
            code = (
                ReasonCode.PLAY_BEFORE_PLAY if verb is Verb.PLAY else ReasonCode.DECLARE_BEFORE_PLAY
            )
            raise self._fail(action, code, seat=name)
        legal = self.legal_actions()
        if action not in legal:
            raise self._explain_call(action, legal)
        return None

    def _commit(self, action: Action, checked: object) -> None:
        """Apply ``action``, already verified; ``checked`` is what :meth:`_verify` found."""
        s = int(action.seat)
        verb = action.verb
        phase = self._phase
        self._push(action)
        if phase is PLAYING:
            if verb is Verb.PLAY:
                assert isinstance(checked, int)
                self._play(s, checked, action.ekka)
            else:
                assert isinstance(checked, tuple)
                declared = list(self._declared)
                declared[s] = checked
                self._declared = tuple(declared)
        elif phase is DOUBLING:
            self._apply_doubling(action)
        elif phase is NAMING:
            suit = action.suit
            if suit is None:
                self._set_contract(SUN, -1, s)
            else:
                self._set_contract(HOKUM, int(suit), s)
        elif self._queue:
            self._apply_window(s, verb)
        else:
            self._apply_bid(s, verb)

    @property
    def next_dealer(self) -> Seat:
        """Who deals next (R1.4, #9): P1, except after Kawesh with ``kawesh_same_dealer``."""
        if self._kawesh and self._rules.kawesh_same_dealer:
            return SEATS[self._dealer]
        return SEATS[self._p1]

    def __repr__(self) -> str:
        turn = "over" if self._phase is OVER else f"{SEATS[self._to_act].name} to act"
        return f"<Hand dealer={SEATS[self._dealer].name} {self._phase.value}, {turn}>"


def shuffled_deck(rng: random.Random) -> tuple[Card, ...]:
    """A deck shuffled by ``rng``, top card first: the deck :meth:`Hand.new` deals.

    >>> shuffled_deck(random.Random(1)) == Hand.new(rng=random.Random(1)).deck
    True
    """
    return tuple(CARDS[i] for i in _shuffled(rng))


def _shuffled(rng: random.Random) -> tuple[int, ...]:
    """The card indices of a deck shuffled by ``rng``, top card first."""
    order = list(range(32))
    rng.shuffle(order)
    return tuple(order)


def _seat(seat: Seat | str) -> int:
    return int(Seat.coerce(seat))


def checked_rng(rng: random.Random | None) -> random.Random | None:
    """A hand's or a match's generator: a :class:`random.Random` or None (TypeError else)."""
    if rng is not None and not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
    return rng


def checked_rules(rules: Rules | None) -> Rules:
    """A hand's or a match's rules: a :class:`Rules` value, or None for ``classic``."""
    if rules is None:
        return CLASSIC
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, not {type(rules).__name__}")
    return rules


def checked_score(score: tuple[int, int]) -> tuple[int, int]:
    """Match totals before a hand or a match: two whole numbers, not negative."""
    if (
        not isinstance(score, tuple | list)
        or len(score) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in score)
    ):
        raise TypeError(f"score_before is two whole numbers (NS, EW), not {score!r}")
    if min(score) < 0:
        raise ValueError(f"score_before must not be negative, not {tuple(score)}")
    return (score[0], score[1])
