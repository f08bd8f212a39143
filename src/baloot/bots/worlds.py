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
from collections.abc import Mapping
from typing import Final

from baloot.bots._deals import Deal, NoDeal, Plants
from baloot.bots.clock import current_clock
from baloot.core.actions import Verb
from baloot.core.cards import CARDS, TRUMP_ABOVE, Card, CardSet
from baloot.core.errors import BalootError, IllegalActionError
from baloot.core.hand import Hand
from baloot.core.knowledge import Knowledge
from baloot.core.projects import ProjectKind, reading
from baloot.core.redeal import Masks, Template, deck_for
from baloot.core.seats import SEATS, Seat
from baloot.view.seat_view import SeatView

#: How many deals :class:`WorldSampler` tries before it gives up on a view.
TRIES: Final = 2000


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
        try:
            self._deal = Deal.of(self._worlds)
            self._plants = Plants.of(self._deal)
        except NoDeal as error:
            raise InconsistentWorldError(str(error)) from None

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
