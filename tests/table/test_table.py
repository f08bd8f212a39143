"""The table model: a match and who sits where, driven by events (as docs/table-protocol.md
tells them).

Decisions go through the engine's door (nothing applied when refused), bots decide through
the same table, the next hand waits for the humans, undo takes back a human's decision with
the bots' answers after it, Sawa is offered only when sure, and a record resumes exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from helpers import build_deck

from baloot import (
    Action,
    Hand,
    IllegalActionError,
    Match,
    NotationError,
    Phase,
    Rules,
    Seat,
    SeatView,
    Verb,
    dumps,
    loads,
    replay,
)
from baloot.bots import RandomBot, make_bot
from baloot.core.cards import CARDS, Card, CardSet, Suit
from baloot.core.claim import Unseen, sure_of_every_trick
from baloot.core.rules import FirstLead
from baloot.table import EventKind, Player, Table, WaitKind


class First:
    """Always the first legal action: a bot whose choices a test can foresee."""

    name = "first"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return legal[0]


class Passer:
    """Passes whenever it may, else plays the first legal action."""

    name = "passer"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return next((a for a in legal if a.verb is Verb.PASS), legal[0])


def one_human(seed: int = 4, rules: Rules | None = None, human: Seat = Seat.S) -> Table:
    players = {seat: Player.bot("random") for seat in Seat}
    players[human] = Player.human("Saad")
    bots = {seat: RandomBot(random.Random(seed * 8 + int(seat))) for seat in Seat}
    return Table.new(players, bots, rules, seed=seed)


def play_to_the_end_of_the_hand(table: Table) -> None:
    """South answers with its first legal action, the bots with theirs, to the hand's end."""
    while table.waiting().kind is not WaitKind.NEXT:
        if table.waiting().kind is WaitKind.HUMAN:
            table.submit(Seat.S, table.hand.legal_actions()[0])
        else:
            table.play_bot()


def run_bots(table: Table) -> None:
    while table.waiting().kind is WaitKind.BOT:
        table.play_bot()


def test_a_table_of_bots_plays_a_whole_match_whose_record_replays() -> None:
    players = {seat: Player.bot("random") for seat in Seat}
    bots = {seat: RandomBot(random.Random(int(seat))) for seat in Seat}
    table = Table.new(players, bots, Rules.federation(), seed=9)
    versions: list[int] = []
    while (waiting := table.waiting()).kind is not WaitKind.OVER:
        events = table.deal() if waiting.kind is WaitKind.NEXT else table.play_bot()
        versions.extend(e.v for e in events)
    assert versions == list(range(1, len(versions) + 1)), "v numbers the history without gaps"
    record = loads(dumps(table.record()))
    assert record.metadata["players"] == {s.name: "bot:random" for s in Seat}
    assert record.metadata["x_seed"] == 9
    result = replay(record)
    assert result.winner == table.match.winner and result.totals == table.match.totals


def test_a_decision_is_checked_by_the_engine_and_nothing_is_applied_when_refused() -> None:
    table = one_human()
    run_bots(table)
    waiting = table.waiting()
    assert waiting.kind is WaitKind.HUMAN and waiting.seat is Seat.S
    before = table.hand.actions
    with pytest.raises(NotationError):
        table.submit(Seat.S, "S fly")
    with pytest.raises(IllegalActionError) as refused:
        table.submit(Seat.S, "S play As")
    assert refused.value.code == "play_before_play"
    assert table.hand.actions == before and table.version == len(before)
    events = table.submit(Seat.S, "S pass")
    assert [e.kind for e in events] == [EventKind.ACTION]
    assert events[0].action == Action.parse("S pass") and events[0].hand == 1


def test_a_submitted_decision_is_checked_once_and_a_refused_one_keeps_its_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table checks a human's decision (to say why it is refused) and applies what the
    engine checked: the rules are gone through once, a call's and a card's alike."""
    table = one_human()
    rules_gone_through: list[str] = []
    verify, play_mask = Hand._verify, Hand._play_mask

    def counted_verify(hand: Hand, action: Action) -> object:
        rules_gone_through.append("verify")
        return verify(hand, action)

    def counted_play_mask(hand: Hand, s: int) -> int:
        rules_gone_through.append("play mask")
        return play_mask(hand, s)

    monkeypatch.setattr(Hand, "_verify", counted_verify)
    monkeypatch.setattr(Hand, "_play_mask", counted_play_mask)
    while table.waiting().kind is not WaitKind.NEXT:
        if table.waiting().kind is WaitKind.BOT:
            table.play_bot()
            continue
        with pytest.raises(IllegalActionError) as refused:
            table.submit(Seat.S, "S double" if table.hand.phase is Phase.PLAYING else "S play 7s")
        assert refused.value.code in ("play_now", "play_before_play")
        action = table.hand.legal_actions()[0]
        rules_gone_through.clear()
        table.submit(Seat.S, action)
        once = ["verify", "play mask"] if action.verb is Verb.PLAY else ["verify"]
        assert rules_gone_through == once, f"{action}: {rules_gone_through}"


def test_a_seat_may_not_act_in_another_seats_name() -> None:
    table = one_human()
    run_bots(table)
    with pytest.raises(IllegalActionError) as refused:
        table.submit(Seat.N, "S pass")
    assert refused.value.code == "not_your_seat"
    assert refused.value.params == {"seat": "N", "other": "S"}


def test_the_seat_an_action_names_is_checked_before_anything_else_of_it() -> None:
    """Another seat's name is ``not_your_seat`` whatever follows it and whoever is to act; an
    action in the seat's own name is then the engine's to judge (the turn before the verb)."""
    table = one_human()
    run_bots(table)
    table.submit(Seat.S, "S pass")
    assert table.waiting().kind is WaitKind.BOT
    before = table.hand.actions
    for text in ("W garbage", "N#x pass", "E pass"):
        with pytest.raises(IllegalActionError) as refused:
            table.submit(Seat.S, text)
        assert refused.value.code == "not_your_seat", text
    with pytest.raises(IllegalActionError) as refused:
        table.submit(Seat.S, Action.parse("W pass"))
    assert refused.value.params == {"seat": "S", "other": "W"}
    with pytest.raises(IllegalActionError) as refused:
        table.submit(Seat.S, "S fly")
    assert refused.value.code == "not_your_turn"
    with pytest.raises(NotationError):
        table.submit(Seat.S, "X pass")
    assert table.hand.actions == before


def test_a_change_of_seat_takes_its_place_in_the_history_and_changes_no_play() -> None:
    table = one_human()
    run_bots(table)
    before, waiting, version = table.hand.actions, table.waiting(), table.version
    (event,) = table.note_seat(Seat.S)
    assert (event.v, event.kind, event.seat, event.action) == (
        version + 1, EventKind.SEAT, Seat.S, None
    )  # fmt: skip
    assert table.version == event.v
    assert table.hand.actions == before and table.waiting() == waiting
    assert table.submit(Seat.S, "S pass")[0].v == event.v + 1


def test_the_next_hand_waits_until_every_human_is_ready() -> None:
    table = one_human(seed=2)
    play_to_the_end_of_the_hand(table)
    assert table.awaiting_next == (Seat.S,)
    assert len(table.match.hands) == 1
    with pytest.raises(IllegalActionError):
        table.submit(Seat.S, "S pass")
    events = table.ready(Seat.S)
    assert [e.kind for e in events] == [EventKind.DEAL] and table.hand_number == 2
    with pytest.raises(IllegalActionError) as early:
        table.ready(Seat.S)
    assert early.value.code == "not_hand_over"


def test_undo_takes_back_the_humans_last_decision_and_the_bots_answers_after_it() -> None:
    table = one_human(seed=6)
    run_bots(table)
    before = table.hand.actions
    first = table.hand.legal_actions()[0]
    table.submit(Seat.S, first)
    run_bots(table)
    assert len(table.hand.actions) > len(before) + 1, "the bots answered"
    events = table.undo(Seat.S)
    assert [e.kind for e in events] == [EventKind.UNDO]
    assert table.hand.actions == before
    assert table.waiting().seat is Seat.S and first in table.hand.legal_actions()
    assert table.record().hands[0].actions == [str(a) for a in before]


def test_undo_never_reaches_back_across_the_end_of_a_hand() -> None:
    table = one_human(seed=2)
    play_to_the_end_of_the_hand(table)
    played = list(table.hand.actions)
    for moment in ("over", "next dealt"):
        with pytest.raises(IllegalActionError) as error:
            table.undo(Seat.S)
        assert error.value.code == ("hand_over" if moment == "over" else "nothing_to_undo")
        assert table.match.hands[0].actions == played
        if moment == "over":
            table.ready(Seat.S)
            run_bots(table)
    assert table.hand_number == 2


def test_a_stored_undo_across_a_deal_deals_the_same_deck_again() -> None:
    """A table kept before undo stopped at the end of a hand comes back as it was played."""
    table = one_human(seed=2)
    play_to_the_end_of_the_hand(table)
    table.ready(Seat.S)
    deck = table.hand.deck
    run_bots(table)
    table.undo_stored(Seat.S)
    assert table.hand_number == 1 and not table.hand.is_over
    play_to_the_end_of_the_hand(table)
    table.ready(Seat.S)
    assert table.hand.deck == deck, "the same next deck is dealt again"


def test_undo_and_hints_are_only_for_a_table_with_one_human() -> None:
    players = {seat: Player.human(seat.name) for seat in Seat}
    table = Table.new(players, {seat: First() for seat in Seat}, seed=1)
    table.submit(table.hand.to_act or Seat.N, table.hand.legal_actions()[0])
    for refused in (lambda: table.undo(Seat.N), table.check_hint_allowed):
        with pytest.raises(IllegalActionError) as error:
            refused()
        assert error.value.code == "not_allowed"


def test_nothing_to_undo_before_the_human_decided() -> None:
    table = one_human()
    with pytest.raises(IllegalActionError) as error:
        table.undo(Seat.S)
    assert error.value.code == "nothing_to_undo"


# ---------------------------------------------------------------------- Sawa


ALL_SPADES = {
    "S": "As Ks Qs Js Ts 9s 8s 7s",
    "N": "Ah Kh Qh Jh Th 9h 8h 7h",
    "W": "Ad Kd Qd Jd Td 9d 8d 7d",
    "E": "Ac Kc Qc Jc Tc 9c 8c 7c",
}


def sun_table(hands: dict[str, str], taker: str, exposed: str) -> Table:
    """S declares Sun and leads (first_lead = declarer): a table where S is the human."""
    deck = build_deck(hands, taker=taker, exposed=exposed)
    rules = Rules(first_lead=FirstLead.DECLARER)
    match = Match(rules, Seat.E)
    match.deal(deck)
    players = {seat: Player.bot("passer") for seat in Seat}
    players[Seat.S] = Player.human("Saad")
    table = Table(match, players, {seat: Passer() for seat in Seat}, seed=1)
    run_bots(table)  # N and W pass
    table.submit(Seat.S, "S sun")
    run_bots(table)  # nobody takes the Sun over
    return table


def test_sawa_plays_out_the_rest_when_the_claimants_cards_are_sure() -> None:
    table = sun_table(ALL_SPADES, taker="S", exposed="7s")
    assert table.hand.phase is Phase.PLAYING and table.waiting().seat is Seat.S
    assert table.claim_holds(Seat.S)
    events = table.claim(Seat.S)
    hand = table.hand
    assert hand.is_over and events[-1].kind is EventKind.HAND_OVER
    assert hand.tricks_won == (8, 0)
    leads = [t.plays[0] for t in hand.tricks()]
    assert [p.card.text for p in leads if p.card] == [
        "As",
        "Ts",
        "Ks",
        "Qs",
        "Js",
        "9s",
        "8s",
        "7s",
    ]


def test_a_claim_that_is_not_sure_is_refused_and_changes_nothing() -> None:
    hands = dict(ALL_SPADES)
    hands["S"], hands["E"] = "As Ks Qs Js Ts 9s 8s 7c", "Ac Kc Qc Jc Tc 9c 8c 7s"
    table = sun_table(hands, taker="S", exposed="8s")
    assert not table.claim_holds(Seat.S)
    before = table.hand.actions
    with pytest.raises(IllegalActionError) as refused:
        table.claim(Seat.S)
    assert refused.value.code == "claim_not_proven"
    assert table.hand.actions == before


def test_a_claim_offered_is_won_whatever_the_others_play() -> None:
    """Soundness: wherever the claim test says yes, random legal play of the other three
    (not only their bots) never takes a trick from the claimant."""
    checked = 0
    for seed in range(150):
        rng = random.Random(seed)
        hand = Hand.new(rng=rng, rules=Rules.random(rng))
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            if hand.phase is Phase.PLAYING and not hand.current_trick and hand.trick_number < 7:
                view = SeatView.of(hand, seat)
                contract = view.contract
                assert contract is not None
                others = view.others_unseen()
                sure = sure_of_every_trick(view.cards, others, view.trump, contract.locked)
                # What the history proves only adds sure claims: it never takes one away.
                blind = [Unseen(view.unseen, 8, CardSet())] * 3
                assert sure or not sure_of_every_trick(
                    view.cards, blind, view.trump, contract.locked
                )
                if sure:
                    checked += 1
                    for trial in range(4):
                        assert_claim_wins(hand.copy(), seat, random.Random(seed * 10 + trial))
            legal = hand.legal_actions()
            calls = [a for a in legal if a.verb is Verb.HOKUM]
            hand.apply(calls[0] if calls and rng.random() < 0.5 else rng.choice(legal))
    assert checked >= 20, f"only {checked} sure claims met: the test saw too few"


def test_a_claim_is_weighed_against_what_the_history_proves() -> None:
    """The other seats a claim is weighed against are bounded by the engine's knowledge: a
    seat that showed a void may hold none of that suit, the taker holds the exposed card,
    and each holds as many cards as it has."""
    hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
    for action in ("N sun", "N play As", "W play Js", "S play 8s", "E play Kh"):
        hand.apply(action)
    view = SeatView.of(hand, Seat.W)
    bounds = dict(zip(view.known, view.others_unseen(), strict=True))
    assert not any(card.suit is Suit.SPADES for card in bounds[Seat.E].possible)
    assert Card.parse("Td") in bounds[Seat.N].holds  # North took the exposed card
    assert Card.parse("Td") not in bounds[Seat.E].possible
    assert [bounds[s].count for s in (Seat.N, Seat.S, Seat.E)] == [7, 7, 7]


def assert_claim_wins(hand: Hand, claimant: Seat, rng: random.Random) -> None:
    from baloot.core.claim import claim_order

    order = claim_order(hand.hand(claimant), hand.contract.trump if hand.contract else None)
    start = hand.trick_number
    while not hand.is_over:
        legal = hand.legal_actions()
        if hand.to_act == claimant:
            play = next(a for c in order for a in legal if a.card == c and not a.ekka)
        else:
            play = rng.choice([a for a in legal if a.verb is Verb.PLAY])
        hand.apply(play)
    for trick in hand.tricks()[start:]:
        assert trick.winner == claimant, (str(trick.plays), claimant)


# ---------------------------------------------------------------------- resuming


def test_a_resumed_seat_the_record_does_not_name_is_labelled_by_the_bot_seated_there() -> None:
    bots = {seat: make_bot("random", random.Random(int(seat))) for seat in Seat}
    players = {seat: Player.bot("random") for seat in Seat}
    table = Table.new(players, bots, seed=4)
    table.play_bot()
    record = loads(dumps(table.record()))
    del record.metadata["players"]["E"]
    resumed = Table.resume(record, bots, seed=4)
    assert resumed.players[Seat.E] == Player.bot("random")


def test_a_resumed_match_deals_on_as_the_uninterrupted_one() -> None:
    bots = {seat: make_bot("random", random.Random(int(seat))) for seat in Seat}
    players = {seat: Player.bot("random") for seat in Seat}
    players[Seat.S] = Player.human("Saad")
    table = Table.new(players, bots, seed=21)
    while table.hand_number < 3:
        waiting = table.waiting()
        if waiting.kind is WaitKind.NEXT:
            table.deal()
        else:
            table.play_bot()
    for _ in range(5):
        table.play_bot()
    record = loads(dumps(table.record()))
    resumed = Table.resume(record, bots, seed=21)
    assert resumed.players == table.players
    assert [h.actions for h in resumed.match.hands] == [h.actions for h in table.match.hands]
    assert resumed.match.totals == table.match.totals
    assert resumed.match.results == table.match.results
    assert resumed.match.first_dealer == table.match.first_dealer
    assert not resumed.match.auto_deal
    for copy in (table, resumed):
        while copy.waiting().kind is not WaitKind.NEXT:
            copy.match.apply(copy.hand.legal_actions()[0])
        copy.deal()
    assert resumed.hand.deck == table.hand.deck


def test_a_bots_decisions_for_a_human_seat_are_marked_unmarked_by_undo_and_resumed() -> None:
    """What a bot decides for the human seat (a stand-in's play) is noted by its position,
    and only that: an undo takes its marks back with it, and a resumed record keeps them."""
    table = one_human()
    while table.hand_number == 1 or sum(a.seat is Seat.S for a in table.hand.actions) < 2:
        if table.waiting().kind is WaitKind.NEXT:
            table.deal()
        else:
            table.play_bot()
    south = [
        tuple(n for n, a in enumerate(hand.actions, 1) if a.seat is Seat.S)
        for _, hand in table.history()
    ]
    assert [table.stand_ins(n) for n in (1, 2)] == south
    table.undo(Seat.S)  # back to before South's last decision: its stand-in's, unmarked
    assert table.stand_ins(2) == south[1][:-1] and table.stand_ins(1) == south[0]
    record = loads(dumps(table.record()))
    assert [h.metadata.get("x_stand_in") for h in record.hands] == [list(south[0]), [south[1][0]]]
    resumed = Table.resume(record, table.bots, seed=4)
    assert [resumed.stand_ins(n) for n in (1, 2)] == [table.stand_ins(n) for n in (1, 2)]
    assert resumed.record().hands == record.hands


def test_after_a_sawa_the_other_humans_cards_are_marked_as_their_stand_ins() -> None:
    """At a table of two humans, a claim plays the partner's cards by its stand-in: those
    decisions are marked, the claimant's own cards and the bots' are not."""
    deck = build_deck(ALL_SPADES, taker="S", exposed="7s")
    match = Match(Rules(first_lead=FirstLead.DECLARER), Seat.E)
    match.deal(deck)
    players = {seat: Player.bot("passer") for seat in Seat}
    players[Seat.S], players[Seat.N] = Player.human("Saad"), Player.human("Noura")
    table = Table(match, players, {seat: Passer() for seat in Seat}, seed=1)
    while table.hand.phase is not Phase.PLAYING:
        seat = table.waiting().seat
        if seat is Seat.N:
            table.submit(Seat.N, "N pass")
        elif seat is Seat.S:
            legal = {str(action) for action in table.hand.legal_actions()}
            table.submit(Seat.S, "S sun" if "S sun" in legal else "S pass")
        else:
            table.play_bot()
    claimed = len(table.hand.actions)
    table.claim(Seat.S)
    actions = table.hand.actions
    north = tuple(n for n, a in enumerate(actions, 1) if n > claimed and a.seat is Seat.N)
    assert sum(actions[n - 1].card is not None for n in north) == 8  # every card of North
    assert table.stand_ins(1) == north
