"""The re-dealer: one public history over other hidden cards, the deck that deals them.

A bot that searches needs many hands that agree with what its seat has seen and differ in
the cards it has not. Replaying the whole history for each one costs as much as the search
it feeds; :class:`Template` replays it once and re-deals the result: it gives a copy of the
hand the other cards, rewrites the few fields that hold cards (the hands, the deck, what was
declared) in the hand and in each undo snapshot, and checks again, with the engine's own
check, every declaration that now names other cards. The plays need no new check when the
cards given are those the history allows (:mod:`baloot.core.knowledge`): that is the caller's
part.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from baloot.core._state import _FIRST_DEAL, MUTABLE, PLAY_MUTABLE, HandState, _accessors
from baloot.core.actions import Action, Verb
from baloot.core.cards import FULL_MASK
from baloot.core.hand import Hand
from baloot.core.projects import Project, ProjectKind, _candidates

Masks = tuple[int, int, int, int]

_HANDS: Final = MUTABLE.index("_hands")
_FULL: Final = MUTABLE.index("_full")
_DECLARED: Final = MUTABLE.index("_declared")
_KIND: Final = MUTABLE.index("_kind")
_PLAY_HANDS: Final = PLAY_MUTABLE.index("_hands")
_NONE_DECLARED: Final[tuple[tuple[Project, ...] | None, ...]] = (None, None, None, None)
#: The kinds of undo snapshot: of a card play, of an action of the bidding (before the deal
#: is complete), of any other action after it.
_PLAY: Final = 0
_BIDDING: Final = 1
_AFTER: Final = 2
#: One snapshot's plan: its kind, the cards each seat still held (as masks to keep), how
#: many declarations came before, and the snapshot's fields around those that hold cards.
_Step = tuple[int, tuple[int, int, int, int], int, tuple[tuple[object, ...], ...]]
#: For each place after the dealer, where the cards of its first five lie in the deck (R3.2).
_PLACES: Final = tuple(
    tuple(i for i, p in enumerate(_FIRST_DEAL) if p == place) for place in range(4)
)
#: For each suit and byte of a suit's bits, the card indices, lowest first.
_BYTE_CARDS: Final = tuple(
    tuple(tuple(suit * 8 + r for r in range(8) if byte >> r & 1) for byte in range(256))
    for suit in range(4)
)
#: Read and write every field of a hand at once (a copy without its lists).
_read, _write = _accessors(HandState.__slots__)


def deck_for(
    dealer: int, first5: Sequence[int], exposed: int, rest: Sequence[int], taker: int = -1
) -> tuple[int, ...]:
    """The deck (card indices, top first) that deals each seat ``first5[seat]`` (R3.2),
    turns up ``exposed``, then deals ``rest``: with a ``taker`` (the seat that takes the
    exposed card), each seat's cards of the completion ``rest[seat]`` (2 for the taker, 3
    for the others, R7.2); without, the cards left in the stock, in their order.

    >>> from baloot.core.cards import CARDS, CardSet
    >>> hands = [CardSet.parse(t).mask for t in ("As Ks Qs Js Ts", "9s 8s 7s Ah Kh",
    ...     "Qh Jh Th 9h 8h", "7h Ad Kd Qd Jd")]
    >>> rest = [CardSet.parse(t).mask for t in ("Td 9d 8d", "7d Ac Kc", "Qc Jc", "Tc 9c 8c")]
    >>> deck = deck_for(3, hands, CardSet.parse("7c").mask.bit_length() - 1, rest, taker=2)
    >>> h = Hand(tuple(CARDS[i] for i in deck), dealer="E")
    >>> str(h.hand("N")), h.exposed
    ('As Ks Qs Js Ts', Card('7c'))
    """
    p1 = (dealer + 1) & 3
    deck = [exposed] * 21
    for place in range(4):
        for position, card in zip(_PLACES[place], cards_of(first5[(p1 + place) & 3]), strict=True):
            deck[position] = card
    if taker < 0:
        deck.extend(rest)
    else:
        for place in range(4):
            deck.extend(cards_of(rest[(p1 + place) & 3]))
    return tuple(deck)


def cards_of(mask: int) -> tuple[int, ...]:
    """The card indices of ``mask``, lowest first.

    >>> cards_of(0b1011 << 8)
    (8, 9, 11)
    """
    return (
        _BYTE_CARDS[0][mask & 0xFF]
        + _BYTE_CARDS[1][mask >> 8 & 0xFF]
        + _BYTE_CARDS[2][mask >> 16 & 0xFF]
        + _BYTE_CARDS[3][mask >> 24 & 0xFF]
    )


@cache
def project_shapes(sun: bool, split: bool) -> dict[ProjectKind, tuple[int, ...]]:
    """Every set of cards that is a project on its own (R10.2: a run of three or more in a
    suit, four of a rank), as masks by kind, in a Sun contract or not, with the flag
    ``long_sequence_split``: the sets a hand must contain to declare a kind.

    >>> shapes = project_shapes(sun=True, split=False)
    >>> [len(shapes[kind]) for kind in ProjectKind]
    [24, 20, 44, 1]
    """
    shapes: dict[ProjectKind, list[int]] = {kind: [] for kind in ProjectKind}
    for project, _ in _candidates(FULL_MASK, sun, split):
        shapes[project.kind].append(project.mask)
    return {kind: tuple(masks) for kind, masks in shapes.items()}


class Template:
    """A hand after the bidding whose history can be given other hidden cards.

    Built once from a hand (every action of it checked by the engine); :meth:`rehand` then
    gives a copy the cards of another deal, in a few microseconds per undo snapshot. Here W
    and E trade their cards after N's Sun and first card:

    >>> from baloot.core.cards import CARDS
    >>> from baloot.core.seats import SEATS
    >>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
    >>> for action in ("N sun", "N play As"):
    ...     _ = hand.apply(action)
    >>> deck = list(hand.deck)
    >>> for w, e in zip((3, 4, 5, 14, 15, 23, 24, 25), (9, 10, 11, 18, 19, 29, 30, 31)):
    ...     deck[w], deck[e] = deck[e], deck[w]
    >>> traded = Hand(deck, dealer="E")
    >>> first5 = tuple(traded.hand(s).mask for s in SEATS)
    >>> _ = traded.apply("N sun")
    >>> full = tuple(traded.full_hand(s).mask for s in SEATS)
    >>> world = Template(hand).rehand(tuple(c.index for c in deck), full, first5)
    >>> world.actions == hand.actions, world.hand("W") == hand.hand("E")
    (True, True)
    """

    __slots__ = ("_declares", "_hand", "_plan", "_played")

    def __init__(self, hand: Hand) -> None:
        self._hand = hand.copy()
        plan: list[_Step] = []
        played = [0, 0, 0, 0]
        declares: list[Action] = []
        for action, saved in zip(hand._actions, hand._stack, strict=True):
            keep = (~played[0], ~played[1], ~played[2], ~played[3])
            pieces: tuple[tuple[object, ...], ...]
            if len(saved) == len(PLAY_MUTABLE):
                pieces = (saved[:_PLAY_HANDS], saved[_PLAY_HANDS + 1 :])
                plan.append((_PLAY, keep, len(declares), pieces))
            elif not saved[_KIND]:
                pieces = (saved[:_HANDS], saved[_HANDS + 1 :])
                plan.append((_BIDDING, keep, len(declares), pieces))
            else:
                pieces = (
                    saved[:_HANDS],
                    saved[_HANDS + 1 : _FULL],
                    saved[_FULL + 1 : _DECLARED],
                    saved[_DECLARED + 1 :],
                )
                plan.append((_AFTER, keep, len(declares), pieces))
            if action.card is not None:
                played[int(action.seat)] |= action.card.bit
            elif action.verb is Verb.DECLARE:
                declares.append(action)
        self._plan = tuple(plan)
        self._played: Masks = (played[0], played[1], played[2], played[3])
        self._declares = tuple(declares)

    def rehand(self, deck: tuple[int, ...], full: Masks, first5: Masks) -> Hand:
        """A copy of the hand dealt ``deck``, which deals each seat ``full[seat]`` (its eight
        cards, those it played included; zeros before the contract) and first ``first5``.

        Raises :class:`~baloot.core.errors.IllegalActionError` when a declaration of the
        history is not legal with these cards (a project not held, or lower than one declared
        before it).
        """
        template = self._hand
        world = Hand.__new__(Hand)
        _write(world, _read(template))
        world._actions = list(template._actions)
        world._deck = deck
        world._first5 = first5
        world._readings = None
        world._legal = None
        world._legal_mask = -1
        played = self._played
        if template._kind:
            world._full = full
            world._hands = (
                full[0] & ~played[0],
                full[1] & ~played[1],
                full[2] & ~played[2],
                full[3] & ~played[3],
            )
        else:
            world._hands = first5
        progress = self._declarations(world) if self._declares else [_NONE_DECLARED]
        f0, f1, f2, f3 = full
        stack: list[tuple[object, ...]] = []
        for kind, keep, declared, pieces in self._plan:
            if kind == _PLAY:
                hands = (f0 & keep[0], f1 & keep[1], f2 & keep[2], f3 & keep[3])
                stack.append(pieces[0] + (hands,) + pieces[1])
            elif kind == _BIDDING:
                stack.append(pieces[0] + (first5,) + pieces[1])
            else:
                hands = (f0 & keep[0], f1 & keep[1], f2 & keep[2], f3 & keep[3])
                stack.append(
                    pieces[0]
                    + (hands,)
                    + pieces[1]
                    + (full,)
                    + pieces[2]
                    + (progress[declared],)
                    + pieces[3]
                )
        world._stack = stack
        return world

    def _declarations(self, world: Hand) -> list[tuple[tuple[Project, ...] | None, ...]]:
        """Check each declaration of the history again in ``world``, as the engine checked it
        when it was made (the first trick, the projects held, none lower than one declared
        before), and set what each seat declared; return what was declared before each."""
        trick_no, trick = world._trick_no, world._trick
        world._trick_no, world._trick = 0, ()
        world._declared = _NONE_DECLARED
        progress = [world._declared]
        try:
            for action in self._declares:
                projects = world._check_declaration(action)
                declared = list(world._declared)
                declared[int(action.seat)] = projects
                world._declared = tuple(declared)
                progress.append(world._declared)
        finally:
            world._trick_no, world._trick = trick_no, trick
        return progress
