"""Uniform deals of the cards one view has not seen, for :mod:`baloot.bots.worlds`: the
deals counted class by class of the slots that may hold each card (weighing), one drawn in
proportion, and deals planted with the projects a seat declared.

Kept apart from the worlds themselves (a deal checked, built and replayed into a hand):
here are only counts and masks, so that what makes the draws uniform reads on its own.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from math import factorial
from typing import Final, Protocol

from baloot.core.cards import CARDS
from baloot.core.knowledge import Knowledge
from baloot.core.projects import ProjectKind
from baloot.core.redeal import Masks, cards_of, project_shapes
from baloot.core.seats import SEATS
from baloot.view.seat_view import SeatView

#: The slot of the cards still in the stock, in the bidding: dealt to nobody yet.
STOCK: Final = 4


class NoDeal(ValueError):
    """No deal of the unseen cards fits the view; the message says why in one line."""


class Unseen(Protocol):
    """What a view fixes for its deals: the seat (-1: a spectator), the others, the cards
    played and unseen, what the history proves of each seat, and the cards a seat whose
    team showed its projects cannot hold (:meth:`better`)."""

    view: SeatView
    me: int
    others: tuple[int, ...]
    contracted: bool
    played: Masks
    pool: int
    known: dict[int, Knowledge]

    def better(self, seat: int, cards: int) -> int: ...


class Deal:
    """Uniform deals of the unseen cards under counts, sure cards and exclusions.

    The cards free to deal fall into classes by the set of slots (seats, and the stock
    before the contract) that may hold them. The number of deals that fill every slot to its
    count is a sum, over how many cards of each class go to each of its slots, of products
    of multinomials; counting it class by class and drawing each class's split in
    proportion to the deals it leaves, then shuffling the class's cards into the split,
    draws every deal with the same probability. Cards may be forced into a slot first
    (a planted project, see :class:`Plants`): the count depends only on how many cards are
    left in each class and room in each slot, so it is remembered by those.
    """

    def __init__(
        self,
        worlds: Unseen,
        sure: list[int],
        slots: tuple[int, ...],
        caps: tuple[int, ...],
        classes: list[tuple[tuple[int, ...], list[int]]],
    ) -> None:
        self.worlds = worlds
        self.sure = sure
        self.slots = slots
        self.caps = caps
        self.classes = classes
        self.sizes = tuple(len(cards) for _, cards in classes)
        self.class_of = {card: k for k, (_, cards) in enumerate(classes) for card in cards}
        self._choices: dict[tuple[int, tuple[int, ...], tuple[int, ...]], list[_Choice]] = {}
        self._starts: dict[
            _Forced, tuple[list[int], tuple[int, ...], tuple[int, ...], list[list[int]]]
        ] = {}

    @classmethod
    def of(cls, worlds: Unseen) -> Deal:
        view = worlds.view
        slots = worlds.others if worlds.contracted else (*worlds.others, STOCK)
        sure = [0, 0, 0, 0]
        for s in worlds.others:
            sure[s] = worlds.known[s].holds.mask
        free = worlds.pool & ~(sure[0] | sure[1] | sure[2] | sure[3])
        caps: list[int] = []
        for s in slots:
            if s == STOCK:
                dealt = sum(view.held[x] for x in worlds.others)
                caps.append(worlds.pool.bit_count() - dealt)
            else:
                caps.append(view.held[s] - sure[s].bit_count())
        if min(caps) < 0 or sum(caps) != free.bit_count():
            raise NoDeal("the view's counts do not add up")
        excluded = {
            s: worlds.known[s].excluded.mask | worlds.better(s, free) for s in worlds.others
        }
        by_class: dict[tuple[int, ...], list[int]] = {}
        for card in range(32):
            if free >> card & 1:
                allowed = tuple(
                    k for k, s in enumerate(slots) if s == STOCK or not excluded[s] >> card & 1
                )
                if not allowed:
                    raise NoDeal(f"no seat may hold {CARDS[card].text}")
                by_class.setdefault(allowed, []).append(card)
        classes = sorted(by_class.items(), key=lambda item: (len(item[0]), item[0]))
        deal = cls(worlds, sure, slots, tuple(caps), classes)
        if not deal.count(deal.sizes, deal.caps):
            raise NoDeal("no deal of the unseen cards fits the view's counts")
        return deal

    def slot_of(self, seat: int) -> int:
        return self.slots.index(seat)

    def count(self, sizes: tuple[int, ...], caps: tuple[int, ...]) -> int:
        """How many deals give classes of ``sizes`` cards on exactly ``caps`` cards by slot."""
        choices = self._choice_list(0, sizes, caps)
        return choices[-1][0] if choices else 0

    def draw(self, rng: random.Random, forced: _Forced = ()) -> tuple[list[int], list[int] | None]:
        """A uniform deal among those that give each slot the free cards ``forced`` gives it:
        the hidden cards by seat (this seat's own in its place) and, before the contract,
        the stock in a random order."""
        start = self._starts.get(forced)
        if start is None:
            start = self._starts[forced] = self._start(forced)
        given, caps_now, sizes, classes = start
        given = list(given)
        for k, (allowed, _) in enumerate(self.classes):
            cards = classes[k]
            if len(allowed) == 1:
                slot = allowed[0]
                for card in cards:
                    given[slot] |= 1 << card
                room = list(caps_now)
                room[slot] -= len(cards)
                caps_now = tuple(room)
                continue
            choices = self._choice_list(k, sizes[k:], caps_now)
            pick = rng.randrange(choices[-1][0])
            split = next(split for bound, split in choices if pick < bound)
            shuffled = list(cards)
            rng.shuffle(shuffled)
            at = 0
            rest = list(caps_now)
            for slot, n in zip(allowed, split, strict=True):
                for card in shuffled[at : at + n]:
                    given[slot] |= 1 << card
                at += n
                rest[slot] -= n
            caps_now = tuple(rest)
        hidden = list(self.sure)
        me = self.worlds.me
        if me >= 0:
            hidden[me] = self.worlds.view.cards.mask
        stock: list[int] | None = None
        for k, s in enumerate(self.slots):
            if s == STOCK:
                stock = list(cards_of(given[k]))
                rng.shuffle(stock)
            else:
                hidden[s] |= given[k]
        return hidden, stock

    def _start(
        self, forced: _Forced
    ) -> tuple[list[int], tuple[int, ...], tuple[int, ...], list[list[int]]]:
        """Where a draw with ``forced`` begins: the cards given, the room left in each slot,
        and the cards of each class still to deal (with their number)."""
        given = [0] * len(self.slots)
        caps = list(self.caps)
        union = 0
        for slot, mask in forced:
            given[slot] |= mask
            caps[slot] -= mask.bit_count()
            union |= mask
        classes = [[c for c in cards if not union >> c & 1] for _, cards in self.classes]
        return given, tuple(caps), tuple(len(cards) for cards in classes), classes

    def class_counts(self, mask: int) -> tuple[int, ...]:
        """How many cards of ``mask`` (free cards) each class has."""
        counts = [0] * len(self.classes)
        for card in cards_of(mask):
            counts[self.class_of[card]] += 1
        return tuple(counts)

    def _choice_list(self, k: int, sizes: tuple[int, ...], caps: tuple[int, ...]) -> list[_Choice]:
        """The splits of class ``k`` (of ``sizes[0]`` cards; ``sizes`` are those of classes
        ``k`` on) among its slots that leave a deal of the later classes, each with the
        running total of the deals they lead to."""
        if k == len(self.classes):
            return [(1, ())] if not any(caps) else []
        key = (k, sizes, caps)
        found = self._choices.get(key)
        if found is not None:
            return found
        allowed, _ = self.classes[k]
        m = sizes[0]
        total = 0
        choices: list[_Choice] = []
        for split in _splits(m, [caps[slot] for slot in allowed]):
            rest = list(caps)
            ways = factorial(m)
            for slot, n in zip(allowed, split, strict=True):
                rest[slot] -= n
                ways //= factorial(n)
            later = self._choice_list(k + 1, sizes[1:], tuple(rest))
            if later:
                total += ways * later[-1][0]
                choices.append((total, split))
        self._choices[key] = choices
        return choices


_Choice = tuple[int, tuple[int, ...]]
#: Free cards given to slots before a deal is drawn: (slot, cards) pairs.
_Forced = tuple[tuple[int, int], ...]


class Plants:
    """Deals in which each seat that declared projects not yet shown holds projects of its
    kinds, drawn uniformly among such deals.

    Waiting for a uniform deal to happen to hold a declared Fifty could take thousands of
    draws. Instead a *planting* is chosen (for each such seat, disjoint sets of cards that
    are projects of its kinds on their own, among the cards it may hold or has played), in
    proportion to the deals that contain it; a deal is drawn among those; and it is kept
    with probability one over the number of plantings it contains. Every deal that contains
    a planting is then equally likely: the planting's weight and the deal's chance given it
    cancel, and the last step undoes the deals counted once per planting they contain.
    """

    def __init__(self, deal: Deal, seats: dict[int, list[int]], plantings: list[_Planting]) -> None:
        self.deal = deal
        self.seats = seats
        self.plantings = plantings
        self.bounds: list[int] = []
        total = 0
        for _, weight in plantings:
            total += weight
            self.bounds.append(total)

    @classmethod
    def of(cls, deal: Deal, limit: int = 50_000) -> Plants | None:
        """The plantings of the view's declared kinds, or None when there is no kind to
        plant or more than ``limit`` plantings (then deals are drawn plain)."""
        worlds = deal.worlds
        view = worlds.view
        contract = view.contract
        if contract is None:
            return None
        shapes = project_shapes(contract.trump is None, view.rules.long_sequence_split)
        seats: dict[int, list[int]] = {}
        options: list[list[tuple[int, int, tuple[int, ...]]]] = []
        for s in worlds.others:
            kinds = worlds.known[s].kinds
            if not kinds:
                continue
            slot = deal.slot_of(s)
            had = worlds.played[s] | deal.sure[s]
            may = had
            for card, k in deal.class_of.items():
                if slot in deal.classes[k][0]:
                    may |= 1 << card
            seats[s] = _seat_plantings(kinds, shapes, may)
            if not seats[s]:
                raise NoDeal(f"{SEATS[s].name} cannot hold the projects it declared")
            options.append([(slot, p & ~had, deal.class_counts(p & ~had)) for p in seats[s]])
        if not seats:
            return None
        total = 1
        for choices in options:
            total *= len(choices)
        if total > limit:
            return None
        plantings: list[_Planting] = []
        weights: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}

        def plant(
            i: int, used: int, forced: _Forced, sizes: tuple[int, ...], caps: list[int]
        ) -> None:
            if i == len(options):
                key = (sizes, tuple(caps))
                weight = weights.get(key)
                if weight is None:
                    weight = weights[key] = deal.count(*key) if min(caps) >= 0 else 0
                if weight:
                    plantings.append((forced, weight))
                return
            for slot, free, counts in options[i]:
                if free & used:
                    continue
                caps[slot] -= free.bit_count()
                less = tuple(a - b for a, b in zip(sizes, counts, strict=True))
                plant(i + 1, used | free, (*forced, (slot, free)), less, caps)
                caps[slot] += free.bit_count()

        plant(0, 0, (), deal.sizes, list(deal.caps))
        if not plantings:
            raise NoDeal("no deal holds the projects declared")
        return cls(deal, seats, plantings)

    def draw(self, rng: random.Random) -> tuple[list[int], list[int] | None] | None:
        """A planted deal, or None when the draw is not kept."""
        pick = rng.randrange(self.bounds[-1])
        forced = self.plantings[bisect_right(self.bounds, pick)][0]
        hidden, stock = self.deal.draw(rng, forced)
        contained = 1
        played = self.deal.worlds.played
        for s, options in self.seats.items():
            full = hidden[s] | played[s]
            contained *= sum(1 for p in options if p & ~full == 0)
        if contained > 1 and rng.randrange(contained):
            return None
        return hidden, stock


_Planting = tuple[_Forced, int]


def _seat_plantings(
    kinds: tuple[ProjectKind, ...], shapes: dict[ProjectKind, tuple[int, ...]], may: int
) -> list[int]:
    """The sets of cards (as one mask each) that make disjoint projects of ``kinds`` on their
    own, within the cards ``may``."""
    found = {0}
    for kind in kinds:
        fits = [shape for shape in shapes[kind] if shape & ~may == 0]
        found = {done | shape for done in found for shape in fits if not done & shape}
    return sorted(found)


def _splits(m: int, caps: list[int]) -> list[tuple[int, ...]]:
    """Every way to write ``m`` as a sum of ``len(caps)`` counts, each at most its cap."""
    if len(caps) == 1:
        return [(m,)] if m <= caps[0] else []
    found: list[tuple[int, ...]] = []
    room = sum(caps[1:])
    for n in range(max(0, m - room), min(m, caps[0]) + 1):
        found.extend((n, *rest) for rest in _splits(m - n, caps[1:]))
    return found
