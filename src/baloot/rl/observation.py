"""The observation: one seat's view of a hand as a flat float32 vector of a versioned layout.

The vector is built from a :class:`~baloot.view.seat_view.SeatView` and from nothing else, so
it can hold no card the seat may not know: the view is the wire. Seats are written relative
to the observer (0 = itself, 1 = the next to play, 2 = its partner, 3 = the one before it)
and teams as (its own, the other), so one network plays every seat. Every value lies in
[0, 1]. The layout is :data:`LAYOUT` at version :data:`VERSION`; a change of any slice's
size, place or meaning is a new version (``docs/rl.md`` lists every slice).

The bidding is written as OpenSpiel's bridge writes an auction: not a sequence, but for each
call who made it (here for each round, as Baloot's rounds repeat the same calls), with the
seats that passed before the first bid; the doubling as who called each step.

>>> import random
>>> from baloot.core.hand import Hand
>>> hand = Hand.new(rng=random.Random(1), dealer="E")
>>> vector = encode(SeatView.of(hand, "N"))
>>> vector.shape, vector.dtype, SIZE
((988,), dtype('float32'), 988)
>>> int(vector[OFFSETS["own_cards"] : OFFSETS["own_cards"] + 32].sum())
5
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from baloot.core.actions import Verb
from baloot.core.match import TARGET
from baloot.core.projects import ProjectKind
from baloot.core.rules import CHOICES, Rules
from baloot.core.seats import Seat
from baloot.core.vocabulary import Level, Phase, QuestionKind
from baloot.view.seat_view import SeatView

#: The layout's version: part of every dataset and model that uses the vector.
VERSION: Final = 1

Vector = npt.NDArray[np.float32]
#: A seat's place relative to the observer.
_Rel = Callable[[Seat], int]

_PHASES: Final = tuple(Phase)
_QUESTIONS: Final = tuple(QuestionKind)
_BIDS: Final = (Verb.PASS, Verb.HOKUM, Verb.SUN, Verb.ASHKAL, Verb.KAWESH)
_STEPS: Final = (Verb.DOUBLE, Verb.TRIPLE, Verb.FOUR, Verb.GAHWA)
_ROUNDS: Final = 3
#: The rule flags that are booleans, then each other flag's choices, in field order.
_BOOL_FLAGS: Final = tuple(f.name for f in fields(Rules) if f.name not in CHOICES)
_CHOICE_FLAGS: Final = tuple((f.name, CHOICES[f.name]) for f in fields(Rules) if f.name in CHOICES)
#: Match totals are written divided by this, and at most 1.
SCORE_SCALE: Final = 2 * TARGET


@dataclass(frozen=True, slots=True)
class Slice:
    """One named part of the vector: its size and what it means."""

    name: str
    size: int
    meaning: str


LAYOUT: Final = (
    Slice("seat", 4, "the observer's own seat N, W, S, E (one-hot)"),
    Slice("dealer", 4, "the dealer, relative seat (one-hot)"),
    Slice("phase", len(_PHASES), "bidding-1, bidding-2, bidding-3, trump, doubling, playing, over"),
    Slice("to_act", 4, "the seat to act, relative (one-hot; zero when the hand is over)"),
    Slice("question", len(_QUESTIONS), "what the seat to act is asked (one-hot, QuestionKind order)"),
    Slice("question_about", 4, "the seat the question is about, relative (one-hot)"),
    Slice("own_cards", 32, "the cards the observer holds now (card order)"),
    Slice("held", 4, "how many cards each relative seat holds, / 8"),
    Slice("exposed", 32, "the exposed card (one-hot)"),
    Slice("taker", 4, "the seat that took the exposed card, relative (one-hot)"),
    Slice("bidding", _ROUNDS * 4 * len(_BIDS), "round × relative seat × call (pass, hokum, sun, ashkal, kawesh): made it"),
    Slice("opening_passes", 4, "the relative seats that passed before the first bid"),
    Slice("contract_kind", 2, "hokum, sun"),
    Slice("trump", 4, "the trump suit s, h, d, c (one-hot)"),
    Slice("declarer", 4, "the declarer, relative (one-hot)"),
    Slice("level", len(Level), "the doubling level 1, 2, 3, 4, gahwa (one-hot)"),
    Slice("locked", 1, "the contract is locked"),
    Slice("doubling", len(_STEPS) * 4, "step (double, triple, four, gahwa) × relative seat: called it"),
    Slice("doubling_passes", 4, "the relative seats that passed in the doubling"),
    Slice("doubling_locks", 2, "the double was locked, the four was locked"),
    Slice("played", 4 * 32, "relative seat × card: the cards each seat played"),
    Slice("trick", 4 * 32, "relative seat × card: the card each seat put on the trick in progress"),
    Slice("trick_leader", 4, "who led the trick in progress, relative (one-hot)"),
    Slice("trick_words", 4 * 2, "relative seat × (ekka, baloot): said with its card of the trick"),
    Slice("trick_number", 1, "completed tricks / 8"),
    Slice("tricks_won", 2, "tricks taken by (own team, other team) / 8"),
    Slice("card_points", 2, "card points taken by (own team, other team) / 162"),
    Slice("declared", 4 * 5, "relative seat × (has declared or let the chance go, then sira, fifty, hundred, four-hundred count / 2)"),
    Slice("shown", 4 * 32, "relative seat × card: the cards of the projects it showed"),
    Slice("own_projects", len(ProjectKind), "the observer's projects: count of each kind / 2"),
    Slice("known_excluded", 3 * 32, "others (relative seats 1–3) × card: cards the history proves it cannot hold"),
    Slice("known_void", 3 * 4, "others × suit: suits it cannot hold"),
    Slice("known_no_trump", 3, "others: it holds no trump"),
    Slice("known_trump_below", 3 * 32, "others × card: the trump it was bound to beat and did not (one-hot)"),
    Slice("known_holds", 3 * 32, "others × card: hidden cards it surely holds"),
    Slice("known_kinds", 3 * len(ProjectKind), "others × kind: declared kinds not shown, count / 2"),
    Slice("score", 2, f"match totals before the hand (own team, other team) / {SCORE_SCALE}, at most 1"),
    Slice("rules", len(_BOOL_FLAGS) + sum(len(c) for _, c in _CHOICE_FLAGS), "the rule flags: each boolean flag, then each other flag's choice one-hot, in Rules field order"),
)  # fmt: skip

#: Where each slice begins, by name.
OFFSETS: Final = {part.name: sum(p.size for p in LAYOUT[:i]) for i, part in enumerate(LAYOUT)}
#: The length of the vector.
SIZE: Final = sum(part.size for part in LAYOUT)

_O: Final = OFFSETS


@lru_cache(maxsize=64)
def rules_vector(rules: Rules) -> Vector:
    """The ``rules`` slice of ``rules`` (kept: a run asks for the same rules again and again;
    the array is shared, never written)."""
    values = [1.0 if getattr(rules, name) else 0.0 for name in _BOOL_FLAGS]
    for name, choices in _CHOICE_FLAGS:
        chosen = getattr(rules, name)
        values.extend(1.0 if chosen == choice else 0.0 for choice in choices)
    vector = np.array(values, np.float32)
    vector.flags.writeable = False
    return vector


def encode(view: SeatView, out: Vector | None = None) -> Vector:
    """The observation of ``view`` (a seat's, not a spectator's), written into ``out`` when
    given (it is cleared first) or into a new array."""
    me = view.seat
    if me is None:
        raise ValueError("an observation is a seat's: a spectator's view has no seat")
    v = np.zeros(SIZE, np.float32) if out is None else out
    if out is not None:
        v.fill(0.0)

    def rel(seat: Seat) -> int:
        return (seat - me) & 3

    mine = me.team
    v[_O["seat"] + me] = 1
    v[_O["dealer"] + rel(view.dealer)] = 1
    v[_O["phase"] + _PHASES.index(view.phase)] = 1
    if view.to_act is not None:
        v[_O["to_act"] + rel(view.to_act)] = 1
    if view.question is not None:
        v[_O["question"] + _QUESTIONS.index(view.question.kind)] = 1
        if view.question.about is not None:
            v[_O["question_about"] + rel(view.question.about)] = 1
    for card in view.cards:
        v[_O["own_cards"] + card.index] = 1
    for seat in Seat:
        v[_O["held"] + rel(seat)] = view.held[seat] / 8
    v[_O["exposed"] + view.exposed.index] = 1
    if view.taker is not None:
        v[_O["taker"] + rel(view.taker)] = 1
    _bidding(view, v, rel)
    _contract(view, v, rel)
    _play(view, v, rel)
    own, other = (0, 1) if mine == 0 else (1, 0)
    v[_O["tricks_won"]] = view.tricks_won[own] / 8
    v[_O["tricks_won"] + 1] = view.tricks_won[other] / 8
    v[_O["card_points"]] = view.card_points[own] / 162
    v[_O["card_points"] + 1] = view.card_points[other] / 162
    _projects(view, v, rel)
    _known(view, v, rel)
    v[_O["score"]] = min(view.score_before[own] / SCORE_SCALE, 1.0)
    v[_O["score"] + 1] = min(view.score_before[other] / SCORE_SCALE, 1.0)
    flags = rules_vector(view.rules)
    v[_O["rules"] : _O["rules"] + len(flags)] = flags
    return v


def _bidding(view: SeatView, v: Vector, rel: _Rel) -> None:
    """The calls by round (a round after four passes in a row), and the opening passes."""
    calls = view.bidding
    rounds = 0
    while (
        rounds < _ROUNDS - 1
        and len(calls) > 4 * (rounds + 1)
        and all(c.verb is Verb.PASS for c in calls[4 * rounds : 4 * rounds + 4])
    ):
        rounds += 1
    opened = False
    for i, call in enumerate(calls):
        if call.verb in _BIDS:
            rnd = min(i // 4, rounds)
            place = (rnd * 4 + rel(call.seat)) * len(_BIDS) + _BIDS.index(call.verb)
            v[_O["bidding"] + place] = 1
        if call.verb is Verb.PASS and not opened:
            v[_O["opening_passes"] + rel(call.seat)] = 1
        elif call.verb is not Verb.PASS:
            opened = True
    for answer in view.doubling:
        if answer.verb is Verb.PASS:
            v[_O["doubling_passes"] + rel(answer.seat)] = 1
            continue
        if answer.verb in _STEPS:
            v[_O["doubling"] + _STEPS.index(answer.verb) * 4 + rel(answer.seat)] = 1
        if answer.locked:
            v[_O["doubling_locks"] + (answer.verb is Verb.FOUR)] = 1


def _contract(view: SeatView, v: Vector, rel: _Rel) -> None:
    contract = view.contract
    if contract is None:
        return
    v[_O["contract_kind"] + (contract.trump is None)] = 1
    if contract.trump is not None:
        v[_O["trump"] + contract.trump] = 1
    v[_O["declarer"] + rel(contract.declarer)] = 1
    v[_O["level"] + contract.level - 1] = 1
    v[_O["locked"]] = 1 if contract.locked else 0


def _play(view: SeatView, v: Vector, rel: _Rel) -> None:
    for trick in view.tricks:
        for play in trick.plays:
            if play.card is not None:
                v[_O["played"] + rel(play.seat) * 32 + play.card.index] = 1
    v[_O["trick_number"]] = view.trick_number / 8
    if view.tricks and view.tricks[-1].winner is None:
        trick = view.tricks[-1]
        v[_O["trick_leader"] + rel(trick.leader)] = 1
        for play in trick.plays:
            r = rel(play.seat)
            if play.card is not None:
                v[_O["trick"] + r * 32 + play.card.index] = 1
            v[_O["trick_words"] + r * 2] = play.ekka
            v[_O["trick_words"] + r * 2 + 1] = play.baloot


def _projects(view: SeatView, v: Vector, rel: _Rel) -> None:
    for seat, kinds in zip(Seat, view.declared, strict=True):
        if kinds is None:
            continue
        base = _O["declared"] + rel(seat) * 5
        v[base] = 1
        for kind in kinds:
            v[base + kind] += 0.5
    for shown in view.shown:
        for card in shown.project.cards:
            v[_O["shown"] + rel(shown.seat) * 32 + card.index] = 1
    for project in view.own_projects:
        v[_O["own_projects"] + project.kind - 1] += 0.5


def _known(view: SeatView, v: Vector, rel: _Rel) -> None:
    for seat, known in view.known.items():
        other = rel(seat) - 1
        if other < 0:
            continue
        for card in known.excluded:
            v[_O["known_excluded"] + other * 32 + card.index] = 1
        for suit in known.void:
            v[_O["known_void"] + other * 4 + suit] = 1
        v[_O["known_no_trump"] + other] = known.no_trump
        if known.trump_below is not None:
            v[_O["known_trump_below"] + other * 32 + known.trump_below.index] = 1
        for card in known.holds:
            v[_O["known_holds"] + other * 32 + card.index] = 1
        for kind in known.kinds:
            v[_O["known_kinds"] + other * 4 + kind - 1] += 0.5
