"""The heuristic bot's play: rules P1–P9 of :class:`~baloot.bots.heuristic.HeuristicBot`,
each card with the rules that chose it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from baloot.bots.heuristic.hints import Decision, Param, Why
from baloot.bots.heuristic.inference import Inference, read_inference
from baloot.bots.heuristic.values import KING, QUEEN, points
from baloot.core.actions import Action, Verb
from baloot.core.cards import PLAIN_ABOVE, Card, strength, trick_winner
from baloot.view.seat_view import SeatView

#: What the lead of the next trick is worth, in card points, when deciding to win a trick.
LEAD_BONUS: Final = 2.0
#: The card points each card still to come in a trick brings, on average.
LATER_CARD: Final = 2.5
#: Worth kept (rule P9) from which a card this seat keeps is named in a hint.
KEPT_WORTH: Final = 4.0

Reasons = tuple[Why, ...]


def play(view: SeatView, legal: Sequence[Action]) -> Decision:
    """Rules P1–P9."""
    declarations = [a for a in legal if a.verb is Verb.DECLARE]
    if declarations:
        # P1: the most project value, then the most projects; first listed on a tie.
        best = max(
            declarations,
            key=lambda a: (sum(c.kind.raw for c in a.claims), len(a.claims)),
        )
        projects = " ".join(c.kind.word for c in best.claims)
        return (best, (("P1_declare", {"projects": projects}),))
    plain: dict[Card, Action] = {}
    ekka: dict[Card, Action] = {}
    for action in legal:
        card = action.card
        if action.verb is Verb.PLAY and card is not None:
            (ekka if action.ekka else plain).setdefault(card, action)
    if not plain:
        return (legal[0], (("default", {}),))
    known = read_inference(view)
    if view.current_trick:
        card, why = _follow(view, known, list(plain))
        return (plain[card], why)
    card, why = _lead(known, list(plain), ekka)
    announced = ekka.get(card)
    if announced is not None:
        return (announced, (*why, ("P3_ekka", {"card": card})))
    return (plain[card], why)


def _lead(known: Inference, cards: list[Card], ekka: dict[Card, Action]) -> tuple[Card, Reasons]:
    """Rules P2–P5."""
    trump = known.trump
    me = known.me
    opponents = known.opponents()
    opp_trumps = known.tmask and any(known.possible[o] & known.tmask for o in opponents)
    if trump is not None and known.ours and opp_trumps:
        trumps = [c for c in cards if c.suit == trump]
        if trumps:
            top = max(trumps, key=lambda c: strength(c, trump))
            if known.master(top):
                return top, (("P2_draw_trumps", {"card": top}),)
    sure = [
        c
        for c in cards
        if c.suit != trump and not any(known.can_beat(o, c, c.suit) for o in opponents)
    ]
    if sure:
        # P3: the most points first (an Ace before the Ten it makes master); Ekka first.
        card = max(sure, key=lambda c: (points(c, trump), c in ekka, -c.index))
        return card, (("P3_cash", {"card": card}),)
    if trump is not None:
        partner = known.possible[me.partner]
        if partner & known.tmask:
            ruffs = [c for c in cards if c.suit != trump and not partner & c.suit.mask]
            if ruffs:
                card = min(ruffs, key=lambda c: (points(c, trump), strength(c, trump)))
                params: dict[str, Param] = {"card": card, "seat": me.partner, "suit": card.suit}
                return card, (("P4_lead_for_ruff", params),)

    worth = {c: known.future(c) for c in cards}

    def cost(card: Card) -> tuple[float, int]:
        length = (known.mine & card.suit.mask).bit_count()
        penalty = 0.0 if trump is None or card.suit != trump else 30.0
        return (points(card, trump) + worth[card] + penalty - 0.3 * length, card.index)

    card = min(cards, key=cost)
    return card, (("P5_lead_cheap", {"card": card}), *_kept(known, card, worth))


def _follow(view: SeatView, known: Inference, cards: list[Card]) -> tuple[Card, Reasons]:
    """Rules P6–P8: the card of highest value for this seat's side, where a card that surely
    wins is worth the points at stake plus the lead minus what it was worth kept, and any
    other card costs its points (to the opponents) plus what it was worth kept."""
    trump = known.trump
    me = known.me
    trick = view.current_trick
    played = [c for _, c in trick]
    position = len(played)
    led = played[0].suit
    w = trick_winner(played, trump)
    win_seat, win_card = trick[w]
    later = [me.after(k) for k in range(1, 4 - position)]
    later_opponents = [s for s in later if s.team != me.team]
    on_table = sum(points(c, trump) for c in played)
    # The cards still to come bring about LATER_CARD points each to whoever wins.
    stake = on_table + LATER_CARD * len(later)
    worth = {c: known.future(c) for c in cards}

    def holds(card: Card) -> bool:
        return not any(known.can_beat(o, card, led) for o in later_opponents)

    partner = me.partner
    if win_seat == partner and holds(win_card):
        # P6: give points that are not worth keeping.
        card = max(cards, key=lambda c: (points(c, trump) - worth[c], -c.index))
        given = points(card, trump)
        if given:
            params: dict[str, Param] = {"card": card, "seat": partner, "points": given}
            why = ("P6_give_points", params)
        else:
            why = ("P6_play_low", {"card": card, "seat": partner})
        return card, (why, *_kept(known, card, worth))
    # The partner's card may still be beaten: count on half the stake.
    lost = 0.5 * stake if win_seat == partner else -stake
    values: dict[Card, float] = {}
    winners: list[Card] = []
    for card in cards:
        pts = points(card, trump)
        if trick_winner([*played, card], trump) == position and holds(card):
            values[card] = stake + pts + LEAD_BONUS - worth[card]  # P7
            winners.append(card)
        else:
            values[card] = lost - pts - worth[card]  # P8

    def rank(c: Card) -> tuple[float, int, int]:
        return (values[c], -strength(c, trump), -c.index)

    card = max(cards, key=rank)
    if card in winners:
        taken = on_table + points(card, trump)
        if card.suit == trump and led != trump:
            return card, (("P7_ruff", {"card": card, "suit": led, "points": taken}),)
        return card, (("P7_win_cheaply", {"card": card, "points": taken}),)
    if winners:
        winner = max(winners, key=rank)
        why = ("P8_duck", {"card": card, "winner": winner})
    elif card.suit != led and card.suit != trump:
        why = ("P8_discard", {"card": card, "suit": led})
    else:
        why = ("P8_play_low", {"card": card})
    return card, (why, *_kept(known, card, worth))


def _kept(known: Inference, chosen: Card, worth: dict[Card, float]) -> Reasons:
    """Rule P9 in a hint: the card of most worth kept among the other choices, when it is
    worth naming, or the void that giving up a Hokum singleton makes."""
    if worth[chosen] < 0:
        return (("P9_make_void", {"card": chosen, "suit": chosen.suit}),)
    top: Card | None = None
    for card, value in worth.items():
        if card is not chosen and value >= KEPT_WORTH and (top is None or value > worth[top]):
            top = card
    if top is None:
        return ()
    if top.suit == known.trump:
        pair = known.baloot_pair()
        kept_pair = known.mine & pair == pair and not pair >> chosen.index & 1
        if top.rank in (KING, QUEEN) and kept_pair:
            pair_cards = (top, _pair_of(top)) if top.rank == KING else (_pair_of(top), top)
            return (("P9_keep_baloot", {"cards": pair_cards}),)
        return (("P9_keep_trump", {"card": top}),)
    if not known.opp_possible() & PLAIN_ABOVE[top.index]:
        return (("P9_keep_master", {"card": top}),)
    return (("P9_keep_honour", {"card": top}),)


def _pair_of(card: Card) -> Card:
    """The other card of the Baloot pair."""
    return Card(card.suit, QUEEN if card.rank == KING else KING)
