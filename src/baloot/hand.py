"""One deal of Baloot as a state machine: bidding, trump naming, doubling, play (R3–R12).

There is one door: :meth:`Hand.legal_actions` lists what the seat to act may do, and
:meth:`Hand.apply` checks and applies one action; :meth:`Hand.undo` takes it back. A bot, a
replayed record and a user interface all drive the engine this way.

>>> import random
>>> hand = Hand.new(rng=random.Random(7), dealer="E")
>>> hand.phase, hand.to_act
(<Phase.BIDDING_ROUND_1: 'bidding round 1'>, <Seat.N: 0>)
>>> [str(a) for a in hand.legal_actions()]
['N hokum', 'N pass', 'N sun']
>>> hand.apply("N sun")
Action('N sun')
>>> hand.phase, hand.contract.kind, hand.contract.declarer
(<Phase.PLAYING: 'playing'>, 'sun', <Seat.N: 0>)
>>> hand.apply("S play As")
Traceback (most recent call last):
...
baloot.errors.IllegalActionError: "S play As": it is N's turn
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from baloot.actions import Action, Verb, parse_after_seat
from baloot.bidding import Bidding, Question
from baloot.cards import CARDS, Card, CardSet, Suit, card_points, trick_winner
from baloot.errors import IllegalActionError, NotationError
from baloot.play import Play
from baloot.projects import Project
from baloot.rules import Rules
from baloot.scoring import GAHWA, HandScore, score_hand
from baloot.seats import SEATS, Seat, Team
from baloot.state import (
    DOUBLING,
    HOKUM,
    MUTABLE,
    NAMING,
    OVER,
    PLAY_MUTABLE,
    PLAYING,
    R1,
    R2,
    R3,
    SUN,
    HandState,
    Phase,
    play_snapshot,
)

if TYPE_CHECKING:
    from baloot.record import Record
    from baloot.view import SeatView


_SUITS: Final = tuple(Suit)


@dataclass(frozen=True, slots=True)
class Contract:
    """The contract: Hokum (with its trump) or Sun, the declarer and the doubling."""

    kind: str
    trump: Suit | None
    declarer: Seat
    level: int | str = 1
    locked: bool = False
    doubler: Seat | None = None

    @property
    def declarers(self) -> Team:
        """The declarer's team."""
        return self.declarer.team


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a hand came to (R12): ``None`` where a figure is not known yet (#41, #42)."""

    outcome: str
    dealer: Seat
    contract: Contract | None
    tricks: tuple[int, int]
    card_points: tuple[int, int]
    projects: tuple[tuple[Project, ...], tuple[Project, ...]]
    baloot: tuple[int, int]
    made: bool | None
    kaboot: Team | None
    score: tuple[int, int] | None
    scoring: HandScore | None = None
    gahwa_winner: Team | None = None

    def to_json(self) -> dict[str, object]:
        """The hand as ``baloot replay --json`` prints it (``record-format.md``)."""
        contract = None
        if self.contract is not None:
            c = self.contract
            contract = {
                "kind": c.kind,
                "trump": None if c.trump is None else c.trump.letter,
                "declarer": c.declarer.name,
                "level": c.level,
                "locked": c.locked,
            }
        return {
            "dealer": self.dealer.name,
            "outcome": self.outcome,
            "contract": contract,
            "tricks": _teams(self.tricks),
            "card_points": _teams(self.card_points),
            "projects": {
                t.name: sorted((p.kind.word for p in self.projects[t]), key=_STRENGTH_ORDER.index)
                for t in Team
            },
            "baloot": _teams(self.baloot),
            "made": self.made,
            "kaboot": None if self.kaboot is None else self.kaboot.name,
            "score": None if self.score is None else _teams(self.score),
        }


_STRENGTH_ORDER: Final = ["four-hundred", "hundred", "fifty", "sira"]


def _teams(pair: tuple[int, int]) -> dict[str, int]:
    return {"NS": pair[0], "EW": pair[1]}


class Hand(Bidding, Play):
    """One deal, from the first bid to the last trick.

    Seats and cards are plain ints inside (seat = place in play order from N, card = mask bit)
    so that the hot path is bit arithmetic; the public methods speak :class:`Seat`,
    :class:`Card` and :class:`Action`.
    """

    __slots__ = ()

    def __init__(
        self,
        deck: Sequence[Card],
        dealer: Seat | str = Seat.E,
        rules: Rules | None = None,
        score_before: tuple[int, int] = (0, 0),
    ) -> None:
        indices = tuple(c.index for c in deck)
        if len(indices) != 32 or len(set(indices)) != 32:
            raise NotationError("a deck is 32 distinct cards")
        self._setup(indices, dealer, rules, score_before)

    @classmethod
    def new(
        cls,
        rng: random.Random | None = None,
        dealer: Seat | str = Seat.E,
        rules: Rules | None = None,
        score_before: tuple[int, int] = (0, 0),
    ) -> Hand:
        """A hand dealt from a deck shuffled by ``rng`` (pass ``random.Random(seed)``)."""
        deck = list(range(32))
        (rng if rng is not None else random.Random()).shuffle(deck)
        hand = cls.__new__(cls)
        hand._setup(tuple(deck), dealer, rules, score_before)
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
    def tricks(self) -> tuple[int, int]:
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
        (Question(kind='sun_over_hokum', about=<Seat.W: 1>), (Action('N pass'), Action('N sun')))
        """
        return self._question()

    def completed_tricks(self) -> list[tuple[tuple[tuple[Seat, Card], ...], Seat]]:
        """Every finished trick: its cards in playing order, and who won it (R9.2)."""
        trump = None if self._kind != HOKUM else Suit(self._trump)
        tricks: list[tuple[tuple[tuple[Seat, Card], ...], Seat]] = []
        current: list[tuple[Seat, Card]] = []
        for action in self._actions:
            if action.card is None:
                continue
            current.append((action.seat, action.card))
            if len(current) == 4:
                winner = current[trick_winner((c for _, c in current), trump)][0]
                tricks.append((tuple(current), winner))
                current = []
        return tricks

    @property
    def bidding_length(self) -> int | None:
        """How many of the actions were bidding (trump naming included), once it is over."""
        return None if self._bid_length < 0 else self._bid_length

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

    @property
    def contract(self) -> Contract | None:
        """The contract once the bidding is over (the level grows during doubling)."""
        if self._kind == 0:
            return None
        level: int | str = "gahwa" if self._level == GAHWA else self._level
        return Contract(
            "hokum" if self._kind == HOKUM else "sun",
            None if self._kind == SUN else _SUITS[self._trump],
            SEATS[self._declarer],
            level,
            self._locked,
            SEATS[self._doubler] if self._doubler >= 0 else None,
        )

    def projects(self, seat: Seat | str) -> tuple[Project, ...]:
        """The projects in ``seat``'s complete hand (R10.4), strongest first."""
        return self._reading(_seat(seat))

    def declared(self, seat: Seat | str) -> tuple[Project, ...] | None:
        """What ``seat`` declared in trick 1, or None if it has not declared."""
        return self._declared[_seat(seat)]

    def played(self) -> CardSet:
        """Every card played so far, the trick in progress included."""
        mask = self._gone
        for card in self._trick:
            mask |= 1 << card
        return CardSet(mask)

    def announced(self, action: Action) -> Action:
        """``action`` with the Baloot word added when it plays the second of the King and
        Queen of trumps (R11.3), as a player announces it; any other action unchanged.

        The word is optional in a record (#15): interfaces use this to announce for a player.
        """
        card = action.card
        if card is not None and not action.baloot and self._baloot_due(action.seat, card.index):
            return dataclasses.replace(action, baloot=True)
        return action

    def shown_projects(self) -> tuple[Project, ...]:
        """The projects shown at the second trick (R10.5): every project of both players of
        the team holding the best declared project; empty before the first trick ends."""
        winner = self._project_winner()
        if self._trick_no == 0 or winner < 0:
            return ()
        team = winner & 1
        return self._reading(team) + self._reading(team + 2)

    def view(self, seat: Seat | str) -> SeatView:
        """What ``seat`` may know: never another seat's hidden cards."""
        from baloot.view import SeatView

        return SeatView.of(self, _seat(seat))

    def to_record(self, **metadata: object) -> Record:
        """This hand, as played so far, as a ``baloot/1`` record."""
        from baloot.record import Record

        return Record.from_hand(self, **metadata)

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
            raise IllegalActionError.of("nothing_to_undo")
        saved = self._stack.pop()
        names = PLAY_MUTABLE if len(saved) == len(PLAY_MUTABLE) else MUTABLE
        for name, value in zip(names, saved, strict=True):
            setattr(self, name, value)
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

    def apply(self, action: Action | str) -> Action:
        """Check ``action`` against the rules and apply it; return it as recorded.

        Raises :class:`IllegalActionError` (nothing applied) if it is not legal now.
        """
        if isinstance(action, str):
            action = self.parse_action(action)
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
        self._dispatch(action)
        return action

    def parse_action(self, text: str) -> Action:
        """Read an action, checking the seat first (#39): a wrong seat is 'it is X's turn'."""
        words = text.split("#", 1)[0].split()
        if not words:
            raise NotationError("empty action")
        try:
            seat = Seat.parse(words[0])
        except NotationError as error:
            raise IllegalActionError.of("bad_notation", text, message=str(error)) from None
        if self._phase is OVER:
            raise IllegalActionError.of("hand_over", text)
        if seat != self._to_act:
            raise IllegalActionError.of("not_your_turn", text, seat=SEATS[self._to_act].name)
        if len(words) < 2:
            raise IllegalActionError.of("name_action", text, seat=seat.name)
        try:
            return parse_after_seat(seat, words[1:], text)
        except NotationError as error:
            message = str(error).split(": ", 1)[-1]
            raise IllegalActionError.of("bad_notation", text, message=message) from None

    def _check_turn(self, action: Action) -> None:
        if self._phase is OVER:
            raise self._fail(action, "hand_over")
        if action.seat != self._to_act:
            raise self._fail(action, "not_your_turn", seat=SEATS[self._to_act].name)

    def _dispatch(self, action: Action) -> None:
        phase = self._phase
        verb = action.verb
        s = int(action.seat)
        name = action.seat.name
        if phase is PLAYING:
            if verb is Verb.PLAY:
                c = self._check_play(action)
                self._push(action)
                self._play(s, c, action.ekka)
            elif verb is Verb.DECLARE:
                projects = self._check_declaration(action)
                self._push(action)
                declared = list(self._declared)
                declared[s] = projects
                self._declared = tuple(declared)
            else:
                raise self._fail(action, "play_now", seat=name)
            return
        if verb is Verb.PLAY or verb is Verb.DECLARE:
            code = "play_before_play" if verb is Verb.PLAY else "declare_before_play"
            raise self._fail(action, code, seat=name)
        legal = self.legal_actions()
        if action not in legal:
            raise self._explain_call(action, legal)
        self._push(action)
        if phase is DOUBLING:
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

    def card_points(self) -> tuple[int, int]:
        """Card points (NS, EW) of the tricks taken so far, with the last-trick 10 at the end."""
        trump = self._trump if self._kind == HOKUM else None
        points = [card_points(self._won[0], trump), card_points(self._won[1], trump)]
        if self._last_team >= 0:
            points[self._last_team] += 10
        return (points[0], points[1])

    def result(self) -> HandResult:
        """The hand's outcome so far: contract, tricks, card points, projects, Baloot, score."""
        dealer = SEATS[self._dealer]
        no_projects: tuple[tuple[Project, ...], tuple[Project, ...]] = ((), ())
        if self._phase is OVER and self._kind == 0:
            return HandResult(
                "annulled", dealer, None, (0, 0), (0, 0), no_projects, (0, 0), None, None, (0, 0)
            )
        contract = self.contract
        if self._phase is not OVER or contract is None:
            if self._phase in (R1, R2, R3, NAMING):
                contract = None
            return HandResult(
                "in progress",
                dealer,
                contract,
                self._tricks,
                self.card_points(),
                no_projects,
                (0, 0),
                None,
                None,
                None,
            )
        winner_seat = self._project_winner()
        shown = -1 if winner_seat < 0 else winner_seat & 1
        projects: list[tuple[Project, ...]] = [(), ()]
        if shown >= 0:
            projects[shown] = self.shown_projects()
        sun = self._kind == SUN
        points = sum(p.kind.game_points(sun) for p in projects[shown]) if shown >= 0 else 0
        raw = sum(p.kind.raw for p in projects[shown]) if shown >= 0 else 0
        baloot = [0, 0]
        holder = self._baloot_seat(shown)
        if holder >= 0:
            baloot[holder & 1] = 2
        cards = self.card_points()
        sheet = score_hand(
            self._rules,
            sun=sun,
            declarers=Team(self._declarer & 1),
            level=self._level,
            card_points=cards,
            tricks=self._tricks,
            project_team=None if shown < 0 else Team(shown),
            project_points=points,
            project_raw=raw,
            baloot=(baloot[0], baloot[1]),
        )
        return HandResult(
            "played",
            dealer,
            contract,
            self._tricks,
            cards,
            (projects[0], projects[1]),
            (baloot[0], baloot[1]),
            sheet.made,
            sheet.kaboot,
            sheet.score,
            sheet,
            sheet.winner if self._level == GAHWA else None,
        )

    @property
    def next_dealer(self) -> Seat:
        """Who deals next (R1.4, #9): P1, except after Kawesh with ``kawesh_same_dealer``."""
        if self._kawesh and self._rules.kawesh_same_dealer:
            return SEATS[self._dealer]
        return SEATS[self._p1]

    def __repr__(self) -> str:
        turn = "over" if self._phase is OVER else f"{SEATS[self._to_act].name} to act"
        return f"<Hand dealer={SEATS[self._dealer].name} {self._phase.value}, {turn}>"


def _seat(seat: Seat | str) -> int:
    return int(Seat.parse(seat) if isinstance(seat, str) else seat)
