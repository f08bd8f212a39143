"""Bidding and doubling (R4–R8): the calls, the Sun take-over windows, the ladder.

The rules of the auction as methods of the hand's state; :class:`~baloot.core.hand.Hand` is the
public face. Fine points follow ``decisions.md`` #1–#13.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, assert_never

from baloot.core import _lookup as T
from baloot.core._state import (
    DOUBLING,
    HOKUM,
    NAMING,
    OVER,
    PLAYING,
    R1,
    R2,
    R3,
    SUN,
    HandState,
)
from baloot.core.actions import Action, Verb
from baloot.core.cards import Rank
from baloot.core.errors import IllegalActionError
from baloot.core.reasons import ReasonCode
from baloot.core.rules import AshkalMode, FirstLead, SunDoubleRule
from baloot.core.seats import SEATS
from baloot.core.vocabulary import Level, Question, QuestionKind

_LOW_RANKS: Final = 0xE0E0E0E0  # 9, 8 and 7 of every suit: Kawesh cards (R6)
_SUITS_BY_LETTER: Final = (3, 2, 1, 0)  # c d h s: trump namings in notation order
_DOUBLING_QUESTIONS: Final = (
    QuestionKind.DOUBLE,
    QuestionKind.TRIPLE,
    QuestionKind.FOUR,
    QuestionKind.GAHWA,
)


class Bidding(HandState):
    """The auction of a hand: from the first call to the end of the doubling ladder."""

    __slots__ = ()

    def _generate(self) -> tuple[Action, ...]:
        """Legal calls outside the play, already in notation (code-point) order."""
        phase = self._phase
        s = self._to_act
        if phase is OVER:
            return ()
        if phase is DOUBLING:
            step = self._step
            if step == 0:
                if self._kind == SUN:
                    return (T.DOUBLE_SUN[s], T.PASS[s])
                return (T.DOUBLE_LOCKED[s], T.DOUBLE_OPEN[s], T.PASS[s])
            if step == 1:
                return (T.PASS[s], T.TRIPLE[s])
            if step == 2:
                return (T.FOUR_LOCKED[s], T.FOUR_OPEN[s], T.PASS[s])
            return (T.GAHWA[s], T.PASS[s])
        if phase is NAMING:
            exposed_suit = self._exposed >> 3
            calls = [T.SUN[s]] if self._rules.hokum_bidder_may_upgrade_to_sun else []
            calls.extend(T.TRUMP[s][x] for x in _SUITS_BY_LETTER if x != exposed_suit)
            return tuple(calls)
        if self._queue or phase is R3:
            return (T.PASS[s], T.SUN[s])
        return self._bid_calls(s)

    def _question(self) -> Question | None:
        """What the seat to act is asked now; None when the hand is over."""
        phase = self._phase
        if phase is OVER:
            return None
        if phase is PLAYING:
            return Question(QuestionKind.PLAY)
        if phase is NAMING:
            return Question(QuestionKind.NAME_TRUMP)
        if phase is R3:
            return Question(QuestionKind.THIRD_ROUND)
        if phase is DOUBLING:
            about = self._doubler if self._step in (1, 3) else self._declarer
            return Question(_DOUBLING_QUESTIONS[self._step], SEATS[about])
        hokum = SEATS[self._hokum] if self._hokum >= 0 else None
        if not self._queue:
            return Question(QuestionKind.BID, hokum)
        if self._caller >= 0:
            kind = QuestionKind.TAKE_OVER_ASHKAL if self._ashkal else QuestionKind.TAKE_OVER_SUN
            return Question(kind, SEATS[self._caller])
        if self._to_act == self._hokum:
            return Question(QuestionKind.CONFIRM_HOKUM, hokum)
        return Question(QuestionKind.SUN_OVER_HOKUM, hokum)

    def _bid_calls(self, s: int) -> tuple[Action, ...]:
        """The calls of a seat's normal turn in round 1 or 2 (R4–R6, #3–#7)."""
        rules = self._rules
        restricted = (
            self._phase is R1
            and self._hokum >= 0
            and rules.ace_hokum_sun_only_p1
            and self._exposed & 7 == Rank.ACE
        )
        calls = []
        if not restricted and self._ashkal_reason(s) is None:
            calls.append(T.ASHKAL[s])
        if self._hokum < 0:
            calls.append(T.HOKUM[s])
        if self._phase is R1 and self._kawesh_reason(s) is None:
            calls.append(T.KAWESH[s])
        calls.append(T.PASS[s])
        if not restricted:
            calls.append(T.SUN[s])
        return tuple(calls)

    def _ashkal_reason(self, s: int) -> ReasonCode | None:
        """Why ``s`` may not call Ashkal now (R4.6, #6–#7) as a reason code with the
        parameter ``seat``, or None if it may."""
        rules = self._rules
        if (s - self._p1) & 3 < 2:
            return ReasonCode.ASHKAL_SEAT
        if self._phase is R2 and not rules.ashkal_round2:
            return ReasonCode.ASHKAL_ROUND2
        if self._exposed & 7 == Rank.ACE and not rules.ashkal_on_ace:
            return ReasonCode.ASHKAL_ON_ACE
        after_passes = self._hokum < 0
        over_hokum = self._hokum >= 0 and (self._hokum ^ s) & 1 == 1
        match rules.ashkal_mode:
            case AshkalMode.AFTER_PASSES:
                return None if after_passes else ReasonCode.ASHKAL_AFTER_PASSES
            case AshkalMode.OVER_OPPONENT_HOKUM:
                return None if over_hokum else ReasonCode.ASHKAL_OVER_HOKUM
            case AshkalMode.BOTH:
                return None if after_passes or over_hokum else ReasonCode.ASHKAL_PASSES_OR_HOKUM
            case unknown:
                assert_never(unknown)

    def _kawesh_reason(self, s: int) -> ReasonCode | None:
        """Why ``s`` may not call Kawesh now (R6, #3) as a reason code with the parameter
        ``seat``, or None if it may."""
        if not self._rules.kawesh_enabled:
            return ReasonCode.KAWESH_DISABLED
        if self._phase is not R1:
            return ReasonCode.KAWESH_ROUND1
        if self._first5[s] & ~_LOW_RANKS:
            return ReasonCode.KAWESH_CARDS
        return None

    def _explain_call(self, action: Action, legal: Iterable[Action]) -> IllegalActionError:
        """The error of an illegal bidding, naming or doubling action, with its reason."""
        name = action.seat.name
        verb = action.verb
        phase = self._phase
        if phase is DOUBLING:
            if verb is Verb.DOUBLE and action.locked is None and self._kind == HOKUM:
                return self._fail(action, ReasonCode.DOUBLE_OPEN_OR_LOCKED, seat=name)
            if verb is Verb.DOUBLE and action.locked is not None and self._kind == SUN:
                return self._fail(action, ReasonCode.DOUBLE_SUN_PLAIN, seat=name)
            offered = " or ".join(sorted({a.verb.value for a in legal}))
            return self._fail(action, ReasonCode.ANSWER_ONLY, seat=name, offered=offered)
        if phase is NAMING:
            if verb is Verb.TRUMP:
                return self._fail(action, ReasonCode.TRUMP_EXPOSED_SUIT, seat=name)
            return self._fail(action, ReasonCode.NAME_TRUMP, seat=name)
        if self._queue:
            return self._fail(action, ReasonCode.SUN_OR_PASS, seat=name)
        if verb is Verb.ASHKAL:
            code = self._ashkal_reason(int(action.seat)) or ReasonCode.ASHKAL_NOW
            return self._fail(action, code, seat=name)
        if verb is Verb.KAWESH:
            code = self._kawesh_reason(int(action.seat)) or ReasonCode.KAWESH_NOW
            return self._fail(action, code, seat=name)
        if verb is Verb.HOKUM:
            return self._fail(action, ReasonCode.HOKUM_CALLED, seat=name)
        if verb is Verb.SUN:
            return self._fail(action, ReasonCode.SUN_ON_ACE_HOKUM, seat=name)
        return self._fail(action, ReasonCode.NOT_IN_BIDDING, seat=name, verb=verb.value)

    def _apply_bid(self, s: int, verb: Verb) -> None:
        """A call on a seat's normal turn (R4, R5)."""
        if verb is Verb.KAWESH:
            self._kawesh = True
            self._annul()
            return
        if self._phase is R3:
            if verb is Verb.SUN:
                self._set_contract(SUN, -1, s)
            else:
                self._annul()
            return
        round1 = self._phase is R1
        if verb is Verb.SUN or verb is Verb.ASHKAL:
            ashkal = verb is Verb.ASHKAL
            if not round1:
                self._set_contract(SUN, -1, s ^ 2 if ashkal else s)
                return
            seats = self._order[: (s - self._p1) & 3]
            if not self._rules.hokum_bidder_may_upgrade_to_sun:
                seats = tuple(x for x in seats if x != self._hokum)
            if not seats:
                self._set_contract(SUN, -1, s ^ 2 if ashkal else s)
                return
            self._caller = s
            self._ashkal = ashkal
            self._queue = seats
            self._to_act = seats[0]
            return
        if verb is Verb.HOKUM:
            self._hokum = s
        self._turn += 1
        if self._turn < 4:
            self._to_act = self._order[self._turn]
        elif self._hokum >= 0:
            if round1:
                self._open_hokum_window()
            else:
                self._phase = NAMING
                self._to_act = self._hokum
        elif round1:
            self._phase = R2
            self._turn = 0
            self._to_act = self._p1
        elif self._rules.third_round_on_ace and self._exposed & 7 == Rank.ACE:
            self._phase = R3
            self._to_act = self._p1
        else:
            self._annul()

    def _open_hokum_window(self) -> None:
        """R4.4: after P4's turn the earlier passers, then the bidder, may still take Sun."""
        h = self._hokum
        rules = self._rules
        before = self._order[: (h - self._p1) & 3]
        if rules.ace_hokum_sun_only_p1 and self._exposed & 7 == Rank.ACE:
            before = before[:1]
            confirm = rules.hokum_bidder_may_upgrade_to_sun and h == self._p1
        else:
            confirm = rules.hokum_bidder_may_upgrade_to_sun
        seats = before + ((h,) if confirm else ())
        if not seats:
            self._set_contract(HOKUM, self._exposed >> 3, h)
            return
        self._queue = seats
        self._to_act = seats[0]

    def _apply_window(self, s: int, verb: Verb) -> None:
        """An answer to a Sun take-over offer or to 'confirm Hokum or Sun' (#1, #2)."""
        if verb is Verb.SUN:
            self._queue = ()
            self._set_contract(SUN, -1, s)
            return
        rest = self._queue[1:]
        self._queue = rest
        if rest:
            self._to_act = rest[0]
        elif self._caller >= 0:
            self._set_contract(SUN, -1, self._caller ^ 2 if self._ashkal else self._caller)
        else:
            self._set_contract(HOKUM, self._exposed >> 3, self._hokum)

    def _set_contract(self, kind: int, trump: int, declarer: int) -> None:
        """End the bidding: the declarer takes the exposed card and the deal is completed."""
        self._kind = kind
        self._trump = trump
        self._declarer = declarer
        self._bid_length = len(self._actions)
        self._full = self._hands = self._completion(declarer)
        self._readings = None
        self._phase = DOUBLING
        self._step = 0
        self._queue = tuple(x for x in self._order if (x ^ declarer) & 1)
        if kind == SUN and not self._sun_double_allowed():
            self._start_play()
        else:
            self._to_act = self._queue[0]

    def _completion(self, taker: int) -> tuple[int, int, int, int]:
        """Each seat's 8 cards (masks) once ``taker`` has taken the exposed card (R7.2).

        The deck fixes them for any taker: the first five, the exposed card to the taker,
        then from card 22 three to each seat from P1 on, but two to the taker.
        """
        full = list(self._first5)
        full[taker] |= 1 << self._exposed
        pos = 21
        for seat in self._order:
            count = 2 if seat == taker else 3
            for card in self._deck[pos : pos + count]:
                full[seat] |= 1 << card
            pos += count
        return (full[0], full[1], full[2], full[3])

    def _sun_double_allowed(self) -> bool:
        """R8.4 and #12: a Sun may be doubled only on certain match totals."""
        d = self._declarer & 1
        ours, theirs = self._score_before[d], self._score_before[1 - d]
        match self._rules.sun_double_rule:
            case SunDoubleRule.EITHER_SIDE_GT_LT:
                return (ours > 100 and theirs < 100) or (theirs > 100 and ours < 100)
            case SunDoubleRule.DECLARER_GT100_DOUBLER_LT100:
                return ours > 100 and theirs < 100
            case SunDoubleRule.DECLARER_GT100_DOUBLER_LE100:
                return ours > 100 and theirs <= 100
            case unknown:
                assert_never(unknown)

    def _apply_doubling(self, action: Action) -> None:
        """One answer on the doubling ladder (R8, #10–#13)."""
        verb = action.verb
        if verb is Verb.PASS:
            rest = self._queue[1:] if self._step == 0 else ()
            self._queue = rest
            if rest:
                self._to_act = rest[0]
            else:
                self._start_play()
            return
        persists = self._rules.lock_persists_through_escalation
        self._queue = ()
        if verb is Verb.DOUBLE:
            self._level = 2
            self._doubler = int(action.seat)
            self._locked = bool(action.locked)
            if self._kind == SUN:
                self._start_play()
                return
            self._step = 1
            self._to_act = self._declarer
        elif verb is Verb.TRIPLE:
            self._level = 3
            self._locked = self._locked and persists
            self._step = 2
            self._to_act = self._doubler
        elif verb is Verb.FOUR:
            self._level = 4
            self._locked = bool(action.locked)
            self._step = 3
            self._to_act = self._declarer
        else:
            self._level = Level.GAHWA
            self._locked = self._locked and persists
            self._start_play()

    def _start_play(self) -> None:
        self._phase = PLAYING
        self._queue = ()
        lead = self._declarer if self._rules.first_lead is FirstLead.DECLARER else self._p1
        self._leader = self._to_act = lead
