"""The engine's helpers for interfaces and bots: questions, tricks, announcements, views."""

from __future__ import annotations

import random

import pytest
from spec_example import ACTIONS, DECK

from baloot import Action, Card, CardSet, Hand, Rules, Seat, Suit, Team
from baloot.cli import main
from baloot.core.cards import CARDS, strength, trick_winner
from baloot.core.errors import IllegalActionError
from baloot.core.reasons import REASONS, ReasonCode, reason_fields, reason_text
from baloot.core.vocabulary import Question, QuestionKind
from baloot.records.record import loads
from baloot.records.replay import ReplayError, replay
from baloot.view.seat_view import SeatView
from baloot.words.reasons import AR_REASONS
from baloot.words.strings import AR, check_tables, fields, strings

ORDERED = " ".join(c.text for c in CARDS)


def apply_all(hand: Hand, *actions: str) -> Hand:
    for action in actions:
        hand.apply(action)
    return hand


def test_question_names_each_kind_of_bidding_offer() -> None:
    hand = Hand.from_deck(ORDERED, dealer="E")
    assert hand.question == Question(QuestionKind.BID)
    apply_all(hand, "N pass", "W hokum")
    assert hand.question == Question(QuestionKind.BID, Seat.W)
    apply_all(hand, "S pass", "E pass")
    assert hand.question == Question(QuestionKind.SUN_OVER_HOKUM, Seat.W)
    apply_all(hand, "N pass")
    assert hand.question == Question(QuestionKind.CONFIRM_HOKUM, Seat.W)
    apply_all(hand, "W pass")
    assert hand.question == Question(QuestionKind.DOUBLE, Seat.W)
    apply_all(hand, "N double open")
    assert hand.question == Question(QuestionKind.TRIPLE, Seat.N)
    assert hand.contract is not None and hand.contract.doubler is Seat.N
    apply_all(hand, "W triple")
    assert hand.question == Question(QuestionKind.FOUR, Seat.W)
    apply_all(hand, "N four locked")
    assert hand.question == Question(QuestionKind.GAHWA, Seat.N)
    apply_all(hand, "W pass")
    assert hand.question == Question(QuestionKind.PLAY)


def test_question_names_the_take_over_and_later_rounds() -> None:
    hand = apply_all(Hand.from_deck(ORDERED, dealer="E"), "N pass", "W pass", "S ashkal")
    assert hand.question == Question(QuestionKind.TAKE_OVER_ASHKAL, Seat.S)
    hand = apply_all(Hand.from_deck(ORDERED, dealer="E"), "N pass", "W sun")
    assert hand.question == Question(QuestionKind.TAKE_OVER_SUN, Seat.W)
    hand = apply_all(Hand.from_deck(ORDERED, dealer="E"), *(f"{s} pass" for s in "NWSE"))
    apply_all(hand, "N hokum", "W pass", "S pass", "E pass")
    assert hand.question == Question(QuestionKind.NAME_TRUMP)
    rules = Rules(third_round_on_ace=True)
    ace_exposed = ORDERED.split()
    ace_exposed[20], ace_exposed[0] = ace_exposed[0], ace_exposed[20]  # As becomes card 21
    hand = Hand.from_deck(" ".join(ace_exposed), dealer="E", rules=rules)
    apply_all(hand, *(f"{s} pass" for s in "NWSENWSE"))
    assert hand.question == Question(QuestionKind.THIRD_ROUND)
    apply_all(hand, "N pass")
    assert hand.question is None and hand.is_over


def test_completed_tricks_name_each_winner_of_the_example() -> None:
    hand = apply_all(Hand.from_deck(DECK, dealer="E"), *ACTIONS)
    tricks = hand.tricks()
    assert len(tricks) == 8
    # docs/records.md's example: S wins the first trick with the Jack of trumps.
    first = tricks[0]
    assert [c.text for c in first.cards] == ["8d", "Kd", "Jd", "9d"]
    assert first.leader is Seat.N and first.winner is Seat.S
    won = [sum(1 for t in tricks if t.winner and t.winner.team == team) for team in Team]
    assert tuple(won) == hand.tricks_won == (6, 2)
    # Card points per trick add up to the hand's, the last trick's 10 included.
    assert sum(t.points for t in tricks) == sum(hand.card_points()) == 162


def test_announced_adds_baloot_to_the_second_of_king_and_queen_only() -> None:
    for seed in range(200):
        hand = Hand.new(rng=random.Random(seed))
        players = random.Random(seed)
        while not hand.is_over:
            legal = hand.legal_actions()
            # Uniform bidding almost always ends in Sun: prefer Hokum so that trumps exist.
            hokum = [a for a in legal if str(a).endswith((" hokum", " pass"))]
            action = players.choice(hokum or legal) if hand.contract is None else None
            action = action or players.choice(legal)
            said = hand.announced(action)
            if said.baloot:
                assert action.card is not None and hand.contract is not None
                assert action.card.suit == hand.contract.trump
                assert action.card.rank.letter in "KQ"
                hand.apply(said)
                return
            assert said is action
            hand.apply(action)
    pytest.fail("no Baloot in 200 random hands")


def test_a_checked_action_is_applied_as_checked_and_announced_as_it_would_be() -> None:
    """Whole random hands driven by ``check`` then ``apply`` of its verdict (announced as a
    player would) come out as the same hands driven by ``apply`` alone."""
    for seed in range(40):
        checked_hand, plain = Hand.new(rng=random.Random(seed)), Hand.new(rng=random.Random(seed))
        players = random.Random(seed)
        while not plain.is_over:
            action = players.choice(plain.legal_actions())
            verdict = checked_hand.announced(checked_hand.check(action))
            assert verdict.action == plain.announced(action)
            assert checked_hand.apply(verdict) == plain.apply(plain.announced(action))
        assert checked_hand.actions == plain.actions and checked_hand.result() == plain.result()


def test_a_checked_action_from_another_position_is_checked_again() -> None:
    """Only the hand that checked an action, in the position it checked it in, trusts it:
    after an undo and another action, or on another hand, it is checked like any other."""
    hand = Hand.from_deck(ORDERED, dealer="E")
    apply_all(hand, "N pass")
    verdict = hand.check("W hokum")
    hand.undo()
    apply_all(hand, "N sun")
    with pytest.raises(IllegalActionError) as refused:
        hand.apply(verdict)
    assert refused.value.code == "not_your_turn"
    other = Hand.from_deck(ORDERED, dealer="E")
    with pytest.raises(IllegalActionError):
        other.apply(verdict)
    assert other.actions == [] and hand.actions == [Action.parse("N sun")]
    again = Hand.from_deck(ORDERED, dealer="E")
    assert apply_all(again, "N pass").apply(verdict) == Action.parse("W hokum")


def test_a_view_counts_unseen_cards() -> None:
    hand = Hand.from_deck(DECK, dealer="E")
    view = SeatView.of(hand, "N")
    assert len(view.unseen) == 32 - 5 - 1 and Card.parse("Jd") not in view.unseen
    apply_all(hand, *ACTIONS[:14])
    view = SeatView.of(hand, "N")
    assert view.played == CardSet.parse("8d Kd Jd 9d")
    assert len(view.unseen) == 32 - len(view.cards) - 4


def test_strength_and_trick_winner_follow_r2_2() -> None:
    hearts = Suit.HEARTS
    order = ["Jh", "9h", "Ah", "Th", "Kh", "Qh", "8h", "7h"]
    assert sorted(order, key=lambda t: -strength(Card.parse(t), hearts)) == order
    plain = ["As", "Ts", "Ks", "Qs", "Js", "9s", "8s", "7s"]
    assert sorted(plain, key=lambda t: -strength(Card.parse(t), None)) == plain
    cards = [Card.parse(t) for t in ("7c", "Ac", "Kd", "7h")]
    assert trick_winner(cards, None) == 1
    assert trick_winner(cards, hearts) == 3


def test_the_arena_command_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "heuristic", "random", "--matches", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "matches won" in out and "hands bid" in out
    assert main(["arena", "random", "random", "--hands", "3", "--json"]) == 0
    assert '"mode": "hands"' in capsys.readouterr().out
    assert main(["arena", "random", "bogus"]) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_every_reason_code_has_an_arabic_template_with_the_same_fields() -> None:
    assert AR_REASONS.keys() == REASONS.keys()
    for code, template in REASONS.items():
        assert fields(AR_REASONS[code]) == fields(template) == reason_fields(code), code
    check_tables()


def _illegal(hand: Hand, action: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        hand.apply(action)
    return info.value


def test_illegal_actions_carry_a_code_and_params_and_the_same_english_reason() -> None:
    hand = apply_all(Hand.from_deck(DECK, dealer="E"), *ACTIONS[:9])
    cases = [
        ("N play 7h", "not_held", {"seat": "N", "card": "7h"}, "N does not hold 7h"),
        ("W play Kd", "not_your_turn", {"seat": "N"}, "it is N's turn"),
        ("N declare fifty", "project_not_held", {"seat": "N", "project": "fifty"},
         "N does not hold a fifty"),
        ("N play 8d ekka", "ekka_trump", {"seat": "N"}, "N may not announce Ekka on a trump"),
        ("N play Kh ekka", "ekka_higher_out", {"seat": "N", "card": "Kh", "higher": "Ah, Th"},
         "N may not announce Ekka with Kh: Ah, Th not yet played"),
    ]  # fmt: skip
    for action, code, params, reason in cases:
        error = _illegal(hand, action)
        assert (error.code, error.params, error.reason, error.action) == (
            code,
            params,
            reason,
            action,
        )
        assert error.reason == reason_text(ReasonCode(code), **params)
    apply_all(hand, "N declare sira", "N play 8d")
    error = _illegal(hand, "W play 8s")
    assert (error.code, error.params) == ("must_follow", {"seat": "W", "suit": "diamonds"})
    assert error.reason == "W must follow diamonds"
    assert str(error) == '"W play 8s": W must follow diamonds'
    assert strings("en").reason(error) == "W must follow ♦ diamonds"
    assert strings("ar").reason(error) == AR_REASONS["must_follow"].format(
        seat=AR["seat_W"], suit="♦ " + AR["suit_2"]
    )


def test_a_replay_error_keeps_the_code_and_params() -> None:
    rec = loads(f'format = "baloot/1"\ndealer = "E"\ndeck = "{DECK}"\nactions = []')
    rec.hands[0].actions.extend([*ACTIONS[:9], "N play 7h"])
    with pytest.raises(ReplayError) as info:
        replay(rec)
    error = info.value
    assert (error.position, error.code) == (10, "not_held")
    assert error.params == {"seat": "N", "card": "7h"}
    assert error.reason == "N does not hold 7h"
