"""docs/seat-view.md: ``SeatView.to_json()`` is the ``baloot-view/1`` object, key by key.

Each key is checked against what the spec says it holds, worked out from the hand's actions
(tricks, winners, points, words, what was declared) rather than read back from the engine
where that can be done; ``contract`` and ``result`` must be the very objects that
``baloot replay --json`` prints for the same record; ``known`` is worked out from the text of
R9 trick by trick (not from the engine's rules of play). Every key of the spec's example must
be present, and no other.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from conftest import whole_hands
from hypothesis import given
from hypothesis import strategies as st
from spec_example import ACTIONS, DECK, HAND_JSON

from baloot import (
    Action,
    Card,
    Hand,
    Phase,
    Record,
    Rules,
    Seat,
    SeatView,
    Verb,
    replay,
)
from baloot.core.cards import CARDS

#: The view object of docs/seat-view.md, as the spec prints it.
SPEC_VIEW: dict[str, Any] = {
    "format": "baloot-view/1",
    "seat": "S",
    "dealer": "E",
    "rules": "classic",
    "score_before": {"NS": 0, "EW": 0},
    "phase": "playing",
    "to_act": "S",
    "hand": ["As", "Qs", "Js", "Qd", "Jd", "Qc", "8c", "7c"],
    "held": {"N": 7, "W": 7, "S": 8, "E": 8},
    "exposed": "Jd",
    "taker": "S",
    "contract": {"kind": "hokum", "trump": "d", "declarer": "S", "level": 1, "locked": False},
    "actions": ["N pass", "W pass", "S hokum", "E pass", "N pass", "W pass", "S pass",
                "W pass", "E pass", "N declare sira", "N play 8d", "W play Kd"],
    "bidding": ["N pass", "W pass", "S hokum", "E pass", "N pass", "W pass", "S pass"],
    "doubling": ["W pass", "E pass"],
    "declared": {"N": ["sira"], "W": [], "S": None, "E": None},
    "shown": [],
    "own_projects": [],
    "tricks": [{"leader": "N", "cards": ["8d", "Kd"], "words": ["", ""], "winner": None,
                "points": 0}],
    "known": {
        "N": {"void": [], "no_trump": False, "trump_below": None, "holds": [], "kinds": ["sira"]},
        "W": {"void": [], "no_trump": False, "trump_below": None, "holds": [], "kinds": []},
        "E": {"void": [], "no_trump": False, "trump_below": None, "holds": [], "kinds": []},
    },
    "tricks_won": {"NS": 0, "EW": 0},
    "card_points": {"NS": 0, "EW": 0},
    "legal": ["S play Jd"],
    "question": {"kind": "play", "about": None},
    "result": None,
}  # fmt: skip
#: Every key of the spec's example, exactly.
KEYS = frozenset(SPEC_VIEW)
PHASES = {"bidding-1", "bidding-2", "bidding-3", "trump", "doubling", "playing", "over"}
QUESTION_KINDS = {
    "bid", "take-over-sun", "take-over-ashkal", "sun-over-hokum", "confirm-hokum",
    "third-round", "name-trump", "double", "triple", "four", "gahwa", "play",
}  # fmt: skip
WORDS = {"", "ekka", "baloot", "ekka baloot"}
SEATS = ["N", "W", "S", "E"]
LISTENERS: tuple[Seat | None, ...] = (None, *Seat)
BIDDING_VERBS = {Verb.PASS, Verb.HOKUM, Verb.SUN, Verb.ASHKAL, Verb.KAWESH, Verb.TRUMP}
DOUBLING_VERBS = {Verb.PASS, Verb.DOUBLE, Verb.TRIPLE, Verb.FOUR, Verb.GAHWA}

# R2.2–R2.3, high to low, and card points.
TRUMP_ORDER = "J9ATKQ87"
PLAIN_ORDER = "ATKQJ987"
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def team_of(seat: str) -> str:
    return "NS" if seat in ("N", "S") else "EW"


# --------------------------------------------------------------------------- the expected keys


def expected_tricks(hand: Hand) -> list[dict[str, Any]]:
    """The ``tricks`` list worked out from the play actions (R9.2, R2.2, R2.3)."""
    contract = hand.contract
    trump = None if contract is None or contract.trump is None else contract.trump.letter
    plays = [a for a in hand.actions if a.verb is Verb.PLAY]
    tricks = []
    for start in range(0, len(plays), 4):
        group = plays[start : start + 4]
        cards = [a.card for a in group if a.card is not None]
        entry: dict[str, Any] = {
            "leader": group[0].seat.name,
            "cards": [c.text for c in cards],
            "words": [
                " ".join(w for w, on in (("ekka", a.ekka), ("baloot", a.baloot)) if on)
                for a in group
            ],
            "winner": None,
            "points": 0,
        }
        if len(group) == 4:
            best = 0
            for i, card in enumerate(cards[1:], 1):
                top = cards[best]
                if card.suit == top.suit:
                    order = TRUMP_ORDER if card.suit.letter == trump else PLAIN_ORDER
                    if order.index(card.rank.letter) < order.index(top.rank.letter):
                        best = i
                elif card.suit.letter == trump:
                    best = i
            entry["winner"] = group[best].seat.name
            entry["points"] = sum(
                (TRUMP_POINTS if c.suit.letter == trump else PLAIN_POINTS)[c.rank.letter]
                for c in cards
            ) + (10 if start == 28 else 0)
        tricks.append(entry)
    return tricks


def expected_actions(hand: Hand, listener: Seat | None) -> list[str]:
    """Every action as ``listener`` hears it: another seat's declaration as kinds only."""
    heard = []
    for action in hand.actions:
        if action.verb is Verb.DECLARE and action.seat != listener:
            kinds = " ".join(c.kind.word for c in action.claims)
            heard.append(f"{action.seat.name} declare {kinds}")
        else:
            heard.append(str(action))
    return heard


def expected_declared(hand: Hand) -> dict[str, list[str] | None]:
    """Null until the seat played its first card (or the hand ended without play), then the
    kinds it declared."""
    played = {a.seat for a in hand.actions if a.verb is Verb.PLAY}
    unplayed_end = hand.is_over and not played
    declared: dict[str, list[str] | None] = {}
    for seat in Seat:
        if seat in played or unplayed_end:
            declared[seat.name] = [
                c.kind.word
                for a in hand.actions
                if a.verb is Verb.DECLARE and a.seat == seat
                for c in a.claims
            ]
        else:
            declared[seat.name] = None
    return declared


def expected_rules(rules: Rules, value: object) -> None:
    """``rules`` as in a record: a preset name, or a table of a preset and the flags that
    differ from it."""
    if isinstance(value, str):
        assert Rules.preset(value) == rules
    else:
        assert isinstance(value, dict)
        preset = Rules.preset(value["preset"])
        assert Rules.from_mapping(value) == rules
        assert value.keys() - {"preset"} == rules.changes(preset).keys()


# --------------------------------------------------------------------------- known, from R9


def expected_known(hand: Hand) -> dict[str, dict[str, Any]]:
    """The ``known`` entry of every seat, worked out from the text of R6, R7, R9 and R10.5:
    walking each trick with the cards played so far, who is winning it (R9.2), whether its
    lead is an Ace or an announced Ekka, and the lock and flags in force."""
    contract = hand.contract
    trump = None if contract is None or contract.trump is None else contract.trump.letter
    locked = contract is not None and contract.locked
    rules = hand.rules
    void: dict[str, set[str]] = {s: set() for s in SEATS}
    below: dict[str, list[str]] = {s: [] for s in SEATS}  # trumps it did not beat, bar the J
    kinds: dict[str, list[str]] = {s: [] for s in SEATS}
    for action in hand.actions:
        if action.verb is Verb.DECLARE:
            kinds[action.seat.name] += [c.kind.word for c in action.claims]
    for trick in expected_tricks(hand):
        cards = list(trick["cards"])
        leader = trick["leader"]
        seats = [SEATS[(SEATS.index(leader) + i) % 4] for i in range(len(cards))]
        led = cards[0][1]
        if locked and trump is not None and led == trump:
            void[leader] |= {suit for suit in "shdc" if suit != trump}  # R9.4 (a)
        for i in range(1, len(cards)):
            seat, card = seats[i], cards[i]
            best = 0
            for k in range(1, i):
                if beats(cards[k], cards[best], trump):
                    best = k
            top = cards[best]
            opponent = team_of(seats[best]) != team_of(seat)
            if card[1] == led:
                if led == trump and opponent and not beats(card, top, trump) and top[0] != "J":
                    below[seat].append(top)  # (b): no trump above the one winning
                continue
            void[seat].add(led)  # R9.3, (b), (d): it would have followed
            if trump is None or led == trump:
                continue
            if card[1] == trump:
                if opponent and top[1] == trump and not beats(card, top, trump) and top[0] != "J":
                    below[seat].append(top)  # (d3): it under-trumped
            elif opponent:
                if top[1] != trump or rules.must_undertrump:
                    void[seat].add(trump)  # (d3): it had to trump
                elif top[0] != "J":
                    below[seat].append(top)  # (d3): it could not over-trump
            elif (
                i == 2
                and rules.partner_led_must_trump
                and cards[0][0] != "A"
                and "ekka" not in trick["words"][0]
            ):
                void[seat].add(trump)  # (d2): its partner led: it had to trump
    played = {c for t in expected_tricks(hand) for c in t["cards"]}
    holds: dict[str, set[str]] = {s: set() for s in SEATS}
    if hand.taker is not None and hand.exposed.text not in played:
        holds[hand.taker.name].add(hand.exposed.text)  # R7.1
    shown = hand.shown_projects()
    for project in shown:  # R10.5
        holds[project.seat.name] |= {c.text for c in project.project.cards} - played
    shown_team = team_of(shown[0].seat.name) if shown else None
    order = {c.text: i for i, c in enumerate(CARDS)}
    return {
        s: {
            "void": [suit for suit in "shdc" if suit in void[s]],
            "no_trump": trump is not None and trump in void[s],
            # The lowest: the last in trump order (R2.2).
            "trump_below": max(below[s], key=lambda c: TRUMP_ORDER.index(c[0]))
            if below[s]
            else None,
            "holds": sorted(holds[s], key=order.__getitem__),
            "kinds": [] if team_of(s) == shown_team else kinds[s],
        }
        for s in SEATS
    }


def beats(card: str, top: str, trump: str | None) -> bool:
    """R9.2: ``card`` beats ``top``, the card winning a trick so far."""
    if card[1] == top[1]:
        order = TRUMP_ORDER if card[1] == trump else PLAIN_ORDER
        return order.index(card[0]) < order.index(top[0])
    return card[1] == trump


#: The keys whose value depends on who looks; every other key is the same in every view.
PER_SEAT = frozenset({"seat", "hand", "actions", "own_projects", "legal", "known"})


def check_public(hand: Hand, j: dict[str, Any], summary: dict[str, Any]) -> None:
    """The keys that every view shares, against the spec; ``summary`` is
    ``baloot replay --json``'s entry for the hand."""
    assert j["format"] == "baloot-view/1"
    assert j["dealer"] == hand.dealer.name
    expected_rules(hand.rules, j["rules"])
    assert j["score_before"] == {"NS": hand.score_before[0], "EW": hand.score_before[1]}
    assert j["phase"] in PHASES and j["phase"] == hand.phase.value
    over = j["phase"] == "over"
    assert j["to_act"] == (None if over else summary["to_act"])
    assert list(j["held"]) == SEATS
    assert j["held"] == {s.name: len(hand.hand(s)) for s in Seat}
    on_table = sum(len(t["cards"]) for t in j["tricks"])
    dealt = 32 if hand.full_hand(Seat.N) else 20  # R3.2, R7.2
    assert sum(j["held"].values()) + on_table == dealt
    assert j["exposed"] == hand.exposed.text
    assert j["taker"] == (None if hand.taker is None else hand.taker.name)
    if j["contract"] is None:
        assert j["taker"] is None
    else:  # the taker holds the exposed card (R7.2)
        assert hand.exposed in hand.full_hand(Seat[j["taker"]])
    assert j["contract"] == summary["contract"]
    if j["contract"] is not None:
        assert j["contract"]["kind"] in ("hokum", "sun")
        assert j["contract"]["trump"] in (None, "s", "h", "d", "c")
        assert j["contract"]["level"] in (1, 2, 3, 4, "gahwa")
    n_bid, n_double = len(j["bidding"]), len(j["doubling"])
    actions = hand.actions
    assert j["bidding"] == [str(a) for a in actions[:n_bid]]
    assert j["doubling"] == [str(a) for a in actions[n_bid : n_bid + n_double]]
    assert all(a.verb in BIDDING_VERBS for a in actions[:n_bid])
    assert all(a.verb in DOUBLING_VERBS for a in actions[n_bid : n_bid + n_double])
    rest = actions[n_bid + n_double :]
    assert all(a.verb in (Verb.PLAY, Verb.DECLARE) for a in rest)
    if rest:
        assert n_bid and j["contract"] is not None
    assert j["declared"] == expected_declared(hand)
    assert j["shown"] == [
        {
            "seat": s.seat.name,
            "project": s.project.kind.word,
            "cards": [c.text for c in s.project.cards],
        }
        for s in hand.shown_projects()
    ]
    if sum(1 for a in actions if a.verb is Verb.PLAY) < 4:
        assert j["shown"] == []
    tricks = expected_tricks(hand)
    assert j["tricks"] == tricks
    for trick in j["tricks"]:
        assert set(trick["words"]) <= WORDS
    won = Counter(team_of(t["winner"]) for t in tricks if t["winner"] is not None)
    assert j["tricks_won"] == {"NS": won["NS"], "EW": won["EW"]}
    points = Counter[str]()
    for t in tricks:
        if t["winner"] is not None:
            points[team_of(t["winner"])] += t["points"]
    assert j["card_points"] == {"NS": points["NS"], "EW": points["EW"]}
    if over:
        assert j["question"] is None
    else:
        assert set(j["question"]) == {"kind", "about"}
        assert j["question"]["kind"] in QUESTION_KINDS
        assert j["question"]["about"] in (None, *SEATS)
    assert j["result"] == (summary if over else None)
    if over:
        assert j["result"]["outcome"] in ("played", "annulled")


def check_own(
    hand: Hand, listener: Seat | None, j: dict[str, Any], summary: dict[str, Any]
) -> None:
    """The keys that depend on who looks."""
    assert j["seat"] == (None if listener is None else listener.name)
    assert j["hand"] == ([] if listener is None else [c.text for c in hand.hand(listener)])
    assert j["actions"] == expected_actions(hand, listener)
    if listener is None:
        assert j["own_projects"] == []
    else:
        assert j["own_projects"] == [str(p) for p in hand.projects(listener)]
    if listener is not None and hand.to_act == listener:
        assert j["legal"] == summary["legal"]
        assert j["legal"] == sorted(j["legal"]) and j["legal"]
    else:
        assert j["legal"] == []
    known = expected_known(hand)
    assert j["known"] == {s: known[s] for s in SEATS if listener is None or s != listener.name}
    assert list(j["known"]) == [s for s in SEATS if listener is None or s != listener.name]


def summary_of(hand: Hand) -> dict[str, Any]:
    """``baloot replay --json``'s entry for ``hand``, replayed from its record."""
    entry: dict[str, Any] = replay(Record.of(hand)).to_json()["hands"][0]  # type: ignore[index]
    return entry


def check_all_views(hand: Hand) -> list[dict[str, Any]]:
    """Check the spectator's view and the four seats' (in that order) and return them; the
    keys that do not depend on who looks are the same in all five."""
    summary = summary_of(hand)
    views = []
    for listener in LISTENERS:
        j = SeatView.of(hand, listener).to_json()
        assert json.loads(json.dumps(j)) == j, "not plain JSON values (tuples, enums…)"
        assert set(j) == KEYS
        check_own(hand, listener, j, summary)
        views.append(j)
    spectator = views[0]
    check_public(hand, spectator, summary)
    for view in views[1:]:
        assert {k: v for k, v in view.items() if k not in PER_SEAT} == {
            k: v for k, v in spectator.items() if k not in PER_SEAT
        }
    return views


# --------------------------------------------------------------------------- random hands


def choose(hand: Hand, rng: random.Random, hokum_bias: bool) -> str | Action:
    legal = hand.legal_actions()
    seat = hand.to_act
    assert seat is not None
    if hand.phase is Phase.PLAYING:
        declares = [a for a in legal if a.verb is Verb.DECLARE]
        if declares and rng.random() < 0.8:
            action = rng.choice(declares)
            if rng.random() < 0.5:
                return action
            pool = list(hand.projects(seat))
            named = []
            for claim in action.claims:
                project = next(p for p in pool if p.kind == claim.kind)
                pool.remove(project)
                named.append(str(project))
            return f"{seat.name} declare {' '.join(named)}"
        ekkas = [a for a in legal if a.ekka]
        plain = [a for a in legal if a.verb is Verb.PLAY and not a.ekka]
        play = rng.choice(ekkas) if ekkas and rng.random() < 0.5 else rng.choice(plain)
        return hand.announced(play)
    if hokum_bias and hand.phase.is_bidding:
        hokum = [a for a in legal if a.verb in (Verb.HOKUM, Verb.TRUMP)]
        if hokum and rng.random() < 0.7:
            return rng.choice(hokum)
        passes = [a for a in legal if a.verb is Verb.PASS]
        if passes and rng.random() < 0.85:
            return passes[0]
    return rng.choice(legal)


def random_hand(seed: int) -> tuple[Hand, random.Random, bool]:
    rng = random.Random(seed)
    rules = Rules.random(rng)
    before = (rng.randrange(0, 150), rng.randrange(0, 150)) if rng.random() < 0.3 else (0, 0)
    hand = Hand.new(rng=rng, dealer=rng.choice(list(Seat)), rules=rules, score_before=before)
    return hand, rng, rng.random() < 0.7


@whole_hands()
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_every_view_of_a_random_hand_is_the_spec_object(seed: int) -> None:
    hand, rng, hokum_bias = random_hand(seed)
    check_all_views(hand)
    while not hand.is_over:
        hand.apply(choose(hand, rng, hokum_bias))
        check_all_views(hand)


def test_tricks_of_played_hands_add_up_and_carry_every_word() -> None:
    """Over whole hands the tricks' points add to 162 in Hokum and 130 in Sun (R2.3, the
    last trick's 10 included), and the words occur."""
    words: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for seed in range(150):
        hand, rng, hokum_bias = random_hand(seed)
        while not hand.is_over:
            hand.apply(choose(hand, rng, hokum_bias))
        view = SeatView.of(hand, None).to_json()
        if view["contract"] is None:
            assert view["tricks"] == [] and view["result"]["outcome"] == "annulled"
            continue
        kind = view["contract"]["kind"]
        kinds[kind] += 1
        tricks = view["tricks"]
        assert len(tricks) == 8 and all(t["winner"] in SEATS for t in tricks)
        assert sum(t["points"] for t in tricks) == (162 if kind == "hokum" else 130)
        assert sum(view["card_points"].values()) == (162 if kind == "hokum" else 130)
        assert view["card_points"] == view["result"]["card_points"]
        assert view["tricks_won"] == view["result"]["tricks"]
        assert view["held"] == {s: 0 for s in SEATS}
        for trick in tricks:
            assert all(type(word) is str for word in trick["words"]), "plain JSON strings"
            words.update(trick["words"])
    # "ekka baloot" cannot happen: an Ekka is never on a trump (R9.5), a Baloot always is.
    assert set(words) == WORDS - {"ekka baloot"}, words
    assert kinds["hokum"] and kinds["sun"], kinds


# --------------------------------------------------------------------------- the spec's example


def example_hand(actions: int) -> Hand:
    hand = Hand.from_deck(DECK, dealer="E")
    for text in ACTIONS[:actions]:
        hand.apply(text)
    return hand


def test_the_spec_example_view_of_south() -> None:
    """docs/seat-view.md's example: S to act after "W play Kd" (the record example's first 12
    actions), every key."""
    hand = example_hand(12)
    view = check_all_views(hand)[1 + Seat.S]
    assert view == SPEC_VIEW


def test_the_spec_example_at_each_step() -> None:
    """Every view of every position of the record example conforms, the finished hand's
    ``result`` is the record example's hand object, and declared turns from null to kinds
    with each seat's first card."""
    for n in range(len(ACTIONS) + 1):
        check_all_views(example_hand(n))
    before_lead = SeatView.of(example_hand(10), "E").to_json()
    assert before_lead["actions"][-1] == "N declare sira"
    assert before_lead["declared"] == {"N": None, "W": None, "S": None, "E": None}
    after_lead = SeatView.of(example_hand(11), "E").to_json()
    assert after_lead["declared"] == {"N": ["sira"], "W": None, "S": None, "E": None}
    end = SeatView.of(example_hand(len(ACTIONS)), "E").to_json()
    assert end["result"] == HAND_JSON
    assert end["declared"] == {"N": ["sira"], "W": [], "S": [], "E": []}
    assert end["phase"] == "over" and end["to_act"] is None and end["question"] is None
    assert end["shown"] == [{"seat": "N", "project": "sira", "cards": ["Ah", "Kh", "Qh"]}]
    assert end["tricks"][0] == {
        "leader": "N", "cards": ["8d", "Kd", "Jd", "9d"], "words": ["", "", "", ""],
        "winner": "S", "points": 38,
    }  # fmt: skip
    assert [t["points"] for t in end["tricks"]][-1] == 11 + 3 + 10  # Ah Qc 9s 7h, and the 10


def test_a_spectator_sees_the_public_part() -> None:
    hand = example_hand(12)
    view = SeatView.of(hand, None).to_json()
    assert view["seat"] is None
    assert view["hand"] == [] and view["own_projects"] == [] and view["legal"] == []
    assert view["to_act"] == "S"
    assert view["question"] == {"kind": "play", "about": None}
    south = SeatView.of(hand, "S").to_json()
    assert {k: v for k, v in view.items() if k not in ("seat", "hand", "legal", "known")} == {
        k: v for k, v in south.items() if k not in ("seat", "hand", "legal", "known")
    }
    assert list(view["known"]) == SEATS
    assert {k: v for k, v in view["known"].items() if k != "S"} == south["known"]


# --------------------------------------------------------------------------- other positions

ORDERED = " ".join(c.text for c in CARDS)


def test_an_annulled_hand_declares_nothing_for_everyone() -> None:
    """All pass twice: the hand ends without play, so ``declared`` is ``[]`` for every seat
    and there is no contract; the result is the annulled hand object."""
    hand = Hand.from_deck(ORDERED, dealer="E")
    for _ in range(8):
        seat = hand.to_act
        assert seat is not None
        hand.apply(f"{seat.name} pass")
    views = check_all_views(hand)
    for view in views:
        assert view["phase"] == "over"
        assert view["declared"] == {s: [] for s in SEATS}
        assert view["contract"] is None and view["taker"] is None
        assert view["result"]["outcome"] == "annulled"
        assert view["bidding"] == view["actions"] and view["doubling"] == []


@pytest.mark.parametrize(
    ("calls", "phase", "kind", "about"),
    [
        ([], "bidding-1", "bid", None),
        (["N pass", "W hokum"], "bidding-1", "bid", "W"),
        (["N pass", "W hokum", "S pass", "E pass"], "bidding-1", "sun-over-hokum", "W"),
        (["N pass", "W hokum", "S pass", "E pass", "N pass"], "bidding-1", "confirm-hokum", "W"),
        (["N pass", "W sun"], "bidding-1", "take-over-sun", "W"),
        (["N pass", "W hokum", "S pass", "E pass", "N pass", "W pass"], "doubling", "double", "W"),
        (["N pass", "W pass", "S pass", "E pass", "N hokum"], "bidding-2", "bid", "N"),
        (["N pass", "W pass", "S pass", "E pass", "N hokum", "W pass", "S pass", "E pass"],
         "trump", "name-trump", None),
    ],
)  # fmt: skip
def test_question_kinds_and_about_serialize_as_the_spec_writes_them(
    calls: list[str], phase: str, kind: str, about: str | None
) -> None:
    hand = Hand.from_deck(ORDERED, dealer="E")
    for call in calls:
        hand.apply(call)
    for view in check_all_views(hand):
        assert view["question"] == {"kind": kind, "about": about}
        assert view["phase"] == phase


def test_a_doubled_contract_serializes_its_level_and_lock() -> None:
    hand = Hand.from_deck(ORDERED, dealer="E")
    for call in ("N pass", "W hokum", "S pass", "E pass", "N pass", "W pass", "N double locked"):
        hand.apply(call)
    views = check_all_views(hand)
    assert views[0]["contract"] == {
        "kind": "hokum", "trump": Card.parse(ORDERED.split()[20]).suit.letter,
        "declarer": "W", "level": 2, "locked": True,
    }  # fmt: skip
    assert views[0]["question"] == {"kind": "triple", "about": "N"}
    assert views[0]["doubling"] == ["N double locked"]
