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

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import attrgetter
from typing import TYPE_CHECKING, Final

from baloot import tables as T
from baloot.actions import Action, Claim, Verb, parse_after_seat
from baloot.cards import CARDS, Card, CardSet, Rank, Suit, card_points
from baloot.errors import IllegalActionError, NotationError
from baloot.projects import Project, ProjectKind, may_hold_project, reading
from baloot.rules import CLASSIC, Rules
from baloot.scoring import GAHWA, HandScore, score_hand
from baloot.seats import SEATS, Seat, Team

if TYPE_CHECKING:
    from baloot.record import Record
    from baloot.view import SeatView


class Phase(Enum):
    """Where a hand stands."""

    BIDDING_ROUND_1 = "bidding round 1"
    BIDDING_ROUND_2 = "bidding round 2"
    BIDDING_ROUND_3 = "bidding round 3"
    TRUMP_NAMING = "trump naming"
    DOUBLING = "doubling"
    PLAYING = "playing"
    OVER = "over"


_TRUMP_STRENGTH: Final = T.TRUMP_RANK_STRENGTH
_PLAIN_STRENGTH: Final = T.PLAIN_RANK_STRENGTH
_SUIT_MASKS: Final = T.SUIT_MASKS
_TRUMP_ABOVE: Final = T.TRUMP_ABOVE
_PLAY_BY_BYTE: Final = T.PLAY_BY_BYTE
#: The place after the dealer (P1 = 0) that receives each of the first 20 cards (R3.2).
_FIRST_DEAL: Final = (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3)
_SUITS_BY_LETTER: Final = (3, 2, 1, 0)  # c d h s: trump namings in notation order
_R1: Final = Phase.BIDDING_ROUND_1
_R2: Final = Phase.BIDDING_ROUND_2
_R3: Final = Phase.BIDDING_ROUND_3
_NAMING: Final = Phase.TRUMP_NAMING
_DOUBLING: Final = Phase.DOUBLING
_PLAYING: Final = Phase.PLAYING
_OVER: Final = Phase.OVER

_HOKUM: Final = 1
_SUN: Final = 2
_LOW_RANKS: Final = 0xE0E0E0E0  # 9, 8 and 7 of every suit: Kawesh cards (R6)
_LEVEL_WORDS: Final = {1: "none", 2: "double", 3: "triple", 4: "four", GAHWA: "gahwa"}


@dataclass(frozen=True, slots=True)
class Contract:
    """The contract: Hokum (with its trump) or Sun, the declarer and the doubling."""

    kind: str
    trump: Suit | None
    declarer: Seat
    level: int | str = 1
    locked: bool = False

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


_MUTABLE: Final = (
    "_phase", "_to_act", "_hands", "_turn", "_hokum", "_queue", "_caller", "_ashkal",
    "_kind", "_trump", "_declarer", "_kawesh", "_full", "_level", "_locked", "_doubler",
    "_step", "_trick_no", "_leader", "_trick", "_win_seat", "_win_card", "_ekka", "_gone",
    "_won", "_tricks", "_declared", "_last_team", "_bid_length",
)  # fmt: skip
_snapshot: Final = attrgetter(*_MUTABLE)


class Hand:
    """One deal, from the first bid to the last trick.

    Seats and cards are plain ints inside (seat = place in play order from N, card = mask bit)
    so that the hot path is bit arithmetic; the public methods speak :class:`Seat`,
    :class:`Card` and :class:`Action`.
    """

    __slots__ = (
        "_actions", "_deck", "_dealer", "_exposed", "_first5", "_legal", "_legal_mask", "_order",
        "_p1",
        "_readings", "_rules", "_score_before", "_stack", *_MUTABLE,
    )  # fmt: skip

    _phase: Phase
    _to_act: int
    _hands: tuple[int, int, int, int]
    _turn: int
    _hokum: int
    _queue: tuple[int, ...]
    _caller: int
    _ashkal: bool
    _kind: int
    _trump: int
    _declarer: int
    _kawesh: bool
    _full: tuple[int, int, int, int]
    _level: int
    _locked: bool
    _doubler: int
    _step: int
    _trick_no: int
    _leader: int
    _trick: tuple[int, ...]
    _win_seat: int
    _win_card: int
    _ekka: bool
    _gone: int
    _won: tuple[int, int]
    _tricks: tuple[int, int]
    _declared: tuple[tuple[Project, ...] | None, ...]
    _last_team: int
    _bid_length: int

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

    def _setup(
        self,
        indices: tuple[int, ...],
        dealer: Seat | str,
        rules: Rules | None,
        score_before: tuple[int, int],
    ) -> None:
        self._deck = indices
        self._dealer = int(Seat.parse(dealer) if isinstance(dealer, str) else dealer)
        self._rules = CLASSIC if rules is None else rules
        self._score_before = (int(score_before[0]), int(score_before[1]))
        self._p1 = p1 = (self._dealer + 1) & 3
        self._order = tuple((p1 + i) & 3 for i in range(4))
        first5 = [0, 0, 0, 0]
        for place, card in zip(_FIRST_DEAL, indices, strict=False):
            first5[(p1 + place) & 3] |= 1 << card
        self._first5 = (first5[0], first5[1], first5[2], first5[3])
        self._exposed = indices[20]
        self._readings: list[tuple[Project, ...]] | None = None
        self._actions: list[Action] = []
        self._stack: list[tuple[object, ...]] = []
        self._legal: tuple[Action, ...] | None = None
        self._legal_mask = -1
        self._phase = _R1
        self._to_act = p1
        self._hands = self._first5
        self._turn = 0
        self._hokum = -1
        self._queue = ()
        self._caller = -1
        self._ashkal = False
        self._kind = 0
        self._trump = -1
        self._declarer = -1
        self._kawesh = False
        self._full = (0, 0, 0, 0)
        self._level = 1
        self._locked = False
        self._doubler = -1
        self._step = 0
        self._trick_no = 0
        self._leader = -1
        self._trick = ()
        self._win_seat = -1
        self._win_card = -1
        self._ekka = False
        self._gone = 0
        self._won = (0, 0)
        self._tricks = (0, 0)
        self._declared = (None, None, None, None)
        self._last_team = -1
        self._bid_length = -1

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

    # ------------------------------------------------------------------ public state

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
        return self._phase is _OVER

    @property
    def to_act(self) -> Seat | None:
        """The seat that must act next, or None when the hand is over."""
        return None if self._phase is _OVER else SEATS[self._to_act]

    @property
    def actions(self) -> list[Action]:
        """The actions applied so far, in order (a copy)."""
        return list(self._actions)

    @property
    def trick_number(self) -> int:
        """Completed tricks so far (0–8)."""
        return self._trick_no

    @property
    def current_trick(self) -> list[tuple[Seat, Card]]:
        """The cards of the trick in progress, in playing order."""
        return [(SEATS[(self._leader + i) & 3], CARDS[c]) for i, c in enumerate(self._trick)]

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
            "hokum" if self._kind == _HOKUM else "sun",
            None if self._kind == _SUN else Suit(self._trump),
            SEATS[self._declarer],
            level,
            self._locked,
        )

    def projects(self, seat: Seat | str) -> tuple[Project, ...]:
        """The projects in ``seat``'s complete hand (R10.4), strongest first."""
        return self._reading(_seat(seat))

    def declared(self, seat: Seat | str) -> tuple[Project, ...] | None:
        """What ``seat`` declared in trick 1, or None if it has not declared."""
        return self._declared[_seat(seat)]

    def view(self, seat: Seat | str) -> SeatView:
        """What ``seat`` may know: never another seat's hidden cards."""
        from baloot.view import SeatView

        return SeatView.of(self, _seat(seat))

    def to_record(self, **metadata: object) -> Record:
        """This hand, as played so far, as a ``baloot/1`` record."""
        from baloot.record import Record

        return Record.from_hand(self, **metadata)

    # ------------------------------------------------------------------ copy / undo

    def copy(self) -> Hand:
        """An independent copy (its undo history included)."""
        other = Hand.__new__(Hand)
        for name in Hand.__slots__:
            setattr(other, name, getattr(self, name))
        other._actions = list(self._actions)
        other._stack = list(self._stack)
        other._readings = None if self._readings is None else list(self._readings)
        return other

    def undo(self) -> Action:
        """Take back the last action and return it."""
        if not self._stack:
            raise IllegalActionError("there is nothing to undo")
        for name, value in zip(_MUTABLE, self._stack.pop(), strict=True):
            setattr(self, name, value)
        self._legal = None
        self._legal_mask = -1
        if self._kind == 0:
            self._readings = None
        return self._actions.pop()

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act.

        Declarations come first, then plays by suit (♠ ♥ ♦ ♣) high card first, each Ekka
        lead right after its plain play; calls in a fixed order. The record format's sorted
        listing (#43) is :func:`sorted` with ``key=str`` of this.
        """
        legal = self._legal
        if legal is None:
            if self._phase is _PLAYING:
                legal = self._legal = self._legal_plays(self._to_act)
            else:
                legal = self._legal = self._generate()
        return legal

    def _generate(self) -> tuple[Action, ...]:
        """Legal calls outside the play, already in notation (code-point) order."""
        phase = self._phase
        s = self._to_act
        if phase is _OVER:
            return ()
        if phase is _DOUBLING:
            step = self._step
            if step == 0:
                if self._kind == _SUN:
                    return (T.DOUBLE_SUN[s], T.PASS[s])
                return (T.DOUBLE_LOCKED[s], T.DOUBLE_OPEN[s], T.PASS[s])
            if step == 1:
                return (T.PASS[s], T.TRIPLE[s])
            if step == 2:
                return (T.FOUR_LOCKED[s], T.FOUR_OPEN[s], T.PASS[s])
            return (T.GAHWA[s], T.PASS[s])
        if phase is _NAMING:
            exposed_suit = self._exposed >> 3
            calls = [T.SUN[s]] if self._rules.hokum_bidder_may_upgrade_to_sun else []
            calls.extend(T.TRUMP[s][x] for x in _SUITS_BY_LETTER if x != exposed_suit)
            return tuple(calls)
        if self._queue or phase is _R3:
            return (T.PASS[s], T.SUN[s])
        return self._bid_calls(s)

    def _bid_calls(self, s: int) -> tuple[Action, ...]:
        """The calls of a seat's normal turn in round 1 or 2 (R4–R6, #3–#7)."""
        rules = self._rules
        restricted = (
            self._phase is _R1
            and self._hokum >= 0
            and rules.ace_hokum_sun_only_p1
            and self._exposed & 7 == Rank.ACE
        )
        calls = []
        if not restricted and self._ashkal_reason(s) is None:
            calls.append(T.ASHKAL[s])
        if self._hokum < 0:
            calls.append(T.HOKUM[s])
        if self._phase is _R1 and self._kawesh_reason(s) is None:
            calls.append(T.KAWESH[s])
        calls.append(T.PASS[s])
        if not restricted:
            calls.append(T.SUN[s])
        return tuple(calls)

    def _ashkal_reason(self, s: int) -> str | None:
        """Why ``s`` may not call Ashkal now (R4.6, #6–#7), or None if it may."""
        rules = self._rules
        name = SEATS[s].name
        if (s - self._p1) & 3 < 2:
            return f"{name} may not call Ashkal: only the dealer and the dealer's left may"
        if self._phase is _R2 and not rules.ashkal_round2:
            return f"{name} may not call Ashkal in the second round"
        if self._exposed & 7 == Rank.ACE and not rules.ashkal_on_ace:
            return f"{name} may not call Ashkal on an exposed Ace"
        after_passes = self._hokum < 0
        over_hokum = self._hokum >= 0 and (self._hokum ^ s) & 1 == 1
        mode = rules.ashkal_mode
        if mode == "after_passes" and not after_passes:
            return f"{name} may call Ashkal only when every earlier player passed"
        if mode == "over_opponent_hokum" and not over_hokum:
            return f"{name} may call Ashkal only over an opponent's Hokum"
        if mode == "both" and not (after_passes or over_hokum):
            return f"{name} may call Ashkal only after passes or over an opponent's Hokum"
        return None

    def _kawesh_reason(self, s: int) -> str | None:
        """Why ``s`` may not call Kawesh now (R6, #3), or None if it may."""
        name = SEATS[s].name
        if not self._rules.kawesh_enabled:
            return "Kawesh is not played under these rules"
        if self._phase is not _R1:
            return f"{name} may call Kawesh only in the first round"
        if self._first5[s] & ~_LOW_RANKS:
            return f"{name} may call Kawesh only with five cards of 7, 8 and 9"
        return None

    def _play_mask(self, s: int) -> int:
        """The cards ``s`` may play now (R9.3–R9.4), as a mask."""
        h = self._hands[s]
        trick = self._trick
        if self._kind == _SUN:
            if not trick:
                return h
            return h & _SUIT_MASKS[self._trick[0] >> 3] or h
        tm = _SUIT_MASKS[self._trump]
        if not trick:
            if self._locked and h & ~tm:
                return h & ~tm
            return h
        led = trick[0] >> 3
        trumps = h & tm
        if led == self._trump:
            if not trumps:
                return h
            if (self._win_seat ^ s) & 1:
                higher = trumps & _TRUMP_ABOVE[self._win_card]
                if higher:
                    return higher
            return trumps
        follow = h & _SUIT_MASKS[led]
        if follow:
            return follow
        if not trumps:
            return h
        if not (self._win_seat ^ s) & 1:
            if (
                len(trick) == 2
                and self._rules.partner_led_must_trump
                and trick[0] & 7 != 0
                and not self._ekka
            ):
                return trumps
            return h
        if self._win_card >> 3 == self._trump:
            higher = trumps & _TRUMP_ABOVE[self._win_card]
            if higher:
                return higher
            return trumps if self._rules.must_undertrump else h
        return trumps

    def _ekka_valid(self, card: int) -> bool:
        """R9.5: a Hokum lead of a side-suit non-Ace whose every better card is gone."""
        return (
            self._kind == _HOKUM
            and not self._trick
            and card >> 3 != self._trump
            and card & 7 != T.ACE_RANK
            and T.PLAIN_ABOVE[card] & ~self._gone == 0
        )

    def _legal_plays(self, s: int) -> tuple[Action, ...]:
        mask = self._legal_mask = self._play_mask(s)
        spades, hearts, diamonds, clubs = _PLAY_BY_BYTE[s]
        plays = (
            spades[mask & 0xFF]
            + hearts[(mask >> 8) & 0xFF]
            + diamonds[(mask >> 16) & 0xFF]
            + clubs[mask >> 24]
        )
        if self._trick_no == 0:
            if self._declared[s] is None and self._reading(s):
                return (*self._declaration_options(s), *plays)
        elif self._kind == _HOKUM and not self._trick:
            ekka_mask = self._ekka_mask(mask)
            if ekka_mask:
                ekka = T.PLAY_EKKA[s]
                with_ekka: list[Action] = []
                for play in plays:
                    with_ekka.append(play)
                    card = play.card
                    if card is not None and ekka_mask >> card.index & 1:
                        with_ekka.append(ekka[card.index])
                return tuple(with_ekka)
        return plays

    def _ekka_mask(self, held: int) -> int:
        """The cards of ``held`` that are a valid Ekka lead (R9.5): per side suit, the best
        card still out, if it is held and is not an Ace."""
        out = ~self._gone
        found = 0
        for suit in range(4):
            if suit != self._trump:
                best = T.BEST_PLAIN[(out >> (suit << 3)) & 0xFF]
                if best > 0 and held >> (best + (suit << 3)) & 1:
                    found |= 1 << (best + (suit << 3))
        return found

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action | str) -> Action:
        """Check ``action`` against the rules and apply it; return it as recorded.

        Raises :class:`IllegalActionError` (nothing applied) if it is not legal now.
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        phase = self._phase
        s = action.seat
        card = action.card
        if phase is _PLAYING and s == self._to_act and card is not None:
            mask = self._legal_mask
            if mask < 0:
                mask = self._play_mask(s)
            c = card.index
            if mask >> c & 1 and not action.ekka and not action.baloot:
                self._stack.append(_snapshot(self))
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
            raise IllegalActionError(str(error), text) from None
        if self._phase is _OVER:
            raise IllegalActionError("the hand is over", text)
        if seat != self._to_act:
            raise IllegalActionError(f"it is {SEATS[self._to_act].name}'s turn", text)
        if len(words) < 2:
            raise IllegalActionError(f"{seat.name} must name an action", text)
        try:
            return parse_after_seat(seat, words[1:], text)
        except NotationError as error:
            raise IllegalActionError(str(error).split(": ", 1)[-1], text) from None

    def _check_turn(self, action: Action) -> None:
        if self._phase is _OVER:
            raise IllegalActionError("the hand is over", str(action))
        if action.seat != self._to_act:
            raise IllegalActionError(f"it is {SEATS[self._to_act].name}'s turn", str(action))

    def _push(self, action: Action) -> None:
        self._stack.append(_snapshot(self))
        self._actions.append(action)
        self._legal = None
        self._legal_mask = -1

    def _fail(self, action: Action, reason: str) -> IllegalActionError:
        return IllegalActionError(reason, str(action))

    def _dispatch(self, action: Action) -> None:
        phase = self._phase
        verb = action.verb
        s = int(action.seat)
        name = action.seat.name
        if phase is _PLAYING:
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
                raise self._fail(action, f"{name} must play a card now")
            return
        if verb is Verb.PLAY or verb is Verb.DECLARE:
            what = "play a card" if verb is Verb.PLAY else "declare a project"
            raise self._fail(action, f"{name} may not {what} before the play begins")
        legal = self.legal_actions()
        if action not in legal:
            raise self._fail(action, self._explain_call(action, legal))
        self._push(action)
        if phase is _DOUBLING:
            self._apply_doubling(action)
        elif phase is _NAMING:
            if verb is Verb.SUN:
                self._set_contract(_SUN, -1, s)
            else:
                self._set_contract(_HOKUM, int(action.suit), s)  # type: ignore[arg-type]
        elif self._queue:
            self._apply_window(s, verb)
        else:
            self._apply_bid(s, verb)

    def _explain_call(self, action: Action, legal: Iterable[Action]) -> str:
        """The reason a bidding, naming or doubling action is illegal, in a player's words."""
        name = action.seat.name
        verb = action.verb
        phase = self._phase
        if phase is _DOUBLING:
            if verb is Verb.DOUBLE and action.locked is None and self._kind == _HOKUM:
                return f"{name} must say whether the double is open or locked"
            if verb is Verb.DOUBLE and action.locked is not None and self._kind == _SUN:
                return "a double in Sun is neither open nor locked"
            offered = " or ".join(sorted({a.verb.value for a in legal}))
            return f"{name} may only answer {offered} now"
        if phase is _NAMING:
            if verb is Verb.TRUMP:
                return f"{name} may not name the exposed suit as trump in the second round"
            return f"{name} must name the trump suit now"
        if self._queue:
            return f"{name} may only take the Sun or pass now"
        if verb is Verb.ASHKAL:
            return self._ashkal_reason(int(action.seat)) or f"{name} may not call Ashkal now"
        if verb is Verb.KAWESH:
            return self._kawesh_reason(int(action.seat)) or f"{name} may not call Kawesh now"
        if verb is Verb.HOKUM:
            return f"{name} may not call Hokum: a Hokum has already been called"
        if verb is Verb.SUN:
            return f"{name} may not call Sun over a Hokum on an exposed Ace"
        return f"{name} may not {verb.value} during the bidding"

    # ------------------------------------------------------------------ bidding

    def _apply_bid(self, s: int, verb: Verb) -> None:
        """A call on a seat's normal turn (R4, R5)."""
        if verb is Verb.KAWESH:
            self._kawesh = True
            self._annul()
            return
        if self._phase is _R3:
            if verb is Verb.SUN:
                self._set_contract(_SUN, -1, s)
            else:
                self._annul()
            return
        round1 = self._phase is _R1
        if verb is Verb.SUN or verb is Verb.ASHKAL:
            ashkal = verb is Verb.ASHKAL
            if not round1:
                self._set_contract(_SUN, -1, s ^ 2 if ashkal else s)
                return
            seats = self._order[: (s - self._p1) & 3]
            if not self._rules.hokum_bidder_may_upgrade_to_sun:
                seats = tuple(x for x in seats if x != self._hokum)
            if not seats:
                self._set_contract(_SUN, -1, s ^ 2 if ashkal else s)
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
                self._phase = _NAMING
                self._to_act = self._hokum
        elif round1:
            self._phase = _R2
            self._turn = 0
            self._to_act = self._p1
        elif self._rules.third_round_on_ace and self._exposed & 7 == Rank.ACE:
            self._phase = _R3
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
            self._set_contract(_HOKUM, self._exposed >> 3, h)
            return
        self._queue = seats
        self._to_act = seats[0]

    def _apply_window(self, s: int, verb: Verb) -> None:
        """An answer to a Sun take-over offer or to 'confirm Hokum or Sun' (#1, #2)."""
        if verb is Verb.SUN:
            self._queue = ()
            self._set_contract(_SUN, -1, s)
            return
        rest = self._queue[1:]
        self._queue = rest
        if rest:
            self._to_act = rest[0]
        elif self._caller >= 0:
            self._set_contract(_SUN, -1, self._caller ^ 2 if self._ashkal else self._caller)
        else:
            self._set_contract(_HOKUM, self._exposed >> 3, self._hokum)

    def _annul(self) -> None:
        self._phase = _OVER
        self._to_act = -1

    def _set_contract(self, kind: int, trump: int, declarer: int) -> None:
        """End the bidding: the declarer takes the exposed card and the deal is completed."""
        self._kind = kind
        self._trump = trump
        self._declarer = declarer
        self._bid_length = len(self._actions)
        full = list(self._first5)
        full[declarer] |= 1 << self._exposed
        pos = 21
        for seat in self._order:
            count = 2 if seat == declarer else 3
            for card in self._deck[pos : pos + count]:
                full[seat] |= 1 << card
            pos += count
        self._full = self._hands = (full[0], full[1], full[2], full[3])
        self._readings = None
        self._phase = _DOUBLING
        self._step = 0
        self._queue = tuple(x for x in self._order if (x ^ declarer) & 1)
        if kind == _SUN and not self._sun_double_allowed():
            self._start_play()
        else:
            self._to_act = self._queue[0]

    def _sun_double_allowed(self) -> bool:
        """R8.4 and #12: a Sun may be doubled only on certain match totals."""
        d = self._declarer & 1
        ours, theirs = self._score_before[d], self._score_before[1 - d]
        rule = self._rules.sun_double_rule
        if rule == "either_side_gt_lt":
            return (ours > 100 and theirs < 100) or (theirs > 100 and ours < 100)
        if rule == "declarer_gt100_doubler_lt100":
            return ours > 100 and theirs < 100
        return ours > 100 and theirs <= 100

    # ------------------------------------------------------------------ doubling

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
            if self._kind == _SUN:
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
            self._level = GAHWA
            self._locked = self._locked and persists
            self._start_play()

    def _start_play(self) -> None:
        self._phase = _PLAYING
        self._queue = ()
        lead = self._declarer if self._rules.first_lead == "declarer" else self._p1
        self._leader = self._to_act = lead

    # ------------------------------------------------------------------ play

    def _check_play(self, action: Action) -> int:
        """The card that ``action`` plays, or raise the rule of R9 that it breaks."""
        s = int(action.seat)
        name = action.seat.name
        card = action.card
        if card is None:
            raise self._fail(action, f"{name} must name a card")
        c = card.index
        if not self._hands[s] >> c & 1:
            raise self._fail(action, f"{name} does not hold {card.text}")
        allowed = self._play_mask(s)
        if not allowed >> c & 1:
            raise self._fail(action, self._explain_play(s, c, allowed))
        if action.ekka and not self._ekka_valid(c):
            raise self._fail(action, self._explain_ekka(name, c))
        if action.baloot:
            pair = T.KING_QUEEN[self._trump] if self._kind == _HOKUM else 0
            other = pair & ~(1 << c)
            if not (pair >> c & 1 and other & self._full[s] and not other & self._hands[s]):
                raise self._fail(
                    action,
                    f"{name} may announce Baloot only with the second of the King and Queen "
                    "of trumps",
                )
        return c

    def _explain_play(self, s: int, c: int, allowed: int) -> str:
        """Why card ``c`` is not among ``allowed`` for seat ``s``, in a player's words."""
        name = SEATS[s].name
        if not self._trick:
            return f"{name} may not lead a trump in a locked game"
        led = self._trick[0] >> 3
        if allowed & ~T.SUIT_MASKS[led] == 0:
            if self._kind == _HOKUM and led == self._trump and c >> 3 == led:
                return f"{name} must play a trump higher than {CARDS[self._win_card].text}"
            return f"{name} must follow {T.SUIT_NAMES[led]}"
        if self._win_card >> 3 == self._trump and allowed & T.TRUMP_ABOVE[self._win_card]:
            return f"{name} must over-trump {CARDS[self._win_card].text}"
        if self._win_seat == self._leader and not (self._win_seat ^ s) & 1:
            return (
                f"{name} must trump: the partner led {CARDS[self._trick[0]].text}, "
                "neither an Ace nor an Ekka"
            )
        return f"{name} must play a trump"

    def _explain_ekka(self, name: str, c: int) -> str:
        card = CARDS[c].text
        if self._kind != _HOKUM:
            return "there is no Ekka in Sun"
        if self._trick:
            return f"{name} may announce Ekka only when leading"
        if c >> 3 == self._trump:
            return f"{name} may not announce Ekka on a trump"
        if c & 7 == T.ACE_RANK:
            return f"{name} may not announce Ekka on an Ace"
        higher = ", ".join(
            CARDS[i].text
            for i in range(32)
            if T.PLAIN_ABOVE[c] >> i & 1 and not self._gone >> i & 1
        )
        return f"{name} may not announce Ekka with {card}: {higher} not yet played"

    def _play(self, s: int, c: int, ekka: bool) -> None:
        """Put card ``c`` of seat ``s`` on the trick; close the trick after four cards."""
        h = self._hands
        bit = 1 << c
        if s == 0:
            self._hands = (h[0] ^ bit, h[1], h[2], h[3])
        elif s == 1:
            self._hands = (h[0], h[1] ^ bit, h[2], h[3])
        elif s == 2:
            self._hands = (h[0], h[1], h[2] ^ bit, h[3])
        else:
            self._hands = (h[0], h[1], h[2], h[3] ^ bit)
        trick = self._trick
        if not trick:
            self._ekka = ekka
            self._win_seat = s
            self._win_card = c
        else:
            w = self._win_card
            if c >> 3 == w >> 3:
                table = _TRUMP_STRENGTH if w >> 3 == self._trump else _PLAIN_STRENGTH
                if table[c] > table[w]:
                    self._win_seat = s
                    self._win_card = c
            elif c >> 3 == self._trump:
                self._win_seat = s
                self._win_card = c
        trick = self._trick = (*trick, c)
        if len(trick) < 4:
            self._to_act = (s + 1) & 3
            return
        winner = self._win_seat
        bits = (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
        self._gone |= bits
        won, tricks = self._won, self._tricks
        if winner & 1:
            self._won = (won[0], won[1] | bits)
            self._tricks = (tricks[0], tricks[1] + 1)
        else:
            self._won = (won[0] | bits, won[1])
            self._tricks = (tricks[0] + 1, tricks[1])
        team = winner & 1
        self._trick = ()
        self._trick_no += 1
        self._leader = self._to_act = winner
        if self._trick_no == 8:
            self._last_team = team
            self._annul()

    # ------------------------------------------------------------------ projects

    def _reading(self, s: int) -> tuple[Project, ...]:
        if self._kind == 0:
            return ()
        readings = self._readings
        if readings is None:
            rules = self._rules
            sun = self._kind == _SUN
            readings = self._readings = [
                tuple(
                    sorted(
                        reading(
                            m,
                            sun,
                            rules.long_sequence_split,
                            rules.hundred_sequence_beats_four_kind,
                        ),
                        key=self._project_key,
                        reverse=True,
                    )
                )
                if may_hold_project(m)
                else ()
                for m in self._full
            ]
        return readings[s]

    def _project_key(self, p: Project) -> tuple[int, int, int, int]:
        rules = self._rules
        trump = self._trump if rules.trump_sequence_priority and self._kind == _HOKUM else None
        return p.key(rules.hundred_sequence_beats_four_kind, trump)

    def _best_declared(self) -> tuple[int, int, int, int] | None:
        keys = [self._project_key(d[0]) for d in self._declared if d]
        return max(keys) if keys else None

    def _declaration_options(self, s: int) -> list[Action]:
        """Every allowed ``declare`` of seat ``s`` (#18, #19, #43), sorted as strings."""
        projects = self._reading(s)
        subsets: list[tuple[Project, ...]] = [(p,) for p in projects]
        if len(projects) == 2:
            subsets.insert(0, projects)
            if projects[0].kind == projects[1].kind:
                subsets.pop()
        best = self._best_declared()
        seat = SEATS[s]
        options = {
            Action(seat, Verb.DECLARE, claims=tuple(Claim(p.kind) for p in subset))
            for subset in subsets
            if best is None or not self._project_key(subset[0]) < best
        }
        return sorted(options, key=str)

    def _check_declaration(self, action: Action) -> tuple[Project, ...]:
        """The projects a ``declare`` names (#18, #19), or the rule it breaks."""
        s = int(action.seat)
        name = action.seat.name
        if self._trick_no or any((self._leader + i) & 3 == s for i in range(len(self._trick))):
            raise self._fail(action, f"{name} may declare only in the first trick, before playing")
        if self._declared[s] is not None:
            raise self._fail(action, f"{name} has already declared")
        if len(action.claims) > 2:
            raise self._fail(action, f"{name} cannot hold more than two projects")
        unclaimed = list(self._reading(s))
        chosen = []
        for claim in action.claims:
            match = next(
                (
                    p
                    for p in unclaimed
                    if p.kind == claim.kind and (claim.cards is None or claim.cards.mask == p.mask)
                ),
                None,
            )
            if match is None:
                held = claim.kind.word if claim.cards is None else str(claim)
                article = "an" if held[0] in "aeiou" else "a"
                raise self._fail(action, f"{name} does not hold {article} {held}")
            unclaimed.remove(match)
            chosen.append(match)
        chosen.sort(key=self._project_key, reverse=True)
        best = self._best_declared()
        if best is not None and self._project_key(chosen[0]) < best:
            raise self._fail(
                action,
                f"{name} may not declare a {chosen[0].kind.word} lower than a project "
                "already declared",
            )
        return tuple(chosen)

    # ------------------------------------------------------------------ result

    def card_points(self) -> tuple[int, int]:
        """Card points (NS, EW) of the tricks taken so far, with the last-trick 10 at the end."""
        trump = self._trump if self._kind == _HOKUM else None
        points = [card_points(self._won[0], trump), card_points(self._won[1], trump)]
        if self._last_team >= 0:
            points[self._last_team] += 10
        return (points[0], points[1])

    def _project_winner(self) -> int:
        """The seat holding the single best declared project (R10.6), or -1."""
        best_seat, best_key = -1, None
        for seat in self._order:
            projects = self._declared[seat]
            if projects:
                key = self._project_key(projects[0])
                if best_key is None or key > best_key:
                    best_seat, best_key = seat, key
        return best_seat

    def _baloot_seat(self, shown_team: int) -> int:
        """The seat credited with Baloot (R11), or -1."""
        if self._kind != _HOKUM:
            return -1
        pair = T.KING_QUEEN[self._trump]
        for seat in range(4):
            if self._full[seat] & pair == pair:
                if seat & 1 == shown_team:
                    partial = self._rules.baloot_blocked_by_partial_overlap
                    for p in self._reading(seat):
                        overlap = (p.mask & pair).bit_count()
                        if p.kind == ProjectKind.HUNDRED and (
                            overlap == 2 or (overlap and p.four_of_a_kind)
                        ):
                            return -1
                        if partial and overlap == 1:
                            return -1
                return seat
        return -1

    def result(self) -> HandResult:
        """The hand's outcome so far: contract, tricks, card points, projects, Baloot, score."""
        dealer = SEATS[self._dealer]
        no_projects: tuple[tuple[Project, ...], tuple[Project, ...]] = ((), ())
        if self._phase is _OVER and self._kind == 0:
            return HandResult(
                "annulled", dealer, None, (0, 0), (0, 0), no_projects, (0, 0), None, None, (0, 0)
            )
        contract = self.contract
        if self._phase is not _OVER or contract is None:
            if self._phase in (_R1, _R2, _R3, _NAMING):
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
            projects[shown] = self._reading(shown) + self._reading(shown + 2)
        sun = self._kind == _SUN
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
        turn = "over" if self._phase is _OVER else f"{SEATS[self._to_act].name} to act"
        return f"<Hand dealer={SEATS[self._dealer].name} {self._phase.value}, {turn}>"


def _seat(seat: Seat | str) -> int:
    return int(Seat.parse(seat) if isinstance(seat, str) else seat)
