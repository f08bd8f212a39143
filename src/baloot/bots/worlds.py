"""Worlds: whole hands that agree with one seat's view and guess the cards it has not seen.

A bot that searches deals the cards it cannot see, many times, and plays each deal out as if
it could see everything. :func:`world` turns a view and a guess of every other seat's hidden
cards into a :class:`~baloot.core.hand.Hand` equal in every public respect to the real one
(the same actions, as the table heard them; the same tricks, projects shown, legal actions),
or says in one line why the guess cannot be. :class:`WorldSampler` deals such guesses at
random, honouring what the history proves (:mod:`baloot.core.knowledge`).

>>> import random
>>> from baloot.core.hand import Hand
>>> from baloot.view.seat_view import SeatView
>>> hand = Hand.new(rng=random.Random(4))
>>> while hand.trick_number < 2:
...     _ = hand.apply(hand.legal_actions()[-1])
>>> view = SeatView.of(hand, hand.to_act)
>>> sampler = WorldSampler(view)
>>> guess = sampler.sample(random.Random(1))
>>> sorted(guess) == [s for s in Seat if s != view.seat]
True
>>> other = world(view, guess)
>>> SeatView.of(other, view.seat) == view
True
>>> view.seat, len(guess[Seat.S])
(<Seat.W: 1>, 6)
>>> world(view, {**guess, Seat.S: CardSet()})
Traceback (most recent call last):
...
baloot.bots.worlds.InconsistentWorldError: S holds 6 cards, not 0
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping
from math import factorial
from typing import Final

from baloot.bots.clock import current_clock
from baloot.core.actions import Verb
from baloot.core.cards import CARDS, TRUMP_ABOVE, Card, CardSet
from baloot.core.errors import BalootError, IllegalActionError
from baloot.core.hand import Hand
from baloot.core.knowledge import Knowledge
from baloot.core.projects import ProjectKind, reading
from baloot.core.redeal import Masks, Template, cards_of, deck_for, project_shapes
from baloot.core.seats import SEATS, Seat
from baloot.view.seat_view import SeatView

#: How many deals :class:`WorldSampler` tries before it gives up on a view.
TRIES: Final = 2000
#: The slot of the cards still in the stock, in the bidding: dealt to nobody yet.
_STOCK: Final = 4


class InconsistentWorldError(BalootError, ValueError):
    """A guess of the hidden cards that the view rules out (wrong counts, a card the history
    excludes, a card a seat surely holds missing, a declaration the cards do not make, an
    action they make illegal); the message says why in one line."""


def world(view: SeatView, hidden: Mapping[Seat, CardSet]) -> Hand:
    """The hand of ``view`` with ``hidden[seat]`` the hidden cards of each other seat (each
    seat's for a spectator): its actions as the view heard them, its cards as guessed.

    Other seats' declarations are heard as kinds: each declaring seat declares the projects
    of those kinds that its cards in the world make, as the engine reads a declaration
    without cards. Before the contract the guess is each seat's first five; the cards left
    in the stock are dealt in card order (:meth:`WorldSampler.deal` shuffles them). Raises
    :class:`InconsistentWorldError` when the guess contradicts the view.
    """
    return _Worlds(view).build(hidden)


class WorldSampler:
    """Random guesses of the hidden cards for one view, each consistent with it.

    A guess gives every other seat as many cards as it holds, the cards it surely holds
    (``known.holds``), and none that the history excludes (``known.excluded``); among all
    such deals each is equally likely (the cards are dealt by counting, class by class of
    the seats that may hold them, then shuffled within each class). When projects were
    declared, a deal must also make every declaration of the history legal, show the
    projects the view shows and leave this seat its legal actions: deals that do not are
    drawn again (at most ``tries`` times), which keeps the guesses uniform over the
    consistent ones. Randomness comes from the ``rng`` passed to each call.

    >>> import random
    >>> from baloot.core.hand import Hand
    >>> hand = Hand.new(rng=random.Random(2))
    >>> view = SeatView.of(hand, "S")
    >>> deal = WorldSampler(view).deal(random.Random(5))
    >>> deal.hand("S") == view.cards, deal.exposed == view.exposed, deal.actions == []
    (True, True, True)
    """

    def __init__(self, view: SeatView, tries: int = TRIES) -> None:
        if tries < 1:
            raise ValueError(f"tries must be at least 1, not {tries}")
        self._worlds = _Worlds(view)
        self._tries = tries
        self._deal = _Deal.of(self._worlds)
        self._plants = _Plants.of(self._deal)

    @property
    def view(self) -> SeatView:
        """The view the guesses agree with."""
        return self._worlds.view

    def sample(self, rng: random.Random) -> dict[Seat, CardSet]:
        """The hidden cards of each other seat (each seat's for a spectator), at random."""
        hidden, _ = self._draw(rng, build=self._worlds.declared)
        return {SEATS[s]: CardSet(hidden[s]) for s in self._worlds.others}

    def world(self, rng: random.Random) -> Hand:
        """The hand of a random guess (:func:`world` of :meth:`sample`)."""
        _, hand = self._draw(rng, build=True)
        assert hand is not None
        return hand

    def deal(self, rng: random.Random) -> Hand:
        """A whole hand consistent with the view, in any phase: every one of the 32 cards
        placed (the stock too, before the contract), the view's actions applied."""
        return self.world(rng)

    def worlds(self, rng: random.Random, draws: int) -> list[tuple[Hand, int]]:
        """``draws`` random guesses, each distinct world once (in the order first drawn) with
        how many of the draws gave it (fewer draws if one finds no world in its tries, or once
        the decision's clock has run out: it is a ceiling here too, past the first world).
        Late in a hand few deals remain and most draws repeat one: each world is built once.

        >>> hand = Hand.new(rng=random.Random(2))
        >>> while hand.trick_number < 7:
        ...     _ = hand.apply(hand.legal_actions()[0])
        >>> drawn = WorldSampler(SeatView.of(hand, hand.to_act)).worlds(random.Random(1), 100)
        >>> len(drawn) < 100 == sum(count for _, count in drawn)
        True
        """
        built: dict[tuple[int, ...], Hand | None] = {}
        first: list[Hand] = []
        counts: dict[int, int] = {}  # by id(): every world stays alive in ``built``
        clock = current_clock()
        for _ in range(draws):
            if first and clock.expired():
                break
            try:
                _, hand = self._draw(rng, build=True, built=built)
            except InconsistentWorldError:
                break
            assert hand is not None
            if id(hand) not in counts:
                first.append(hand)
                counts[id(hand)] = 0
            counts[id(hand)] += 1
        return [(hand, counts[id(hand)]) for hand in first]

    def world_of(self, hidden: Mapping[Seat, CardSet]) -> Hand:
        """:func:`world` of the view and ``hidden``, faster for each guess after the first."""
        return self._worlds.build(hidden)

    def _draw(
        self,
        rng: random.Random,
        build: bool,
        built: dict[tuple[int, ...], Hand | None] | None = None,
    ) -> tuple[list[int], Hand | None]:
        """A guess and, if ``build``, its world; ``built`` keeps the worlds (None: no world)
        of the guesses seen, so that a guess drawn again is not built again."""
        worlds = self._worlds
        plants = self._plants
        for _ in range(self._tries):
            if plants is None:
                hidden, stock = self._deal.draw(rng)
            else:
                drawn = plants.draw(rng)
                if drawn is None:
                    continue
                hidden, stock = drawn
            if not build:
                return hidden, None
            key = (*hidden, *(stock or ()))
            if built is not None and key in built:
                hand = built[key]
                if hand is None:
                    continue
                return hidden, hand
            try:
                hand = worlds.assemble(hidden, stock)
            except InconsistentWorldError:
                hand = None
            if built is not None:
                built[key] = hand
            if hand is not None:
                return hidden, hand
        raise InconsistentWorldError(
            f"no deal of the unseen cards fits the view in {self._tries} tries "
            f"(the projects declared: {worlds.declared_words()})"
        )


class _Worlds:
    """What a view fixes for every world of it, and the checks of a guess."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        me = view.seat
        self.me = -1 if me is None else int(me)
        self.others = tuple(s for s in range(4) if s != self.me)
        self.contracted = view.contract is not None
        played = [0, 0, 0, 0]
        for trick in view.tricks:
            for play in trick.plays:
                assert play.card is not None
                played[int(play.seat)] |= play.card.bit
        self.played: Masks = (played[0], played[1], played[2], played[3])
        self.pool = view.unseen.mask
        self.declared = any(action.verb is Verb.DECLARE for action in view.actions)
        self.known: dict[int, Knowledge] = {int(s): k for s, k in view.known.items()}
        self.template: Template | None = None
        # What a world's readings must show (R10.4, R10.5), for a quick look before it is
        # built: each other seat's declared kinds, and the projects of a team that showed.
        kinds: dict[int, list[ProjectKind]] = {}
        for action in view.actions:
            if action.verb is Verb.DECLARE and int(action.seat) != self.me:
                kinds.setdefault(int(action.seat), []).extend(c.kind for c in action.claims)
        self.kinds = {s: sorted(k) for s, k in kinds.items()}
        shown: dict[int, set[int]] = {}
        if view.shown:
            team = int(view.shown[0].seat) & 1
            shown = {s: set() for s in (team, team + 2) if s != self.me}
            for project in view.shown:
                if int(project.seat) in shown:
                    shown[int(project.seat)].add(project.project.mask)
        self.shown = shown
        contract = view.contract
        self.sun = contract is not None and contract.trump is None
        # Which declarations this seat may still make depends on those made before it.
        self.choices_declare = bool(view.legal and view.own_projects) and not view.trick_number

    def declared_words(self) -> str:
        words = [str(a) for a in self.view.actions if a.verb is Verb.DECLARE]
        return ", ".join(words) or "none"

    def build(self, hidden: Mapping[Seat, CardSet]) -> Hand:
        return self.assemble(self.check(hidden), None)

    def check(self, hidden: Mapping[Seat, CardSet]) -> list[int]:
        """The guess as masks by seat (this seat's own cards in its place), or the one-line
        reason it cannot be."""
        view = self.view
        if not isinstance(hidden, Mapping):
            raise TypeError(f"hidden cards are a mapping of seats to card sets, not {hidden!r}")
        named = {Seat.coerce(seat) for seat in hidden}
        wanted = {SEATS[s] for s in self.others}
        if named != wanted:
            names = " ".join(s.name for s in sorted(wanted))
            raise InconsistentWorldError(f"a guess names the hidden cards of {names}, no other")
        masks = [0, 0, 0, 0]
        if self.me >= 0:
            masks[self.me] = view.cards.mask
        seen = 0
        for seat, cards in hidden.items():
            s = int(Seat.coerce(seat))
            if not isinstance(cards, CardSet):
                raise TypeError(f"the hidden cards of {SEATS[s].name} are a CardSet")
            mask = cards.mask
            if len(cards) != view.held[s]:
                raise InconsistentWorldError(
                    f"{SEATS[s].name} holds {view.held[s]} cards, not {len(cards)}"
                )
            if mask & seen:
                card = CARDS[(mask & seen).bit_length() - 1]
                raise InconsistentWorldError(f"{card.text} is guessed for two seats")
            seen |= mask
            if mask & ~self.pool:
                card = CARDS[(mask & ~self.pool).bit_length() - 1]
                raise InconsistentWorldError(
                    f"{SEATS[s].name} cannot hold {card.text}: this seat has seen it"
                )
            known = self.known[s]
            if mask & known.excluded.mask:
                card = CARDS[(mask & known.excluded.mask).bit_length() - 1]
                raise InconsistentWorldError(
                    f"{SEATS[s].name} cannot hold {card.text}: {self._why_not(known, card)}"
                )
            if known.holds.mask & ~mask:
                card = CARDS[(known.holds.mask & ~mask).bit_length() - 1]
                raise InconsistentWorldError(f"{SEATS[s].name} surely holds {card.text}")
            masks[s] = mask
        if self.contracted and seen != self.pool:
            card = CARDS[(self.pool & ~seen).bit_length() - 1]
            raise InconsistentWorldError(f"the guess gives {card.text} to nobody")
        return masks

    def _why_not(self, known: Knowledge, card: Card) -> str:
        if card.suit in known.void:
            return f"it did not follow {card.suit.name.lower()} (or could not trump)"
        below = known.trump_below
        if below is not None and TRUMP_ABOVE[below.index] & card.bit:
            return f"it did not beat the {below.text} when it had to"
        for other, fact in self.known.items():
            if fact.holds.mask & card.bit:
                return f"{SEATS[other].name} holds it"
        if self.view.taker is not None and card == self.view.exposed:
            return f"{self.view.taker.name} took it"
        return "the history excludes it"

    def assemble(self, hidden: list[int], stock: list[int] | None) -> Hand:
        """The world of checked hidden cards (by seat) and, before the contract, the cards
        of the stock in order (None: in card order)."""
        view = self.view
        exposed = view.exposed.index
        dealer = int(view.dealer)
        if not self.contracted:
            if stock is None:
                left = CardSet.full().mask & ~(hidden[0] | hidden[1] | hidden[2] | hidden[3])
                stock = [i for i in range(32) if left >> i & 1 and i != exposed]
            deck = deck_for(dealer, hidden, exposed, stock)
            return self._replayed(deck)
        played = self.played
        taker = int(view.taker) if view.taker is not None else -1
        full = (
            hidden[0] | played[0],
            hidden[1] | played[1],
            hidden[2] | played[2],
            hidden[3] | played[3],
        )
        if self.declared:
            self._readings_fit(full)
        first5 = [0, 0, 0, 0]
        rest = [0, 0, 0, 0]
        for s in range(4):
            cards = full[s] & ~(1 << exposed) if s == taker else full[s]
            five = 0
            for _ in range(5):
                low = cards & -cards
                five |= low
                cards ^= low
            first5[s] = five
            rest[s] = cards
        deck = deck_for(dealer, first5, exposed, rest, taker)
        template = self.template
        if template is None:
            hand = self._replayed(deck)
            self.template = Template(hand)
        else:
            try:
                hand = template.rehand(deck, full, (first5[0], first5[1], first5[2], first5[3]))
            except IllegalActionError as error:
                raise InconsistentWorldError(f"in that world {error}") from None
        if self.declared:
            self._same_projects(hand)
        return hand

    def better(self, seat: int, cards: int) -> int:
        """The cards of ``cards`` that ``seat`` cannot hold because its team showed its
        projects: the projects shown are all it has (R10.5), and any hand with one of these
        cards and the cards it surely had makes projects worth more (R10.4)."""
        if seat not in self.shown:
            return 0
        rules = self.view.rules
        split, first = rules.long_sequence_split, rules.hundred_sequence_beats_four_kind
        had = self.played[seat] | self.known[seat].holds.mask
        worth = sum(p.kind.raw for p in reading(had, self.sun, split, first))
        found = 0
        for card in range(32):
            if cards >> card & 1:
                more = reading(had | 1 << card, self.sun, split, first)
                if sum(p.kind.raw for p in more) > worth:
                    found |= 1 << card
        return found

    def _readings_fit(self, full: Masks) -> None:
        """A quick look at the readings of the full hands (R10.4) before the world is built:
        every other seat that declared holds projects of its kinds, and the team that showed
        its projects holds exactly those. The world's own checks stay the judge."""
        rules = self.view.rules
        split, first = rules.long_sequence_split, rules.hundred_sequence_beats_four_kind
        for s, kinds in self.kinds.items():
            held = sorted(p.kind for p in reading(full[s], self.sun, split, first))
            for kind in kinds:
                if kind not in held:
                    raise InconsistentWorldError(
                        f"{SEATS[s].name} would hold no {kind.word} to declare"
                    )
                held.remove(kind)
        for s, masks in self.shown.items():
            if {p.mask for p in reading(full[s], self.sun, split, first)} != masks:
                raise InconsistentWorldError("in that world other projects would be shown")

    def _replayed(self, deck: tuple[int, ...]) -> Hand:
        """The view's actions applied, one by one, to a hand dealt ``deck``."""
        view = self.view
        hand = Hand(tuple(CARDS[i] for i in deck), view.dealer, view.rules, view.score_before)
        for action in view.actions:
            try:
                hand.apply(action)
            except IllegalActionError as error:
                raise InconsistentWorldError(f"in that world {error}") from None
        return hand

    def _same_projects(self, hand: Hand) -> None:
        """The projects' public traces of the view: the same shown, the same choices left."""
        view = self.view
        if view.tricks and hand.shown_projects() != view.shown:
            raise InconsistentWorldError("in that world other projects would be shown")
        if self.choices_declare and hand.legal_actions() != view.legal:
            raise InconsistentWorldError("in that world this seat would have other choices")


class _Deal:
    """Uniform deals of the unseen cards under counts, sure cards and exclusions.

    The cards free to deal fall into classes by the set of slots (seats, and the stock
    before the contract) that may hold them. The number of deals that fill every slot to its
    count is a sum, over how many cards of each class go to each of its slots, of products
    of multinomials; counting it class by class and drawing each class's split in
    proportion to the deals it leaves, then shuffling the class's cards into the split,
    draws every deal with the same probability. Cards may be forced into a slot first
    (a planted project, see :class:`_Plants`): the count depends only on how many cards are
    left in each class and room in each slot, so it is remembered by those.
    """

    def __init__(
        self,
        worlds: _Worlds,
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
    def of(cls, worlds: _Worlds) -> _Deal:
        view = worlds.view
        slots = worlds.others if worlds.contracted else (*worlds.others, _STOCK)
        sure = [0, 0, 0, 0]
        for s in worlds.others:
            sure[s] = worlds.known[s].holds.mask
        free = worlds.pool & ~(sure[0] | sure[1] | sure[2] | sure[3])
        caps: list[int] = []
        for s in slots:
            if s == _STOCK:
                dealt = sum(view.held[x] for x in worlds.others)
                caps.append(worlds.pool.bit_count() - dealt)
            else:
                caps.append(view.held[s] - sure[s].bit_count())
        if min(caps) < 0 or sum(caps) != free.bit_count():
            raise InconsistentWorldError("the view's counts do not add up")
        excluded = {
            s: worlds.known[s].excluded.mask | worlds.better(s, free) for s in worlds.others
        }
        by_class: dict[tuple[int, ...], list[int]] = {}
        for card in range(32):
            if free >> card & 1:
                allowed = tuple(
                    k for k, s in enumerate(slots) if s == _STOCK or not excluded[s] >> card & 1
                )
                if not allowed:
                    raise InconsistentWorldError(f"no seat may hold {CARDS[card].text}")
                by_class.setdefault(allowed, []).append(card)
        classes = sorted(by_class.items(), key=lambda item: (len(item[0]), item[0]))
        deal = cls(worlds, sure, slots, tuple(caps), classes)
        if not deal.count(deal.sizes, deal.caps):
            raise InconsistentWorldError("no deal of the unseen cards fits the view's counts")
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
            if s == _STOCK:
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


class _Plants:
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

    def __init__(
        self, deal: _Deal, seats: dict[int, list[int]], plantings: list[_Planting]
    ) -> None:
        self.deal = deal
        self.seats = seats
        self.plantings = plantings
        self.bounds: list[int] = []
        total = 0
        for _, weight in plantings:
            total += weight
            self.bounds.append(total)

    @classmethod
    def of(cls, deal: _Deal, limit: int = 50_000) -> _Plants | None:
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
                raise InconsistentWorldError(
                    f"{SEATS[s].name} cannot hold the projects it declared"
                )
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
            raise InconsistentWorldError("no deal holds the projects declared")
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
