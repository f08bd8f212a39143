"""An action the hand has checked: the verdict of :meth:`Hand.check`, not checked again.

A caller that checks an action before applying it (a table says why a human's card is
refused, then applies it) should not pay for the rules twice, as python-chess's ``push``
trusts the move that ``push_san`` parsed. :meth:`Hand.check` returns a :class:`Checked`; given
back to :meth:`Hand.apply` it is applied as it was checked, provided the hand has not moved
since: from another hand, or after an action applied or taken back, it is checked again like
any other action. Only ``check`` makes one (its stamp is the hand's own), so an action from a
bot, a record or a replay is always checked by ``apply`` itself.

>>> from baloot.core.cards import CARDS
>>> from baloot.core.hand import Hand
>>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
>>> checked = hand.check("N sun")
>>> checked
Checked(Action('N sun'))
>>> hand.apply(checked), hand.phase.value
(Action('N sun'), 'playing')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from baloot.core.actions import Action


@dataclass(frozen=True, slots=True)
class Checked:
    """``action``, legal in the position of the hand that checked it.

    The rest is the hand's stamp, private: the hand (by identity), how many actions it had
    and the undo snapshot on top (an action taken back and another applied leave a new one),
    and what the check found for applying it (a play's card, a declaration's projects).
    """

    action: Action
    _hand: object = field(repr=False, compare=False)
    _depth: int = field(repr=False, compare=False)
    _top: object = field(repr=False, compare=False)
    _found: object = field(repr=False, compare=False)

    def __repr__(self) -> str:
        return f"Checked({self.action!r})"

    def __str__(self) -> str:
        return str(self.action)


def stamp(action: Action, hand: object, stack: Sequence[object], found: object) -> Checked:
    """``action`` as checked by ``hand``, whose undo snapshots are ``stack``, finding ``found``."""
    return Checked(action, hand, len(stack), stack[-1] if stack else None, found)


def stamped(checked: Checked, hand: object, stack: Sequence[object]) -> bool:
    """Whether ``checked`` was checked by ``hand`` in its position now (``stack`` its undo
    snapshots): not another hand's, nor from before an action applied or taken back."""
    return (
        checked._hand is hand
        and checked._depth == len(stack)
        and checked._top is (stack[-1] if stack else None)
    )
