"""One fixed action space for every seat: each action of the record notation has an index.

A learning library wants a fixed set of discrete actions and a mask of the legal ones; the
engine speaks :class:`~baloot.core.actions.Action`. This module is the bijection between the
two, seat by seat: index ``i`` of seat ``s`` is one Action, and every Action that
:meth:`Hand.legal_actions <baloot.core.hand.Hand.legal_actions>` can list is one index. The
legal actions themselves always come from the engine; nothing here knows a rule.

The ranges (``docs/rl.md`` lists them too):

====== ===================================================================
0–4    ``pass``, ``hokum``, ``sun``, ``ashkal``, ``kawesh``
5–8    ``trump s``, ``trump h``, ``trump d``, ``trump c``
9–15   ``double`` (Sun), ``double open``, ``double locked``, ``triple``,
       ``four open``, ``four locked``, ``gahwa``
16–19  ``declare`` one project: ``sira``, ``fifty``, ``hundred``, ``four-hundred``
20–35  ``declare`` two projects: (first, second) kinds, first × 4 + second
36–67  ``play`` card *i* (card order of :data:`~baloot.core.cards.CARDS`)
68–99  ``play`` card *i* with ``ekka``
====== ===================================================================

The Baloot word (R11.3) is no choice: the engine credits Baloot from the cards, and the
environments announce it as a player would (:meth:`Hand.announced
<baloot.core.hand.Hand.announced>`); :func:`index_of` reads a play with the word as the
same play.

>>> from baloot.core.actions import Action
>>> index_of(Action.parse("W double locked")), str(action_at(11, Seat.W))
(11, 'W double locked')
>>> index_of(Action.parse("S play As ekka baloot")), str(action_at(68, Seat.S))
(68, 'S play As ekka')
>>> [str(action_at(i, Seat.N)) for i in (0, 7, 21, 99)]
['N pass', 'N trump d', 'N declare sira fifty', 'N play 7c ekka']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from itertools import product
from typing import Final

from baloot.core.actions import Action, Claim, Verb
from baloot.core.cards import CARDS, Suit
from baloot.core.projects import ProjectKind
from baloot.core.seats import SEATS, Seat

#: Where each group of actions begins.
CALLS: Final = 0
TRUMPS: Final = 5
DOUBLING: Final = 9
DECLARE_ONE: Final = 16
DECLARE_TWO: Final = 20
PLAYS: Final = 36
EKKA_PLAYS: Final = 68
#: How many actions there are: the size of every mask.
NUM_ACTIONS: Final = 100


def _actions_of(seat: Seat) -> tuple[Action, ...]:
    """The 100 actions of ``seat``, in index order."""
    calls = [
        Action(seat, verb) for verb in (Verb.PASS, Verb.HOKUM, Verb.SUN, Verb.ASHKAL, Verb.KAWESH)
    ]
    trumps = [Action(seat, Verb.TRUMP, suit=suit) for suit in Suit]
    doubling = [
        Action(seat, Verb.DOUBLE),
        Action(seat, Verb.DOUBLE, locked=False),
        Action(seat, Verb.DOUBLE, locked=True),
        Action(seat, Verb.TRIPLE),
        Action(seat, Verb.FOUR, locked=False),
        Action(seat, Verb.FOUR, locked=True),
        Action(seat, Verb.GAHWA),
    ]
    one = [Action(seat, Verb.DECLARE, claims=(Claim(kind),)) for kind in ProjectKind]
    two = [
        Action(seat, Verb.DECLARE, claims=(Claim(first), Claim(second)))
        for first, second in product(ProjectKind, repeat=2)
    ]
    plays = [Action(seat, Verb.PLAY, card=card) for card in CARDS]
    ekka = [Action(seat, Verb.PLAY, card=card, ekka=True) for card in CARDS]
    return (*calls, *trumps, *doubling, *one, *two, *plays, *ekka)


#: For each seat (by index), its actions in index order.
ACTIONS: Final = tuple(_actions_of(seat) for seat in SEATS)
_INDEX: Final = {action: i for actions in ACTIONS for i, action in enumerate(actions)}
_BY_ID: dict[int, tuple[Action, int]] = {}
_BY_ID_KEPT: Final = 4096


def action_at(index: int, seat: Seat) -> Action:
    """The action of ``seat`` at ``index``; a ValueError for an index out of range."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"an action index is 0–{NUM_ACTIONS - 1}, not {index}")
    return ACTIONS[seat][index]


def index_of(action: Action) -> int:
    """The index of ``action`` (a play's Baloot word left out); a ValueError for an action
    outside the space (a declaration naming its cards)."""
    card = action.card
    if card is not None:  # a play: most actions, and their index is arithmetic
        return (EKKA_PLAYS if action.ekka else PLAYS) + card.index
    # The engine lists the same prebuilt calls again and again: found by identity, they skip
    # hashing and comparing their fields. The entry holds the action, so its id is not reused.
    known = _BY_ID.get(id(action))
    if known is not None and known[0] is action:
        return known[1]
    found = _INDEX.get(dataclasses.replace(action, baloot=False) if action.baloot else action)
    if found is None:
        raise ValueError(f"{action} has no index in the action space")
    if len(_BY_ID) >= _BY_ID_KEPT:
        _BY_ID.clear()
    _BY_ID[id(action)] = (action, found)
    return found


def indices(actions: Iterable[Action]) -> list[int]:
    """The indices of ``actions``, in ascending order (OpenSpiel's legal actions)."""
    return sorted(index_of(action) for action in actions)
