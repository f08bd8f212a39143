"""The state of one hand, shared by the rules of bidding, play and projects.

A hand's state is a flat set of ints and tuples (seats are places in play order from N, cards
are mask bits) so that copying, undoing and the hot path stay cheap. Every field an action may
change is named in :data:`MUTABLE`; the snapshot taken before each action holds exactly those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from baloot.core.actions import Action
from baloot.core.errors import IllegalActionError
from baloot.core.projects import Project
from baloot.core.reasons import ReasonCode
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase

R1: Final = Phase.BIDDING_ROUND_1
R2: Final = Phase.BIDDING_ROUND_2
R3: Final = Phase.BIDDING_ROUND_3
NAMING: Final = Phase.TRUMP_NAMING
DOUBLING: Final = Phase.DOUBLING
PLAYING: Final = Phase.PLAYING
OVER: Final = Phase.OVER

#: Contract kinds (0 while there is none).
HOKUM: Final = 1
SUN: Final = 2

#: The place after the dealer (P1 = 0) that receives each of the first 20 cards (R3.2).
_FIRST_DEAL: Final = (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3)

MUTABLE: Final = (
    "_phase", "_to_act", "_hands", "_turn", "_hokum", "_queue", "_caller", "_ashkal",
    "_kind", "_trump", "_declarer", "_kawesh", "_full", "_level", "_locked", "_doubler",
    "_step", "_trick_no", "_leader", "_trick", "_win_seat", "_win_card", "_ekka", "_gone",
    "_won", "_tricks", "_declared", "_last_team", "_bid_length",
)  # fmt: skip
#: The fields a card play can change: plays are most actions, so their snapshot is smaller.
PLAY_MUTABLE: Final = (
    "_phase", "_to_act", "_hands", "_trick", "_win_seat", "_win_card", "_ekka", "_gone",
    "_won", "_tricks", "_trick_no", "_leader", "_last_team",
)  # fmt: skip

Snapshot = tuple[object, ...]


def _accessors(
    names: tuple[str, ...],
) -> tuple[Callable[[HandState], Snapshot], Callable[[HandState, Snapshot], None]]:
    """A function that reads the fields ``names`` of a hand into a tuple, and one that writes
    such a tuple back.

    They are compiled from the names, as :mod:`dataclasses` compiles an ``__init__``, so that
    each field is a plain attribute access of the hot path: ``operator.attrgetter`` and
    ``setattr`` look every name up in the class hierarchy, which is slower and varies with
    how the interpreter's type cache happens to be laid out.
    """
    fields = "".join(f"hand.{name}, " for name in names)
    source = (
        f"def read(hand):\n    return ({fields})\ndef write(hand, saved):\n    {fields}= saved\n"
    )
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<accessors of {len(names)} hand fields>", "exec"), namespace)
    return namespace["read"], namespace["write"]


snapshot, restore = _accessors(MUTABLE)
play_snapshot, play_restore = _accessors(PLAY_MUTABLE)


class HandState:
    """The fields of a hand and the few operations every part of the rules needs."""

    __slots__ = (
        "_actions", "_deck", "_dealer", "_exposed", "_first5", "_legal", "_legal_mask",
        "_order", "_p1", "_readings", "_rules", "_score_before", "_stack", *MUTABLE,
    )  # fmt: skip

    # Fixed for the whole hand.
    _deck: tuple[int, ...]
    _dealer: int
    _rules: Rules
    _score_before: tuple[int, int]
    _p1: int
    _order: tuple[int, ...]
    _first5: tuple[int, int, int, int]
    _exposed: int
    # Bookkeeping: history, undo snapshots, caches.
    _actions: list[Action]
    _stack: list[tuple[object, ...]]
    _legal: tuple[Action, ...] | None
    _legal_mask: int
    _readings: list[tuple[Project, ...]] | None
    # Changed by actions (MUTABLE).
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

    def _setup(
        self,
        indices: tuple[int, ...],
        dealer: Seat | str,
        rules: Rules,
        score_before: tuple[int, int],
    ) -> None:
        self._deck = indices
        self._dealer = int(Seat.coerce(dealer, "dealer"))
        self._rules = rules
        self._score_before = score_before
        self._p1 = p1 = (self._dealer + 1) & 3
        self._order = tuple((p1 + i) & 3 for i in range(4))
        first5 = [0, 0, 0, 0]
        for place, card in zip(_FIRST_DEAL, indices, strict=False):
            first5[(p1 + place) & 3] |= 1 << card
        self._first5 = (first5[0], first5[1], first5[2], first5[3])
        self._exposed = indices[20]
        self._readings = None
        self._actions = []
        self._stack = []
        self._legal = None
        self._legal_mask = -1
        self._phase = R1
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

    def _push(self, action: Action) -> None:
        self._stack.append(snapshot(self))
        self._actions.append(action)
        self._legal = None
        self._legal_mask = -1

    def _fail(self, action: Action, code: ReasonCode, **params: str) -> IllegalActionError:
        """The error of ``action`` breaking the rule ``code`` (see :mod:`baloot.core.reasons`)."""
        return IllegalActionError.of(code, str(action), **params)

    def _annul(self) -> None:
        self._phase = OVER
        self._to_act = -1
