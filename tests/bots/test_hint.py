"""Hints: :meth:`HeuristicBot.explain` picks what :meth:`~HeuristicBot.choose` picks and says
why, with keys that have words in English and Arabic.

Hand-made positions are dealt by E from decks built in :mod:`helpers` (R3.2, R7.2) and
reached through ``Hand.apply``; the bot only sees ``SeatView.of(hand, seat)``.
"""

from __future__ import annotations

import random
from collections import Counter

from helpers import act, bid, build_deck, end_doubling, new_hand

from baloot import Hand, Phase, Rules, Seat, Team
from baloot.bots import HeuristicBot, RandomBot
from baloot.bots.heuristic import HINT_KEYS, Hint, HintReason
from baloot.view.seat_view import SeatView
from baloot.words.hints import HINT_WORDS, check_hint_words, hint_lines, hint_text
from baloot.words.strings import LANGUAGES, fields


def explain(hand: Hand) -> Hint:
    """The hint for the seat to act, checked against the bot's choice."""
    seat = hand.to_act
    assert seat is not None
    view, legal = SeatView.of(hand, seat), hand.legal_actions()
    bot = HeuristicBot(random.Random(0))
    hint = bot.explain(view, legal)
    assert hint.action == bot.choose(view, legal)
    assert hint.action in legal
    return hint


def why(hint: Hint) -> list[tuple[str, dict[str, str]]]:
    return [(reason.key, dict(reason.params)) for reason in hint.why]


def sun_hand(deal: dict[str, str], exposed: str, declarer: str = "N") -> Hand:
    """``declarer`` takes ``exposed`` with a round-1 Sun, nobody doubles."""
    hand = Hand.from_deck(build_deck(deal, taker=declarer, exposed=exposed), "E")
    bid(hand, declarer, "sun")
    end_doubling(hand)
    return hand


def hokum_hand(deal: dict[str, str], exposed: str, declarer: str = "N") -> Hand:
    """``declarer`` takes ``exposed`` with a round-1 Hokum, nobody doubles."""
    hand = Hand.from_deck(build_deck(deal, taker=declarer, exposed=exposed), "E")
    bid(hand, declarer)
    end_doubling(hand)
    return hand


def explain_play(hand: Hand) -> Hint:
    """The hint for a card; in trick 1 the bot may first declare (rule P1), which is
    applied before asking again."""
    hint = explain(hand)
    if hint.why[0].key == "P1_declare":
        hand.apply(hint.action)
        hint = explain(hand)
    return hint


def play(hand: Hand, *cards: str) -> None:
    """Each card is played by the seat to act."""
    for card in cards:
        seat = hand.to_act
        assert seat is not None
        hand.apply(f"{seat.name} play {card}")


# --------------------------------------------------------------------------- every view


def test_explain_picks_what_choose_picks_with_documented_reasons() -> None:
    rng = random.Random(31)
    used: Counter[str] = Counter()
    for seed in range(250):
        rules = Rules.random(rng)
        score = (rng.randrange(0, 152), rng.randrange(0, 152))
        hand = Hand.new(
            rng=random.Random(seed), dealer=rng.choice(list(Seat)), rules=rules, score_before=score
        )
        # Heuristic play, a random EW team, or random play all round: every kind of position.
        style = seed % 3
        chooser = RandomBot(random.Random(seed))
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            hint = explain(hand)
            assert hint.why
            for reason in hint.why:
                assert reason.key in HINT_KEYS, reason.key
                assert tuple(reason.params) == HINT_KEYS[reason.key], reason
                assert all(isinstance(v, str) and v for v in reason.params.values()), reason
                used[reason.key] += 1
            view = SeatView.of(hand, seat)
            random_seat = style == 2 or (style == 1 and seat.team is Team.EW)
            action = chooser.choose(view, view.legal) if random_seat else hint.action
            hand.apply(hand.announced(action))
    # Every rule family shows up, and most keys.
    families = {key.split("_")[0] for key in used}
    assert {"forced", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "D1", "D3"} <= families
    assert {f"P{n}" for n in range(1, 10)} <= families
    assert len(used) >= 40, sorted(set(HINT_KEYS) - set(used))


def test_the_same_view_gets_the_same_hint() -> None:
    hand = Hand.new(rng=random.Random(8))
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        view, legal = SeatView.of(hand, seat), hand.legal_actions()
        first, second = (HeuristicBot(random.Random(k)).explain(view, legal) for k in (1, 2))
        assert first == second
        hand.apply(hand.announced(explain(hand).action))


# --------------------------------------------------------------------------- words


def test_every_hint_key_has_words_in_both_languages_with_its_fields() -> None:
    check_hint_words()
    assert tuple(HINT_WORDS) == LANGUAGES
    for lang in LANGUAGES:
        for key, names in HINT_KEYS.items():
            assert fields(HINT_WORDS[lang][key]) == frozenset(names), (lang, key)


def test_hint_texts_fill_every_field() -> None:
    hand = Hand.new(rng=random.Random(4))
    while not hand.is_over:
        hint = explain(hand)
        for lang in LANGUAGES:
            for line in hint_lines(hint, lang):
                assert line and "{" not in line and "}" not in line
        hand.apply(hand.announced(hint.action))


def test_parameters_are_worded_in_the_language() -> None:
    reason = HintReason("P6_give_points", {"card": "Td", "seat": "N", "points": "10"})
    assert hint_text(reason, "en") == (
        "Your partner N is sure to win this trick: give him 10♦, 10 points not worth keeping."
    )
    assert "شمال" in hint_text(reason, "ar") and "10♦" in hint_text(reason, "ar")
    declare = HintReason("P1_declare", {"projects": "fifty sira"})
    assert hint_text(declare, "en").startswith("Declare fifty + sira:")
    assert hint_text(declare, "ar").startswith("أعلن خمسين + سرا:")
    assert "♥ هاص" in hint_text(HintReason("B7_name_trump", {"suit": "h", "value": "9"}), "ar")


def test_an_unknown_key_is_shown_as_it_is() -> None:
    assert hint_text(HintReason("X9_new", {"card": "Th"}), "en") == "X9_new: card=Th"


def test_a_hint_as_the_table_protocol_sends_it() -> None:
    hint = explain(new_hand("Jh", N="7s 8s 9d 7c 8c"))
    assert hint.to_json() == {
        "action": "N kawesh",
        "why": [{"key": "B1_kawesh", "params": {"cards": "8s 7s 9d 8c 7c"}}],
    }


# --------------------------------------------------------------------------- hand-made positions


def test_b1_kawesh() -> None:
    hint = explain(new_hand("Jh", N="7s 8s 9d 7c 8c"))
    assert str(hint.action) == "N kawesh"
    assert why(hint) == [("B1_kawesh", {"cards": "8s 7s 9d 8c 7c"})]
    assert hint_text(hint.why[0], "en").startswith("Kawesh: your first five cards (8♠ 7♠ 9♦")


def test_b5_hokum_names_the_suit_and_the_value() -> None:
    # Jh exposed, 9h 7h and a side Ace: J 4 + 9 3 + 7 1 + A 2 = 10.
    hint = explain(new_hand("Jh", N="9h 7h As 8d 7c"))
    assert str(hint.action) == "N hokum"
    assert why(hint) == [
        ("B5_hokum", {"suit": "h", "value": "10", "need": "7"}),
        ("B2_counted", {"cards": "As 9h 7h 8d 7c Jh"}),
    ]


def test_b8_pass_says_what_was_missing() -> None:
    hint = explain(new_hand("Jh", N="8s 7s Qd 8c Kc"))
    assert str(hint.action) == "N pass"
    assert [key for key, _ in why(hint)] == ["B8_pass_no_trumps", "B2_counted"]


def test_b6_never_over_the_partners_sun() -> None:
    hand = new_hand("8d", N="As Ts Ah Th 7c")
    act(hand, "N pass", "W pass", "S sun")
    hint = explain(hand)
    assert str(hint.action) == "N pass"
    assert why(hint) == [("B6_partner_call", {"seat": "S"})]


DOUBLE_DEAL = {
    "N": "Th Kh 8h Ks Qd Jd Kc Qc",
    "W": "Jh 9h 7h As Ad Td 8c 7c",
    "S": "Qh Qs Js 9s 8d 7d Jc 9c",
    "E": "Ah Ts 8s 7s Kd 9d Ac Tc",
}


def test_d1_double_locked() -> None:
    hand = Hand.from_deck(build_deck(DOUBLE_DEAL, taker="N", exposed="Th"), "E")
    act(hand, "N hokum", "W pass", "S pass", "E pass", "N pass")
    hint = explain(hand)
    assert str(hint.action) == "W double locked"
    assert why(hint) == [("D1_double", {"suit": "h", "trumps": "3", "value": "13", "need": "11"})]


def test_forced_single_card_follows_suit() -> None:
    # Sun by N; W holds a single spade and must follow the As with it.
    deal = {
        "N": "As Ks Ah Kh Ad Kd Ac Kc",
        "W": "7s Qh Th 9h Qd 8d Qc 8c",
        "S": "Qs Js Ts Jh 8h Jd 9d Jc",
        "E": "9s 8s 7h Td 7d Tc 9c 7c",
    }
    hand = sun_hand(deal, "As")
    play(hand, "As")
    assert [str(a) for a in hand.legal_actions()] == ["W play 7s"]
    hint = explain(hand)
    assert why(hint) == [("forced_follow", {"card": "7s", "suit": "s"})]
    assert hint_text(hint.why[0], "en") == (
        "7♠ is your only ♠ spades card, and you must follow suit."
    )


def last_card(hand: Hand) -> bool:
    seat = hand.to_act
    return seat is not None and hand.phase is Phase.PLAYING and len(hand.hand(seat)) == 1


def test_forced_last_card() -> None:
    seed = 0
    hand = Hand.new(rng=random.Random(seed))
    while not last_card(hand):
        if hand.is_over:  # annulled: deal again
            seed += 1
            hand = Hand.new(rng=random.Random(seed))
        else:
            hand.apply(hand.announced(explain(hand).action))
    hint = explain(hand)
    assert hint.action.card is not None
    assert why(hint) == [("forced_last_card", {"card": hint.action.card.text})]


def test_p3_cash_then_ekka() -> None:
    deal = {
        "N": "As Ts Kd Qd 8c 7c 7h 8h",
        "W": "Jh 9h Ah 9s Ad Td Ac Tc",
        "S": "Qh Ks Qs 8s Jd 9d Kc Qc",
        "E": "Kh Th Js 7s 8d 7d Jc 9c",
    }
    hand = hokum_hand(deal, "Jh", declarer="W")
    hint = explain(hand)
    assert str(hint.action) == "N play As"
    assert why(hint) == [("P3_cash", {"card": "As"})]
    play(hand, "As", "9s", "8s", "7s")
    hint = explain(hand)
    assert str(hint.action) == "N play Ts ekka"
    assert why(hint) == [("P3_cash", {"card": "Ts"}), ("P3_ekka", {"card": "Ts"})]


def test_p4_lead_for_the_partner_to_ruff() -> None:
    deal = {
        "N": "Ad Qd 7d 8s 7s 9c 8c 7h",
        "W": "Kh Qh Ks Qs Js Kd Jd Qc",
        "S": "Jh 9h Ts 9s Kc Jc 7c Ac",
        "E": "Th 8h Ah As Td 9d 8d Tc",
    }
    hand = hokum_hand(deal, "Th", declarer="E")
    play(hand, "Ad", "Jd", "7c", "8d")
    hint = explain(hand)
    assert str(hint.action) == "N play 7d"
    assert why(hint)[0] == ("P4_lead_for_ruff", {"card": "7d", "seat": "S", "suit": "d"})


def test_p6_gives_points_to_the_partner() -> None:
    deal = {
        "N": "Ac Kc As Ks Ah Kh 7d 8d",
        "W": "7c 8c Qs Js Qh Jh Ad Kd",
        "S": "Ts 9s 8s 7s Th 9h Td 8h",
        "E": "Tc Qc Jc 9c 7h Qd Jd 9d",
    }
    hand = sun_hand(deal, "Ac")
    play(hand, "Ac", "7c")
    hint = explain_play(hand)
    assert str(hint.action) == "S play Td"
    assert why(hint)[0] == ("P6_give_points", {"card": "Td", "seat": "N", "points": "10"})


def test_p7_wins_cheaply_with_the_ten() -> None:
    # Sun by W; N leads Kc, W 7c, S Qc: E wins with the Tc rather than the Ac.
    deal = {
        "N": "Kc 9s 8s 7s 9h 8h 7h 9d",
        "W": "7c As Ks Qs Ah Kh Qh Ad",
        "S": "Qc Js Ts Jh Th Kd Qd Jd",
        "E": "Ac Tc 8c 9c Jc Td 8d 7d",
    }
    hand = sun_hand(deal, "As", declarer="W")
    play(hand, "Kc", "7c", "Qc")
    hint = explain_play(hand)
    assert str(hint.action) == "E play Tc"
    # Kc 4 + Qc 3 + Tc 10.
    assert why(hint) == [("P7_win_cheaply", {"card": "Tc", "points": "17"})]


def test_p7_over_trumps_with_the_cheapest_trump() -> None:
    deal = {
        "N": "9h 7h Ah 7d As Qs Ac Qc",
        "W": "8h Qh Ks Js 8s Kc Jc 9c",
        "S": "Jh Th Kh 7s 9s Ts 8c 7c",
        "E": "Ad Kd Qd Jd Td 9d 8d Tc",
    }
    hand = hokum_hand(deal, "9h")
    play(hand, "7d", "8h")
    hint = explain(hand)
    assert str(hint.action) == "S play Kh"
    assert why(hint) == [("P7_ruff", {"card": "Kh", "suit": "d", "points": "4"})]


def test_p8_keeps_the_king_out_of_a_lost_trick() -> None:
    deal = {
        "N": "Ac Tc As Ts Ah Th 7d 8d",
        "W": "Kc 7c Ks Qs Kh Qh Ad Kd",
        "S": "Qc Jc Js 9s Jh 9h Td Qd",
        "E": "9c 8c 8s 7s 8h 7h Jd 9d",
    }
    hand = sun_hand(deal, "Ks", declarer="W")
    play(hand, "Ac")
    hint = explain_play(hand)
    assert str(hint.action) == "W play 7c"
    assert why(hint)[0] == ("P8_play_low", {"card": "7c"})


def test_p1_declares_the_most_project_value() -> None:
    deal = {
        "N": "As Ks Qs Td 9d 8d 7d 7c",
        "W": "Ah Kh Qh 9s 8s Ad Kd Ac",
        "S": "Jh Th Js Ts Jd Qd Kc Qc",
        "E": "9h 8h 7h 7s Tc Jc 9c 8c",
    }
    hint = explain(sun_hand(deal, "As"))
    assert str(hint.action) == "N declare fifty sira"
    assert why(hint) == [("P1_declare", {"projects": "fifty sira"})]
    assert hint_text(hint.why[0], "ar").startswith("أعلن خمسين + سرا")
