"""The heuristic bot: bids, doubles, declares and plays like a sound club player.

It reads only its seat's :class:`~baloot.view.SeatView` and picks one of the legal actions
by the rules listed in :class:`HeuristicBot`. Trick winners come from
:func:`baloot.core.cards.trick_winner`, card strength from :func:`baloot.core.cards.strength`,
card points from :data:`baloot.core.cards.PLAIN_POINTS` and
:data:`~baloot.core.cards.TRUMP_POINTS`, and what is allowed only from the legal actions it
is given.

>>> import random
>>> from baloot.core.hand import Hand
>>> hand = Hand.new(rng=random.Random(1))
>>> bot = HeuristicBot(random.Random(2))
>>> bot.choose(SeatView.of(hand, hand.to_act), hand.legal_actions()) in hand.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from baloot.core.actions import Action, Verb
from baloot.core.cards import (
    CARDS,
    PLAIN_POINTS,
    TRUMP_POINTS,
    Card,
    Rank,
    Suit,
    strength,
    trick_winner,
)
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase, QuestionKind
from baloot.view.seat_view import SeatView

# --------------------------------------------------------------------------- tuning constants

#: What the lead of the next trick is worth, in card points, when deciding to win a trick.
LEAD_BONUS: Final = 2.0
#: The card points each card still to come in a trick brings, on average.
LATER_CARD: Final = 2.5

_ACE = Rank.ACE
_TEN = Rank.TEN
_KING = Rank.KING
_QUEEN = Rank.QUEEN
_JACK = Rank.JACK
_NINE = Rank.NINE


def _stronger_table(as_trump: bool) -> tuple[int, ...]:
    """For each card, the mask of the cards of its suit that beat it (R2.2), built with
    :func:`baloot.core.cards.strength`."""
    table = []
    for card in CARDS:
        trump = card.suit if as_trump else None
        mask = 0
        for other in CARDS:
            if other.suit == card.suit and strength(other, trump) > strength(card, trump):
                mask |= other.bit
        table.append(mask)
    return tuple(table)


#: Cards of the same suit that beat a card: as plain cards (Sun, side suits) and as trumps.
_ABOVE_PLAIN: Final = _stronger_table(False)
_ABOVE_TRUMP: Final = _stronger_table(True)


def points(card: Card, trump: Suit | None) -> int:
    """Card points of one card (R2.3).

    >>> points(Card.parse("Jh"), Suit.HEARTS), points(Card.parse("Jh"), None)
    (20, 2)
    """
    table = TRUMP_POINTS if card.suit == trump else PLAIN_POINTS
    return table[card.rank]


# --------------------------------------------------------------------------- hand values


def hokum_value(cards: Iterable[Card], trump: Suit) -> float:
    """How good a hand is to declare Hokum with ``trump`` (bidding rules B2–B5).

    Trumps: J 4, 9 3 (2 without the J and with fewer than three trumps), A 2, T 1.5, any other
    trump 1. Side suits: Ace 2, Ten 1 beside its Ace (0.5 with another guard), King 0.5 beside
    the Ace or Ten.

    >>> hokum_value([Card.parse(c) for c in "Jh 9h 7h As 8d".split()], Suit.HEARTS)
    10.0
    """
    held = list(cards)
    trumps = [c for c in held if c.suit == trump]
    ranks = {c.rank for c in trumps}
    value = 0.0
    for card in trumps:
        if card.rank == _JACK:
            value += 4
        elif card.rank == _NINE:
            value += 3 if _JACK in ranks or len(trumps) >= 3 else 2
        elif card.rank == _ACE:
            value += 2
        elif card.rank == _TEN:
            value += 1.5
        else:
            value += 1
    value += _side_value(c for c in held if c.suit != trump)
    return value


def _side_value(cards: Iterable[Card]) -> float:
    """Side-suit value shared by :func:`hokum_value` and :func:`defence_value`."""
    by_suit: dict[Suit, set[Rank]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, set()).add(card.rank)
    value = 0.0
    for ranks in by_suit.values():
        if _ACE in ranks:
            value += 2
        if _TEN in ranks:
            value += 1 if _ACE in ranks else 0.5 if len(ranks) >= 2 else 0
        if _KING in ranks and (_ACE in ranks or _TEN in ranks):
            value += 0.5
    return value


def sun_value(cards: Iterable[Card]) -> float:
    """How good a hand is to declare Sun (bidding rules B2–B6).

    Ace 3; Ten 2 beside its Ace, 1 with another guard, 0.5 alone; King 1 beside the Ace or
    Ten, 0.5 with another guard; every card beyond the third of a suit headed by its Ace 0.5.

    >>> sun_value([Card.parse(c) for c in "As Ts Ah 7d 8c".split()])
    8.0
    """
    by_suit: dict[Suit, set[Rank]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, set()).add(card.rank)
    value = 0.0
    for ranks in by_suit.values():
        ace = _ACE in ranks
        guards = len(ranks) >= 2
        if ace:
            value += 3
            value += 0.5 * max(0, len(ranks) - 3)
        if _TEN in ranks:
            value += 2 if ace else 1 if guards else 0.5
        if _KING in ranks:
            value += 1 if ace or _TEN in ranks else 0.5 if guards else 0
    return value


def defence_value(cards: Iterable[Card], trump: Suit) -> float:
    """How well a complete hand defends against a Hokum in ``trump`` (doubling rules D1–D3).

    Trumps: J 4, 9 3, A 2, T 1.5, any other trump 1, and 1 more for every trump beyond the
    third; side suits as in :func:`hokum_value`.

    >>> defence_value([Card.parse(c) for c in "Jh 9h 7h As Ad Td 8c 7c".split()], Suit.HEARTS)
    13.0
    """
    held = list(cards)
    trumps = [c for c in held if c.suit == trump]
    value = 0.0
    for card in trumps:
        value += {_JACK: 4.0, _NINE: 3.0, _ACE: 2.0, _TEN: 1.5}.get(card.rank, 1.0)
    value += max(0, len(trumps) - 3)
    value += _side_value(c for c in held if c.suit != trump)
    return value


def _aces(cards: Iterable[Card], trump: Suit | None) -> int:
    return sum(1 for c in cards if c.rank == _ACE and c.suit != trump)


# --------------------------------------------------------------------------- what the table knows


@dataclass(slots=True)
class _Table:
    """What this seat knows in the play: its cards and, for each other seat, the cards it
    may still hold (the unseen cards minus what its earlier plays ruled out)."""

    me: Seat
    trump: Suit | None
    tmask: int
    mine: int
    possible: tuple[int, int, int, int]
    ours: bool  # True if this seat's team declared

    def opponents(self) -> tuple[Seat, Seat]:
        return (self.me.next, self.me.after(3))

    def opp_possible(self) -> int:
        a, b = self.opponents()
        return self.possible[a] | self.possible[b]

    def can_beat(self, seat: Seat, card: Card, led: Suit) -> bool:
        """True if ``seat`` may hold a card that beats ``card`` (winning a trick led in
        ``led``): a higher card of its suit, or a trump when it is surely void in ``led``."""
        held = self.possible[seat]
        if card.suit == self.trump:
            if led != self.trump and held & led.mask:
                # It probably follows suit, so it cannot over-ruff.
                return False
            return bool(held & _ABOVE_TRUMP[card.index])
        if held & _ABOVE_PLAIN[card.index]:
            return True
        return bool(self.tmask and held & self.tmask and not held & led.mask)

    def master(self, card: Card) -> bool:
        """True if no opponent may hold a card of its suit that beats it."""
        above = _ABOVE_TRUMP if card.suit == self.trump else _ABOVE_PLAIN
        return not self.opp_possible() & above[card.index]

    def future(self, card: Card) -> float:
        """What keeping ``card`` is worth to this seat's side for the rest of the hand, in card
        points (rule P9): trumps most, then sure winners, then honours that may still win;
        low cards little, a Hokum singleton less (its discard makes a void)."""
        trump = self.trump
        pts = points(card, trump)
        suit_cards = (self.mine & card.suit.mask).bit_count()
        if card.suit == trump:
            value = 10.0 + 2 * pts
            pair = (Card(trump, _KING).bit | Card(trump, _QUEEN).bit) if trump is not None else 0
            if card.rank in (_KING, _QUEEN) and self.mine & pair == pair:
                value += 4  # keep the Baloot pair together
            return value
        higher = (self.opp_possible() & _ABOVE_PLAIN[card.index]).bit_count()
        if higher == 0:
            if pts:
                return pts + (4.0 if trump is not None else 8.0)
            return 1.0  # a small master card still wins a trick later
        if pts == 0:
            short = trump is not None and suit_cards == 1 and self.mine & self.tmask
            return -0.5 if short else 0.1 * suit_cards
        guards = suit_cards - 1
        chance = 0.5 if guards >= higher else 0.15
        return chance * (pts + 8) - (1 - chance) * pts * 0.5


def _read_table(view: SeatView) -> _Table:
    """Work out, from the public history, which cards each other seat may still hold."""
    trump = view.trump
    tmask = trump.mask if trump is not None else 0
    me = _seat_of(view)
    rules = view.rules
    unseen = view.unseen.mask
    impossible = [0, 0, 0, 0]
    plays = [(a.seat, a.card, a.ekka) for a in view.actions if a.verb is Verb.PLAY]
    for start in range(0, len(plays), 4):
        trick = plays[start : start + 4]
        lead = trick[0][1]
        assert lead is not None
        led = lead.suit
        cards = [lead]
        for i in range(1, len(trick)):
            seat, card, _ = trick[i]
            assert card is not None
            w = trick_winner(cards, trump)
            win_card = cards[w]
            opponent_wins = trick[w][0].team != seat.team
            above = _ABOVE_TRUMP[win_card.index] if win_card.suit == trump else 0
            if card.suit != led:
                impossible[seat] |= led.mask  # R9: it would have followed suit
                if trump is not None and led != trump:
                    if card.suit != trump:
                        if opponent_wins:
                            # R9.4 d3: a non-trump winner forces a trump; a trump winner
                            # forces an over-trump (any trump with must_undertrump).
                            if win_card.suit != trump or rules.must_undertrump:
                                impossible[seat] |= tmask
                            else:
                                impossible[seat] |= above
                        elif (
                            i == 2
                            and rules.partner_led_must_trump
                            and lead.rank != _ACE
                            and not trick[0][2]
                        ):
                            impossible[seat] |= tmask  # R9.4 d2: it had to trump
                    elif (
                        opponent_wins
                        and above
                        and strength(card, trump) < strength(win_card, trump)
                    ):
                        impossible[seat] |= above  # it under-trumped: nothing higher
            elif (
                led == trump and opponent_wins and strength(card, trump) < strength(win_card, trump)
            ):
                impossible[seat] |= above  # R9.4 b: it had to play a higher trump
            cards.append(card)
    taker = view.taker
    if taker is not None and taker != me and unseen >> view.exposed.index & 1:
        for seat in Seat:
            if seat != taker:
                impossible[seat] |= view.exposed.bit  # the taker still holds it
    _place_shown(view, unseen, impossible)
    possible = tuple(0 if s == me else unseen & ~impossible[s] for s in Seat)
    contract = view.contract
    ours = contract is not None and contract.declarer.team == me.team
    return _Table(
        me,
        trump,
        tmask,
        view.cards.mask,
        (possible[0], possible[1], possible[2], possible[3]),
        ours,
    )


def _seat_of(view: SeatView) -> Seat:
    """The bot's own seat: a bot always plays from a seat's view, never a spectator's."""
    if view.seat is None:
        raise ValueError("a bot needs a seat's view, not a spectator's")
    return view.seat


def _place_shown(view: SeatView, unseen: int, impossible: list[int]) -> None:
    """Shown projects (R10.5): their unplayed cards are in the hand of the seat that showed
    them."""
    for shown in view.shown:
        cards = shown.project.mask & unseen
        for seat in Seat:
            if seat != shown.seat:
                impossible[seat] |= cards


# --------------------------------------------------------------------------- the bot


class HeuristicBot:
    """A rule-based player. Its rules, in the order it applies them:

    Bidding (the exposed card is counted whenever this seat would take it)
      B1. Kawesh whenever it is legal (a first five of only 7s, 8s and 9s).
      B2. Hokum value (:func:`hokum_value`): J 4, 9 3, A 2, T 1.5, other trumps 1; side Aces
          2, a Ten beside its Ace 1. Sun value (:func:`sun_value`): Ace 3, Ten beside its Ace
          2 (guarded 1), King beside Ace/Ten 1, long Ace suits 0.5 a card.
      B3. Sun on a normal turn when the Sun value is at least ``sun_bid`` (8) and at least as
          far above it as the Hokum value is above ``hokum_bid`` (Sun is worth more).
      B4. Ashkal instead of that Sun when legal, when the first five alone are Sun-worthy and
          the exposed card would add less than 1 to them (a low card or an unguarded
          honour): it then goes to the partner, where it may sit with his honours, and this
          seat gets a fresh card in its place.
      B5. Hokum in round 1 with the J or 9 of the exposed suit (the exposed card counts), two
          or more trumps and a Hokum value of at least ``hokum_bid`` (7).
      B6. Sun windows (take-over offers, "confirm or Sun", Sun over a standing Hokum): Sun
          over an opponent's call with a Sun-worthy hand; over the partner's Hokum only with
          ``partner_margin`` (3) more; never over the partner's Sun or Ashkal; as the Hokum
          bidder, switch to Sun only on the B3 comparison.
      B7. Round 2: Hokum (with the J or 9) in the best suit other than the exposed one, or
          Sun, by the same thresholds; when naming the trump, the suit of highest Hokum
          value (Sun instead if B3 prefers it). Round 3: Sun with a Sun-worthy hand.
      B8. Otherwise pass.

    Doubling (complete hands)
      D1. Double a Hokum with at least three trumps including the J or 9, a side Ace and a
          defence value (:func:`defence_value`) of ``double_hokum`` (11) or more, locked:
          the declarer may then not lead trumps to draw them.
      D2. Double a Sun (when R8.4 allows it) only with three Aces and a Sun value of
          ``double_sun`` (12) or more.
      D3. Triple with the J and 9 of trumps and a Hokum value of ``triple_hokum`` (15) or
          more; Four (locked) with a defence value of ``four_hokum`` (17) or more; Gahwa with
          a Hokum value of ``gahwa_hokum`` (18) or more. Otherwise pass.

    Projects
      P1. In trick 1, before playing, declare the option naming the most project value (the
          most projects on a tie).

    Play. What is known: the unseen cards, minus the suits and trumps each seat has shown it
    lacks by not following, not trumping or not over-trumping when R9.4 would have made it,
    the exposed card (still with its taker) and the shown projects (with their team).
      P2. Leading as the declaring side in Hokum: holding a trump no opponent can beat while
          an opponent may still hold a trump, lead it (draw trumps).
      P3. Leading: cash a sure winner (a card no opponent can beat, nor ruff when surely
          void), the most points first (the Ace before the Ten it makes master); announce
          Ekka whenever the engine offers it for that card.
      P4. Leading in Hokum: when the partner is surely void in a side suit and may still
          trump, lead the lowest card of that suit for him to ruff.
      P5. Leading otherwise: the card cheapest to give up (its points plus its worth kept,
          rule P9, less 0.3 per card of its suit: long suits first), no trump while a side
          card will do.
      P6. Following when the partner is winning and surely stays winning (this seat plays
          last, or no later opponent can beat his card): give the card whose points most
          exceed its worth kept: points for the partner, but no trump or sure winner while
          another card will do.
      P7. Following otherwise, each legal card is valued and the best is played. A card that
          wins the trick and that no later opponent can beat brings the points at stake
          (the trick's cards, 2.5 for each card still to come, its own) plus 2 for the lead,
          minus its worth kept; any other card loses the stake (half of it when the partner
          is winning but may be beaten), its own points and its worth kept. So the bot wins
          with the cheapest sure winner when the points pay for it (the lowest trump that
          over-trumps, the Ten rather than the Ace when both win)...
      P8. ...and otherwise plays its cheapest card: never a high card into a trick it cannot
          win; discards low cards from its weakest, shortest side suit.
      P9. Worth kept: a trump 10 + 2 x its points (4 more for the King and Queen of trumps
          while both are held: the Baloot pair stays together); a sure winner its points + 8
          in Sun, + 4 in Hokum (it may be ruffed); an honour that may still be beaten,
          its chance to win (guards against the higher cards out) times its points + 8, less
          half its points otherwise; a low card 0.1 per card of its suit, or -0.5 when it is
          a Hokum singleton beside trumps (discarding it makes a void to ruff with).

    Remaining ties go to the weaker card (when following), then to the engine's card order
    (♠ ♥ ♦ ♣, high card first).
    No decision is left to chance, so the same position always gets the same answer;
    ``rng`` is accepted for the bot interface.
    """

    name = "heuristic"

    #: Hand value (see :func:`hokum_value`) from which a Hokum is bid.
    hokum_bid: float = 7.0
    #: Hand value (see :func:`sun_value`) from which a Sun is bid.
    sun_bid: float = 8.0
    #: Extra Sun value needed to turn the partner's Hokum into this seat's Sun.
    partner_margin: float = 3.0
    #: Defence value (see :func:`defence_value`) from which a Hokum is doubled.
    double_hokum: float = 11.0
    #: Sun value from which a Sun is doubled (with three Aces: a very strong hand).
    double_sun: float = 12.0
    #: Hokum value of the complete hand from which the declarer triples a Double.
    triple_hokum: float = 15.0
    #: Defence value from which the doubler answers a Triple with Four.
    four_hokum: float = 17.0
    #: Hokum value from which the declarer answers a Four with Gahwa.
    gahwa_hokum: float = 18.0

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The action these rules pick among ``legal`` in ``view``."""
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.PLAYING:
            return _play(view, legal)
        if phase is Phase.DOUBLING:
            return _double(self, view, legal)
        if phase is Phase.TRUMP_NAMING:
            return _name_trump(self, view, legal)
        return _bid(self, view, legal)


# --------------------------------------------------------------------------- bidding


def _find(legal: Sequence[Action], verb: Verb) -> Action | None:
    for action in legal:
        if action.verb is verb:
            return action
    return None


def _pass(legal: Sequence[Action]) -> Action:
    action = _find(legal, Verb.PASS)
    return action if action is not None else legal[0]


def _best_hokum(cards: list[Card], suits: Iterable[Suit]) -> tuple[float, Suit | None]:
    """The best Hokum value over ``suits`` of a hand that holds the J or 9 of the suit."""
    best: tuple[float, Suit | None] = (float("-inf"), None)
    for suit in suits:
        if not any(c.suit == suit and c.rank in (_JACK, _NINE) for c in cards):
            continue
        if sum(1 for c in cards if c.suit == suit) < 2:
            continue
        value = hokum_value(cards, suit)
        if value > best[0]:
            best = (value, suit)
    return best


#: The questions asked while a Hokum stands (``about`` is its bidder).
_HOKUM_STANDS: Final = frozenset(
    {QuestionKind.BID, QuestionKind.SUN_OVER_HOKUM, QuestionKind.CONFIRM_HOKUM}
)


def _bid(bot: HeuristicBot, view: SeatView, legal: Sequence[Action]) -> Action:
    """Rules B1–B8."""
    kawesh = _find(legal, Verb.KAWESH)
    if kawesh is not None:
        return kawesh  # B1
    me = _seat_of(view)
    five = list(view.cards)
    six = [*five, view.exposed]
    sun = _find(legal, Verb.SUN)
    hokum = _find(legal, Verb.HOKUM)
    ashkal = _find(legal, Verb.ASHKAL)
    sun_margin = sun_value(six) - bot.sun_bid
    question = view.question
    kind = question.kind if question is not None else QuestionKind.BID
    about = question.about if question is not None else None
    hokum_caller = about if kind in _HOKUM_STANDS else None
    round1 = view.phase is Phase.BIDDING_ROUND_1
    exposed_suit = view.exposed.suit
    if round1:
        hokum_margin, _ = _best_hokum(six, (exposed_suit,))
    else:
        hokum_margin, _ = _best_hokum(six, (s for s in Suit if s != exposed_suit))
    hokum_margin -= bot.hokum_bid

    if kind in (QuestionKind.TAKE_OVER_SUN, QuestionKind.TAKE_OVER_ASHKAL):
        # B6: a take-over offer after a Sun or an Ashkal (``about`` is its caller).
        if sun is not None and about is not None and about.team != me.team and sun_margin >= 0:
            return sun
        return _pass(legal)
    if hokum_caller is not None:
        # B6: Sun over a standing Hokum (also the bidder's "confirm or Sun").
        if sun is None:
            return _pass(legal)
        if hokum_caller == me:
            wants = sun_margin >= 0 and sun_margin >= hokum_margin
        elif hokum_caller == me.partner:
            wants = sun_margin >= bot.partner_margin
        else:
            wants = sun_margin >= 0
        if wants:
            if ashkal is not None and _prefers_ashkal(bot, view, five):
                return ashkal
            return sun
        return _pass(legal)
    # Nobody has called yet in this round.
    if sun is not None and sun_margin >= 0 and (hokum is None or sun_margin >= hokum_margin):
        if ashkal is not None and _prefers_ashkal(bot, view, five):
            return ashkal  # B4
        return sun  # B3, B7
    if hokum is not None and hokum_margin >= 0:
        return hokum  # B5, B7
    return _pass(legal)  # B8


def _prefers_ashkal(bot: HeuristicBot, view: SeatView, five: list[Card]) -> bool:
    """B4: Sun-worthy on its own, and the exposed card adds (almost) nothing here."""
    alone = sun_value(five)
    return alone >= bot.sun_bid and sun_value([*five, view.exposed]) - alone < 1


def _name_trump(bot: HeuristicBot, view: SeatView, legal: Sequence[Action]) -> Action:
    """B7: name the best trump, or Sun if the hand is better for it."""
    six = [*view.cards, view.exposed]
    options = [a for a in legal if a.verb is Verb.TRUMP and a.suit is not None]
    best = max(options, key=lambda a: hokum_value(six, a.suit) if a.suit else 0.0)
    sun = _find(legal, Verb.SUN)
    if sun is not None and best.suit is not None:
        sun_margin = sun_value(six) - bot.sun_bid
        if sun_margin >= 0 and sun_margin > hokum_value(six, best.suit) - bot.hokum_bid:
            return sun
    return best


# --------------------------------------------------------------------------- doubling


def _double(bot: HeuristicBot, view: SeatView, legal: Sequence[Action]) -> Action:
    """Rules D1–D3."""
    contract = view.contract
    cards = list(view.cards)
    if contract is None:
        return _pass(legal)
    trump = contract.trump
    if trump is None:
        double = _find(legal, Verb.DOUBLE)
        if double is not None and _aces(cards, None) >= 3 and sun_value(cards) >= bot.double_sun:
            return double  # D2
        return _pass(legal)
    trumps = [c for c in cards if c.suit == trump]
    ranks = {c.rank for c in trumps}
    verbs = {a.verb for a in legal}
    if Verb.DOUBLE in verbs:
        strong = (
            len(trumps) >= 3
            and ranks & {_JACK, _NINE}
            and _aces(cards, trump) >= 1
            and defence_value(cards, trump) >= bot.double_hokum
        )
        if strong:
            return _locked(legal, Verb.DOUBLE, True)  # D1
    elif Verb.TRIPLE in verbs:
        if {_JACK, _NINE} <= ranks and hokum_value(cards, trump) >= bot.triple_hokum:
            return _find(legal, Verb.TRIPLE) or _pass(legal)
    elif Verb.FOUR in verbs:
        if defence_value(cards, trump) >= bot.four_hokum:
            return _locked(legal, Verb.FOUR, True)
    elif Verb.GAHWA in verbs and hokum_value(cards, trump) >= bot.gahwa_hokum:
        return _find(legal, Verb.GAHWA) or _pass(legal)
    return _pass(legal)


def _locked(legal: Sequence[Action], verb: Verb, locked: bool) -> Action:
    """The ``verb`` action that is locked (or open) as wished, else any ``verb`` action."""
    options = [a for a in legal if a.verb is verb]
    for action in options:
        if action.locked is locked:
            return action
    return options[0] if options else _pass(legal)


# --------------------------------------------------------------------------- play


def _play(view: SeatView, legal: Sequence[Action]) -> Action:
    """Rules P1–P9."""
    declarations = [a for a in legal if a.verb is Verb.DECLARE]
    if declarations:
        # P1: the most project value, then the most projects; first listed on a tie.
        return max(
            declarations,
            key=lambda a: (sum(c.kind.raw for c in a.claims), len(a.claims)),
        )
    plain: dict[Card, Action] = {}
    ekka: dict[Card, Action] = {}
    for action in legal:
        card = action.card
        if action.verb is Verb.PLAY and card is not None:
            (ekka if action.ekka else plain).setdefault(card, action)
    if not plain:
        return legal[0]
    table = _read_table(view)
    if view.current_trick:
        return plain[_follow(view, table, list(plain))]
    card = _lead(table, list(plain), ekka)
    return ekka.get(card) or plain[card]


def _lead(table: _Table, cards: list[Card], ekka: dict[Card, Action]) -> Card:
    """Rules P2–P5."""
    trump = table.trump
    me = table.me
    opponents = table.opponents()
    opp_trumps = table.tmask and any(table.possible[o] & table.tmask for o in opponents)
    if trump is not None and table.ours and opp_trumps:
        trumps = [c for c in cards if c.suit == trump]
        if trumps:
            top = max(trumps, key=lambda c: strength(c, trump))
            if table.master(top):
                return top  # P2
    sure = [
        c
        for c in cards
        if c.suit != trump and not any(table.can_beat(o, c, c.suit) for o in opponents)
    ]
    if sure:
        # P3: the most points first (an Ace before the Ten it makes master); Ekka first.
        return max(sure, key=lambda c: (points(c, trump), c in ekka, -c.index))
    if trump is not None:
        partner = table.possible[me.partner]
        if partner & table.tmask:
            ruffs = [c for c in cards if c.suit != trump and not partner & c.suit.mask]
            if ruffs:
                return min(ruffs, key=lambda c: (points(c, trump), strength(c, trump)))  # P4

    def cost(card: Card) -> tuple[float, int]:
        length = (table.mine & card.suit.mask).bit_count()
        penalty = 0.0 if trump is None or card.suit != trump else 30.0
        return (points(card, trump) + table.future(card) + penalty - 0.3 * length, card.index)

    return min(cards, key=cost)  # P5


def _follow(view: SeatView, table: _Table, cards: list[Card]) -> Card:
    """Rules P6–P8: the card of highest value for this seat's side, where a card that surely
    wins is worth the points at stake plus the lead minus what it was worth kept, and any
    other card costs its points (to the opponents) plus what it was worth kept."""
    trump = table.trump
    me = table.me
    trick = view.current_trick
    played = [c for _, c in trick]
    position = len(played)
    led = played[0].suit
    w = trick_winner(played, trump)
    win_seat, win_card = trick[w]
    later = [me.after(k) for k in range(1, 4 - position)]
    later_opponents = [s for s in later if s.team != me.team]
    # The cards still to come bring about LATER_CARD points each to whoever wins.
    stake = sum(points(c, trump) for c in played) + LATER_CARD * len(later)

    def holds(card: Card) -> bool:
        return not any(table.can_beat(o, card, led) for o in later_opponents)

    if win_seat == me.partner and holds(win_card):
        # P6: give points that are not worth keeping.
        return max(cards, key=lambda c: (points(c, trump) - table.future(c), -c.index))
    # The partner's card may still be beaten: count on half the stake.
    lost = 0.5 * stake if win_seat == me.partner else -stake

    def value(card: Card) -> float:
        pts = points(card, trump)
        if trick_winner([*played, card], trump) == position and holds(card):
            return stake + pts + LEAD_BONUS - table.future(card)  # P7
        return lost - pts - table.future(card)  # P8

    return max(cards, key=lambda c: (value(c), -strength(c, trump), -c.index))
