"""The observation kept up to date action by action, not built and encoded anew per decision.

Building a :class:`~baloot.view.seat_view.SeatView` and encoding it again for every decision
costs far more than the engine's move; but one action changes only a few values. A
:class:`Tracker` follows one hand and writes, after each action, just what it changed into
a *table*: the observation's values with seats absolute (N, W, S, E) instead of relative to
an observer, teams absolute (NS, EW), and each seat's private part (its cards, its projects)
kept apart. Any seat's observation is then one gather of that table (:data:`GATHER`): the
same values, in the same layout, as :func:`~baloot.rl.observation.encode` of its view.

Once the play begins, the cards are followed by compiled code where it was built at install
(``_tricks.c``, :data:`COMPILED`): the card, the trick, the turn, the knowledge facts a play
proves (derived as :mod:`baloot.core.knowledge` derives them) and the mask of the legal
cards, from a small state the tracker fills from the engine's facts. The declarations, the
projects shown after the first trick and the end of the hand come from the engine, which
still applies every action.

It reads what the view reads, from the same public accessors of the hand, and nothing else:
the actions as the table hears them, the public state (phase, question, contract, tricks,
the knowledge facts, the shown projects), and each seat's own cards into that seat's own
part, which only that seat's gather takes. ``tests/rl/test_rl.py`` checks, at every decision of
random hands under random rules, that each seat's gather equals the encoding of its view.

>>> import random
>>> from baloot.core.hand import Hand
>>> from baloot.view.seat_view import SeatView
>>> from baloot.rl.observation import encode
>>> hand = Hand.new(rng=random.Random(1), dealer="E")
>>> tracker = Tracker(hand)
>>> for _ in range(12):
...     tracker.follow(hand.apply(hand.legal_actions()[-1]))
>>> seat = hand.to_act
>>> bool((tracker.observe(seat) == encode(SeatView.of(hand, seat))).all())
True
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from baloot.core.actions import Action, Verb
from baloot.core.cards import CARDS, FULL_MASK, CardSet, Suit
from baloot.core.hand import Hand
from baloot.core.knowledge import Knowledge, every_seat
from baloot.core.projects import ProjectKind
from baloot.core.seats import SEATS, Seat
from baloot.core.vocabulary import Contract, ContractKind, Phase
from baloot.rl.action_space import index_of
from baloot.rl.observation import (
    _BIDS,
    _PHASES,
    _QUESTIONS,
    _STEPS,
    SCORE_SCALE,
    Vector,
    rules_vector,
)
from baloot.rl.tracker_table import AT, COMPILED, GATHER, ONE, TABLE_SIZE, TRICKS

__all__ = ["COMPILED", "GATHER", "TABLE_SIZE", "Tracker", "observe_rows"]

_PHASE: Final = {phase: i for i, phase in enumerate(_PHASES)}
_QUESTION: Final = {kind: i for i, kind in enumerate(_QUESTIONS)}
_BID: Final = {verb: i for i, verb in enumerate(_BIDS)}
_STEP: Final = {verb: i for i, verb in enumerate(_STEPS)}
_PLAY: Final = Verb.PLAY
_PASS: Final = Verb.PASS
_DECLARE: Final = Verb.DECLARE
_FOUR: Final = Verb.FOUR
#: Calls that tell something of the caller's cards.
_TOLD: Final = frozenset({Verb.DECLARE, Verb.KAWESH})


class Tracker:
    """Every seat's observation of one hand, kept up to date action by action.

    ``table`` (of :data:`TABLE_SIZE` values) is where it writes: a row of the vector
    environment's buffer, or an array of its own. Call :meth:`follow` with every action the
    hand applies, as :meth:`Hand.apply <baloot.core.hand.Hand.apply>` returns it.
    """

    __slots__ = (
        "_calls", "_compile", "_contract", "_hands", "_in_play", "_kinds", "_known", "_opened",
        "_passes_run", "_phase", "_plays", "_question", "_taker", "_to_act", "_tricks", "_unplayed",
        "hand", "table",
    )  # fmt: skip

    def __init__(
        self, hand: Hand, table: Vector | None = None, *, compiled: bool = COMPILED
    ) -> None:
        self.table: Vector = np.zeros(TABLE_SIZE, np.float32) if table is None else table
        self.hand = hand
        #: The compiled play's state while it follows the cards, from the play's start.
        self._tricks: npt.NDArray[np.int64] | None = None
        self._compile = compiled and TRICKS is not None
        self._start()

    def fork(self, hand: Hand, table: Vector | None = None) -> Tracker:
        """A tracker of ``hand``, a copy of this tracker's hand (:meth:`Hand.copy
        <baloot.core.hand.Hand.copy>`) taken now, writing into ``table``: what a rollout
        needs to follow one hand on from a decision without replaying its history.

        >>> import random
        >>> from baloot.view.seat_view import SeatView
        >>> from baloot.rl.observation import encode
        >>> hand = Hand.new(rng=random.Random(3))
        >>> tracker = Tracker(hand)
        >>> tracker.follow(hand.apply(hand.legal_actions()[0]))
        >>> copy = hand.copy()
        >>> forked = tracker.fork(copy)
        >>> forked.follow(copy.apply(copy.legal_actions()[-1]))
        >>> seat = copy.to_act
        >>> bool((forked.observe(seat) == encode(SeatView.of(copy, seat))).all())
        True
        """
        other = Tracker.__new__(Tracker)
        for name in Tracker.__slots__:
            if hasattr(self, name):  # the compiled play's kinds exist once the play began
                value = getattr(self, name)
                if isinstance(value, list | np.ndarray):
                    value = value.copy()
                setattr(other, name, value)
        other.hand = hand
        if table is not None:
            table[:] = self.table
            other.table = table
        return other

    @property
    def to_act(self) -> int:
        """The seat to act (0–3 = N, W, S, E), -1 once the hand is over."""
        return self._to_act

    @property
    def compiled(self) -> bool:
        """Whether the compiled play follows the cards now (from the play's start to the
        hand's end, where it was built)."""
        return self._tricks is not None

    def observe(self, seat: Seat | int, out: Vector | None = None) -> Vector:
        """The observation of ``seat``, written into ``out`` when given."""
        found: Vector = self.table.take(GATHER[seat], out=out)
        return found

    def _start(self) -> None:
        hand, t = self.hand, self.table
        if hand.actions:
            raise ValueError("a tracker follows a hand from its first action")
        t.fill(0.0)
        t[ONE] = 1.0
        t[AT["dealer"] + hand.dealer] = 1
        t[AT["exposed"] + hand.exposed.index] = 1
        rules = rules_vector(hand.rules)
        t[AT["rules"] : AT["rules"] + len(rules)] = rules
        for team, total in enumerate(hand.score_before):
            t[AT["score"] + team] = min(total / SCORE_SCALE, 1.0)
        self._phase = self._to_act = -1
        self._question: tuple[int, int] = (-1, -1)
        self._hands = [-1, -1, -1, -1]
        self._known: list[Knowledge | None] = [None, None, None, None]
        self._unplayed = [True, True, True, True]
        self._contract: Contract | None = None
        self._taker = -1
        self._calls = self._passes_run = self._plays = 0
        self._opened = self._in_play = False
        self._public()
        self._private()

    def legal(self, out: npt.NDArray[np.int8]) -> None:
        """Write the mask of the legal actions of the seat to act into ``out``."""
        state = self._tricks
        # In the first trick a seat may also declare: the engine lists those choices.
        if state is not None and self._plays >= 4:
            assert TRICKS is not None
            TRICKS.legal(state, out)
            return
        out.fill(0)
        for action in self.hand.legal_actions():
            out[index_of(action)] = 1

    def follow(self, action: Action) -> None:
        """Write what ``action``, just applied to the hand, changed."""
        if self._tricks is not None:
            self._follow_compiled(action, self._tricks)
            return
        t = self.table
        seat = int(action.seat)
        card = action.card
        if action.verb is _PLAY and card is not None:
            c = card.index
            t[AT["own_cards"] + seat * 32 + c] = 0
            self._hands[seat] &= ~(1 << c)
            t[AT["held"] + seat] -= 0.125
            t[AT["played"] + seat * 32 + c] = 1
            words = AT["trick_words"]
            if self._plays % 4 == 0:  # the last trick was cleared when it ended
                t[AT["trick_leader"] + seat] = 1
            t[AT["trick"] + seat * 32 + c] = 1
            t[words + seat * 2] = action.ekka
            t[words + seat * 2 + 1] = action.baloot
            self._plays += 1
            self._in_play = True
            if self._unplayed[seat]:
                self._unplayed[seat] = False
                self._declared(seat)
            if self._plays % 4 == 0:
                self._trick_done()
            self._public()
        else:
            # A call deals the rest of the cards only as the phase changes, and changes the
            # projects only with the contract's kind; it changes what the history proves only
            # with the contract or the taker (who holds the exposed card), or as a
            # declaration or a Kawesh.
            before = self._contract
            changed = self._call(action, seat)
            dealt = _PHASE[self.hand.phase] != self._phase
            if dealt or _kind(before) != _kind(self._contract):
                self._private()
            self._public(changed or dealt or action.verb in _TOLD)
        if self._compile and self._phase == _PLAYING:
            self._tricks = self._handed_over()

    def _follow_compiled(self, action: Action, state: npt.NDArray[np.int64]) -> None:
        """Write what ``action`` changed, the play begun: a card through the compiled play,
        a declaration here."""
        assert TRICKS is not None
        seat = int(action.seat)
        card = action.card
        if card is None:  # a declaration, which tells the kinds of the seat's projects
            self._call(action, seat)
            self._public(knowledge=False)
            state[_TO_ACT] = self._to_act
            kinds = every_seat(self.hand)[seat].kinds
            self._write_kinds(seat, kinds)
            self._kinds[seat] = kinds
            return
        to_act = self.hand.to_act
        self._to_act = -1 if to_act is None else int(to_act)
        TRICKS.play(self.table, state, seat, card.index, action.ekka, action.baloot, self._to_act)
        self._hands[seat] &= ~(1 << card.index)
        self._plays += 1
        if self._unplayed[seat]:
            self._unplayed[seat] = False
            self._declared(seat)
        if to_act is None:  # the last card: the phase and the facts as the engine says
            self._tricks = None
            self._handed_back(state)
        elif self._plays == 4:  # the projects shown, and what they prove
            self._shown()
            self._handed_back(state)
            self._tricks = self._handed_over()

    def _handed_back(self, state: npt.NDArray[np.int64]) -> None:
        """The phase, the seat to act, the question and the knowledge facts from the engine
        again, written where they differ from what the compiled play wrote."""
        excluded, void, below, holds = (
            state[at : at + 4].tolist() for at in (_EXCLUDED, _VOID, _BELOW, _HOLDS)
        )
        self._known = [
            Knowledge(
                SEATS[s],
                CardSet(excluded[s]),
                tuple(suit for suit in Suit if void[s] >> suit & 1),
                False,  # written every time (_knowledge)
                None if below[s] < 0 else CARDS[below[s]],
                CardSet(holds[s]),
                self._kinds[s],
            )
            for s in range(4)
        ]
        self._public()

    def _handed_over(self) -> npt.NDArray[np.int64]:
        """The compiled play's state, from the engine's facts: as the play begins, and again
        as the first trick ends (``_tricks.c`` lists the places)."""
        hand = self.hand
        contract = hand.contract
        assert contract is not None
        rules = hand.rules
        known = [k or _NOTHING_KNOWN for k in self._known]
        self._kinds = [k.kinds for k in known]
        held = self._hands[0] | self._hands[1] | self._hands[2] | self._hands[3]
        state = [
            -1 if contract.trump is None else int(contract.trump),
            contract.locked,
            rules.partner_led_must_trump,
            rules.must_undertrump,
            *self._hands,
            FULL_MASK & ~held,  # the cards gone: the trick is empty
            0, 0, 0, 0, 0, -1, -1, 0,  # the trick, its winner, its Ekka
            *(k.excluded.mask for k in known),
            *(sum(1 << suit for suit in k.void) for k in known),
            *(-1 if k.trump_below is None else k.trump_below.index for k in known),
            *(k.holds.mask for k in known),
            self._to_act,
            hand.trick_number,
            *hand.tricks_won,
            *hand.card_points(),
        ]  # fmt: skip
        return np.array(state, np.int64)

    def _call(self, action: Action, seat: int) -> bool:
        """A call of the bidding or the doubling, or a declaration; whether it changed the
        contract or the taker."""
        t, verb = self.table, action.verb
        length = self.hand.bidding_length
        if length is None or self._calls < length:
            if verb in _BID:
                rnd = min(self._passes_run // 4, 2)
                t[AT["bidding"] + (rnd * 4 + seat) * len(_BIDS) + _BID[verb]] = 1
            if verb is _PASS:
                if not self._opened:
                    self._passes_run += 1
                    t[AT["opening_passes"] + seat] = 1
            else:
                self._opened = True
        elif verb is _DECLARE:
            self._in_play = True
        elif not self._in_play:
            if verb is _PASS:
                t[AT["doubling_passes"] + seat] = 1
            else:
                if verb in _STEP:
                    t[AT["doubling"] + _STEP[verb] * 4 + seat] = 1
                if action.locked:
                    t[AT["doubling_locks"] + (verb is _FOUR)] = 1
        self._calls += 1
        contract = self.hand.contract
        changed = contract != self._contract
        if changed:
            self._contract = contract
            for name, size in (
                ("contract_kind", 2),
                ("trump", 4),
                ("declarer", 4),
                ("level", 5),
                ("locked", 1),
            ):
                t[AT[name] : AT[name] + size] = 0
            if contract is not None:
                t[AT["contract_kind"] + (contract.trump is None)] = 1
                if contract.trump is not None:
                    t[AT["trump"] + contract.trump] = 1
                t[AT["declarer"] + contract.declarer] = 1
                t[AT["level"] + contract.level - 1] = 1
                t[AT["locked"]] = 1 if contract.locked else 0
        taker = self.hand.taker
        if taker is not None and taker != self._taker:
            self._taker = int(taker)
            t[AT["taker"] + taker] = 1
            changed = True
        return changed

    def _private(self) -> None:
        """Each seat's cards and projects, into its own part, when they changed."""
        t, hand = self.table, self.hand
        for seat in range(4):
            cards = hand.hand(Seat(seat)).mask
            if cards == self._hands[seat]:
                continue
            _write_bits(t, AT["own_cards"] + seat * 32, max(self._hands[seat], 0), cards)
            self._hands[seat] = cards
            t[AT["held"] + seat] = cards.bit_count() / 8
            at = AT["own_projects"] + seat * 4
            t[at : at + 4] = 0
            for project in hand.projects(Seat(seat)):
                t[at + project.kind - 1] += 0.5

    def _declared(self, seat: int) -> None:
        """What ``seat`` declared, told once it plays its first card."""
        at = AT["declared"] + seat * 5
        t = self.table
        t[at] = 1
        for project in self.hand.declared(Seat(seat)) or ():
            t[at + project.kind] += 0.5

    def _trick_done(self) -> None:
        t, hand = self.table, self.hand
        t[AT["trick"] : AT["trick_words"] + 8] = 0  # the trick, its leader, its words
        done = hand.trick_number
        t[AT["trick_number"]] = done / 8
        won = hand.tricks_won
        points = hand.card_points()
        at = AT["tricks_won"]
        t[at] = won[0] / 8
        t[at + 1] = won[1] / 8
        at = AT["card_points"]
        t[at] = points[0] / 162
        t[at + 1] = points[1] / 162
        if done == 1:
            self._shown()

    def _shown(self) -> None:
        """The projects shown as the first trick ends (R10.5)."""
        t = self.table
        for shown in self.hand.shown_projects():
            at = AT["shown"] + shown.seat * 32
            for card in shown.project.cards:
                t[at + card.index] = 1

    def _public(self, knowledge: bool = True) -> None:
        """The phase, the seat to act, the question and (if asked) the knowledge facts."""
        t, hand = self.table, self.hand
        phase = _PHASE[hand.phase]
        if phase != self._phase:
            if self._phase >= 0:
                t[AT["phase"] + self._phase] = 0
            t[AT["phase"] + phase] = 1
            self._phase = phase
        to_act = hand.to_act
        now = -1 if to_act is None else int(to_act)
        if now != self._to_act:
            if self._to_act >= 0:
                t[AT["to_act"] + self._to_act] = 0
            if now >= 0:
                t[AT["to_act"] + now] = 1
            self._to_act = now
        question = hand.question
        asked = (
            (-1, -1)
            if question is None
            else (_QUESTION[question.kind], -1 if question.about is None else int(question.about))
        )
        if asked != self._question:
            kind, about = self._question
            if kind >= 0:
                t[AT["question"] + kind] = 0
            if about >= 0:
                t[AT["question_about"] + about] = 0
            kind, about = self._question = asked
            if kind >= 0:
                t[AT["question"] + kind] = 1
            if about >= 0:
                t[AT["question_about"] + about] = 1
        if not knowledge:
            return
        known = every_seat(hand)
        for seat in range(4):
            if known[seat] is not self._known[seat]:
                self._knowledge(seat, known[seat])
                self._known[seat] = known[seat]

    def _knowledge(self, seat: int, known: Knowledge) -> None:
        """The facts about ``seat`` that changed: mostly one card, the one just played."""
        t = self.table
        old = self._known[seat]
        if old is None:
            old = _NOTHING_KNOWN
        _write_bits(t, AT["known_excluded"] + seat * 32, old.excluded.mask, known.excluded.mask)
        _write_bits(t, AT["known_holds"] + seat * 32, old.holds.mask, known.holds.mask)
        if known.void != old.void:
            at = AT["known_void"] + seat * 4
            t[at : at + 4] = 0
            for suit in known.void:
                t[at + suit] = 1
        t[AT["known_no_trump"] + seat] = known.no_trump
        if known.trump_below != old.trump_below:
            at = AT["known_trump_below"] + seat * 32
            t[at : at + 32] = 0
            if known.trump_below is not None:
                t[at + known.trump_below.index] = 1
        if known.kinds != old.kinds:
            self._write_kinds(seat, known.kinds)

    def _write_kinds(self, seat: int, kinds: tuple[ProjectKind, ...]) -> None:
        at = AT["known_kinds"] + seat * 4
        t = self.table
        t[at : at + 4] = 0
        for kind in kinds:
            t[at + kind - 1] += 0.5


def _kind(contract: Contract | None) -> ContractKind | None:
    return None if contract is None else contract.kind


def observe_rows(tables: Vector, seats: npt.NDArray[np.int8], out: Vector) -> None:
    """Row ``i`` of ``out``: the observation of seat ``seats[i]`` from table ``tables[i]``.

    >>> import random
    >>> from baloot.rl.observation import SIZE
    >>> tracker = Tracker(Hand.new(rng=random.Random(1)))
    >>> out = np.zeros((2, SIZE), np.float32)
    >>> observe_rows(np.stack([tracker.table, tracker.table]), np.array([0, 3], np.int8), out)
    >>> bool((out[1] == tracker.observe(3)).all()), bool((out[0] == out[1]).all())
    (True, False)
    """
    if TRICKS is not None:
        TRICKS.gather(tables, GATHER, seats, out)
        return
    for i, seat in enumerate(seats.tolist()):
        tables[i].take(GATHER[seat], out=out[i])


_PLAYING: Final = _PHASE[Phase.PLAYING]
#: Places of the compiled play's state.
_TO_ACT, _EXCLUDED, _VOID, _BELOW, _HOLDS = (
    (-1,) * 5
    if TRICKS is None
    else (TRICKS.TO_ACT, TRICKS.EXCLUDED, TRICKS.VOID, TRICKS.BELOW, TRICKS.HOLDS)
)

#: What a tracker's empty table says of a seat.
_NOTHING_KNOWN: Final = Knowledge(Seat.N, CardSet(), (), False, None, CardSet(), ())


def _write_bits(table: Vector, at: int, old: int, new: int) -> None:
    """Write the bits of card mask ``new`` at ``at`` where it differs from ``old``."""
    changed = old ^ new
    while changed:
        low = changed & -changed
        changed ^= low
        table[at + low.bit_length() - 1] = 1.0 if new & low else 0.0
