"""What the public history of a hand proves about each seat's hidden cards.

The rules reveal more than the cards on the table: a seat that did not follow a suit holds
none of it; one that did not over-trump holds no trump above the card it had to beat; the
taker holds the exposed card until it plays it; a team that showed its projects (R10.5)
holds their cards; a seat that declared holds projects of the kinds it named. Every bot needs
these facts, and a bot that derives them itself can get a variant flag wrong, so the engine
states them once: :meth:`Hand.knowledge <baloot.core.hand.Hand.knowledge>` and the ``known``
key of the seat view.

The facts about plays are not a second statement of R9: for each card a seat played they are
read off :func:`~baloot.core.play_rules.play_mask`, the one statement of the rules of play, asked
about the public position the engine itself saw (the trick, who was winning it, the Ekka word,
the lock, the flags).

>>> from baloot.core.hand import Hand
>>> from baloot.core.cards import CARDS
>>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
>>> for call in ("N sun", "N play As", "W play Js", "S play 8s", "E play Kh"):
...     _ = hand.apply(call)
>>> hand.knowledge("E").void, hand.knowledge("E").holds
((<Suit.SPADES: 0>,), CardSet(''))
>>> hand.knowledge("E").to_json()
{'void': ['s'], 'no_trump': False, 'trump_below': None, 'holds': [], 'kinds': []}
>>> hand.exposed, hand.taker, hand.knowledge("N").holds
(Card('Td'), <Seat.N: 0>, CardSet('Td'))
>>> str(hand.knowledge("E").excluded)  # the spades still out, and the taker's exposed card
'Ks Qs Ts 9s 7s Td'
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from baloot.core import _lookup as T
from baloot.core._bidding import _LOW_RANKS
from baloot.core._outcome import Results
from baloot.core._state import HOKUM, MUTABLE, PLAY_MUTABLE
from baloot.core.actions import Action, Verb
from baloot.core.cards import CARDS, FULL_MASK, Card, CardSet, Suit
from baloot.core.play_rules import play_mask
from baloot.core.projects import ProjectKind
from baloot.core.seats import SEATS, Seat

_SUITS: Final = tuple(Suit)
#: The suits of each 4-bit set of suits.
_VOIDS: Final = tuple(tuple(_SUITS[x] for x in range(4) if bits >> x & 1) for bits in range(16))
_SUIT_MASKS: Final = T.SUIT_MASKS
#: For each mask of the trumps above a card, that card: the trump a seat was bound to beat.
_BOUND: Final = {T.TRUMP_ABOVE[c]: c for c in range(32) if T.TRUMP_ABOVE[c]}
#: A Kawesh (R6) proves the caller's first five are 7s, 8s and 9s: it holds no other rank.
_NOT_KAWESH: Final = FULL_MASK & ~_LOW_RANKS


def _places(names: tuple[str, ...]) -> tuple[int, int, int, int]:
    """Where the trick, its winner, its winning card and the Ekka word are in a snapshot."""
    return (
        names.index("_trick"),
        names.index("_win_seat"),
        names.index("_win_card"),
        names.index("_ekka"),
    )


_PLAY_PLACES: Final = _places(PLAY_MUTABLE)
_FULL_PLACES: Final = _places(MUTABLE)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the public history proves about one seat's hidden cards.

    ``excluded``: the unplayed cards it cannot hold; ``void``: the suits it cannot hold at all
    (it failed to follow one, or could not trump, or led a trump under a lock); ``no_trump``:
    the trump suit is among them; ``trump_below``: the lowest trump it was bound to beat and
    did not, so it holds no trump above it; ``holds``: the hidden cards it surely holds (the
    exposed card with its taker until played, the unplayed cards of its shown projects);
    ``kinds``: the kinds of project it declared that are not shown.
    """

    seat: Seat
    excluded: CardSet
    void: tuple[Suit, ...]
    no_trump: bool
    trump_below: Card | None
    holds: CardSet
    kinds: tuple[ProjectKind, ...]

    def to_json(self) -> dict[str, Any]:
        """The seat's entry of the view's ``known`` object (``docs/seat-view.md``)."""
        return {
            "void": [suit.letter for suit in self.void],
            "no_trump": self.no_trump,
            "trump_below": None if self.trump_below is None else self.trump_below.text,
            "holds": [card.text for card in self.holds],
            "kinds": [kind.word for kind in self.kinds],
        }


def excluded_by_play(
    card: int,
    trick: tuple[int, ...],
    opponent_winning: bool,
    win_card: int,
    ekka: bool,
    trump: int,
    locked: bool,
    partner_led_must_trump: bool,
    must_undertrump: bool,
) -> int:
    """The cards a seat cannot have held when it played ``card`` on ``trick`` (arguments as
    :func:`~baloot.core.play_rules.play_mask`), as a mask.

    A card x is excluded when ``play_mask`` refuses ``card`` from the hand {card, x}: holding
    x would have forced another card. Pairs are enough, both ways, because every duty of R9
    reads "if you hold a card of class K, play from class K'" (follow the suit led, trump,
    over-trump, do not lead trumps under a lock), so ``play_mask`` is closed under taking
    cards away: if ``card`` is allowed from a hand it is allowed from every part of that hand
    that keeps it, so a held x never excludes itself (sound). And a duty that refuses
    ``card`` is set off by one card x of K, which refuses it already from {card, x}, so a
    hand that holds no excluded card allows ``card`` (exact). The same closure lets one
    question clear many cards at once: if ``card`` is allowed from ``card`` plus a whole
    suit, no card of that suit is excluded; only a suit that fails is asked card by card.

    >>> from baloot.core.cards import Card
    >>> led, played = Card.parse("Kh").index, Card.parse("7s").index
    >>> str(CardSet(excluded_by_play(played, (led,), True, led, False, -1, False, True, False)))
    'Ah Kh Qh Jh Th 9h 8h 7h'
    """
    bit = 1 << card

    def allowed(others: int) -> bool:
        mask = play_mask(
            bit | others,
            trick,
            opponent_winning,
            win_card,
            ekka,
            trump,
            locked,
            partner_led_must_trump,
            must_undertrump,
        )
        return bool(mask & bit)

    if allowed(FULL_MASK & ~bit):
        return 0
    found = 0
    for suit_mask in _SUIT_MASKS:
        rest = suit_mask & ~bit
        if allowed(rest):
            continue
        while rest:
            low = rest & -rest
            rest ^= low
            if not allowed(low):
                found |= low
    return found


class _Tally(NamedTuple):
    """What the actions up to some point prove, before the shown projects and the exposed
    card are added: per seat the cards excluded, the suits excluded whole, the lowest trump
    bound to be beaten (-1: none) and the kinds declared; and the cards played."""

    excluded: tuple[int, int, int, int] = (0, 0, 0, 0)
    void: tuple[int, int, int, int] = (0, 0, 0, 0)
    below: tuple[int, int, int, int] = (-1, -1, -1, -1)
    declared: tuple[tuple[ProjectKind, ...], ...] = ((), (), (), ())
    played: int = 0


#: What the history up to an action proves, by the undo snapshot of that action, with that
#: snapshot, the action, the tally and (once asked) every seat's knowledge. The server builds
#: a view for every seat after every action: the first view reads one action more than the
#: last, the others read nothing. A snapshot is made by the ``apply`` of its action and
#: shared only by copies of the hand made after it (same deck, same history), so while it is
#: held here it stands for one history.
_MEMORY: OrderedDict[int, _Memory] = OrderedDict()
_MEMORY_KEPT: Final = 4096


@dataclass(slots=True)
class _Memory:
    snapshot: object
    action: Action
    tally: _Tally
    known: tuple[Knowledge, Knowledge, Knowledge, Knowledge] | None = None


def every_seat(hand: Results) -> tuple[Knowledge, Knowledge, Knowledge, Knowledge]:
    """What the public history of ``hand`` proves about each seat's hidden cards, by seat.

    Each play is read with the public position that the engine saw before it (the snapshot
    it keeps for undoing that play), never with a hidden card. What was read is remembered,
    so that the next call, one action later, reads one action.
    """
    actions = hand._actions
    stack = hand._stack
    start = len(actions)
    tally = _Tally()
    while start:
        saved = stack[start - 1]
        found = _MEMORY.get(id(saved))
        if found is not None and found.snapshot is saved and found.action is actions[start - 1]:
            _MEMORY.move_to_end(id(saved))
            if start == len(actions):
                if found.known is None:
                    found.known = _knowledge(hand, found.tally)
                return found.known
            tally = found.tally
            break
        start -= 1
    if not actions:
        return _knowledge(hand, tally)
    memory = _Memory(stack[-1], actions[-1], _count(hand, tally, start))
    memory.known = _knowledge(hand, memory.tally)
    _MEMORY[id(stack[-1])] = memory
    if len(_MEMORY) > _MEMORY_KEPT:
        _MEMORY.popitem(last=False)
    return memory.known


def _count(hand: Results, tally: _Tally, start: int) -> _Tally:
    """``tally`` with the actions of ``hand`` from ``start`` on counted."""
    rules = hand._rules
    trump = hand._trump if hand._kind == HOKUM else -1
    locked = hand._locked
    must = rules.partner_led_must_trump
    under = rules.must_undertrump
    stack = hand._stack
    actions = hand._actions
    excluded = list(tally.excluded)
    void = list(tally.void)
    below = list(tally.below)
    declared = list(tally.declared)
    played = tally.played
    for i in range(start, len(actions)):
        action = actions[i]
        card = action.card
        if card is None:
            if action.verb is Verb.DECLARE:
                s = int(action.seat)
                declared[s] = (*declared[s], *(claim.kind for claim in action.claims))
            elif action.verb is Verb.KAWESH:
                excluded[int(action.seat)] |= _NOT_KAWESH
            continue
        s = int(action.seat)
        c = card.index
        played |= 1 << c
        saved = stack[i]
        at = _PLAY_PLACES if len(saved) == len(PLAY_MUTABLE) else _FULL_PLACES
        trick = saved[at[0]]
        win_seat = saved[at[1]]
        win_card = saved[at[2]]
        assert isinstance(trick, tuple) and isinstance(win_seat, int)
        assert isinstance(win_card, int)
        opponent_winning = bool((win_seat ^ s) & 1)
        ekka = bool(saved[at[3]])
        # Most plays are allowed whatever else the hand held: nothing to learn.
        rules_of_play = (trick, opponent_winning, win_card, ekka, trump, locked, must, under)
        if play_mask(FULL_MASK, *rules_of_play) >> c & 1:
            continue
        ex = excluded_by_play(c, *rules_of_play)
        if not ex:
            continue
        excluded[s] |= ex
        for suit, suit_mask in enumerate(_SUIT_MASKS):
            if ex & suit_mask == suit_mask:
                void[s] |= 1 << suit
        if trump >= 0:
            trumps = ex & _SUIT_MASKS[trump]
            bound = _BOUND.get(trumps, -1)
            if bound >= 0 and (
                below[s] < 0 or trumps.bit_count() > T.TRUMP_ABOVE[below[s]].bit_count()
            ):
                below[s] = bound
    return _Tally(
        (excluded[0], excluded[1], excluded[2], excluded[3]),
        (void[0], void[1], void[2], void[3]),
        (below[0], below[1], below[2], below[3]),
        tuple(declared),
        played,
    )


def _knowledge(hand: Results, tally: _Tally) -> tuple[Knowledge, Knowledge, Knowledge, Knowledge]:
    """The knowledge of every seat: ``tally`` with the exposed card and the shown projects."""
    played = tally.played
    holds = [0, 0, 0, 0]
    taker = hand._declarer
    if taker >= 0 and not played >> hand._exposed & 1:
        holds[taker] |= 1 << hand._exposed
    shown = hand.shown_projects() if hand._trick_no else ()
    for project in shown:
        holds[int(project.seat)] |= project.project.mask & ~played
    shown_team = int(shown[0].seat) & 1 if shown else -1
    everyone = holds[0] | holds[1] | holds[2] | holds[3]
    trump = hand._trump if hand._kind == HOKUM else -1
    excluded, void, below, declared = tally.excluded, tally.void, tally.below, tally.declared
    known: list[Knowledge] = []
    for s in range(4):
        key = (
            s,
            (excluded[s] | everyone) & ~played & ~holds[s],
            void[s],
            trump >= 0 and bool(void[s] >> trump & 1),
            below[s],
            holds[s],
            () if s & 1 == shown_team else declared[s],
        )
        found = _KNOWN.get(key)
        if found is None:
            if len(_KNOWN) >= _KNOWN_KEPT:
                _KNOWN.clear()
            found = _KNOWN[key] = Knowledge(
                SEATS[s],
                CardSet(key[1]),
                _VOIDS[void[s]],
                key[3],
                CARDS[below[s]] if below[s] >= 0 else None,
                CardSet(holds[s]),
                key[6],
            )
        known.append(found)
    return (known[0], known[1], known[2], known[3])


#: Knowledge values by what they are made of: most actions leave most seats' knowledge as it
#: was, and a value made once is shared.
_KNOWN: dict[tuple[object, ...], Knowledge] = {}
_KNOWN_KEPT: Final = 1 << 14
