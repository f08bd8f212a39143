"""The analysis of a record (``baloot.analysis``): exact values in hindsight that are the
solver's, losses that are never negative and nothing for the best option, marks by the
thresholds, positions numbered as the record numbers actions, the bot's estimates for calls,
and a report that is the same on every run."""

from __future__ import annotations

import random
from typing import Any

import pytest
from spec_example import ACTIONS, record_text

from baloot.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Analysis,
    AnalysisError,
    JudgeError,
    Mark,
    SolverAndBot,
    Unit,
    analyze_position,
    analyze_record,
    mark_of,
)
from baloot.bots.expert import ExpertBot
from baloot.core.actions import Verb
from baloot.core.hand import Hand
from baloot.core.match import Match
from baloot.core.vocabulary import Level, Phase
from baloot.records.record import Record, loads
from baloot.solver import Mode, values
from baloot.view.seat_view import SeatView

#: A hand the heuristic bots played, except that at its 35th action North, on lead with the
#: Ace of trumps and the Ten of hearts, leads the Ten: the defenders' trick, and their 16
#: game points, are thrown away (the solver: +16 with the Ace, -6 with the Ten).
THROWN_DECK = (
    "Ts Th Ac Qs Tc Qh Qd Jc 9d Kh Jd Ah 8s Kd 9h 7h 9c Js 9s Ks "
    "7s 8h As 7c Td 8c Qc 8d Kc Jh 7d Ad"
)
THROWN_ACTIONS = [
    "N pass", "W pass", "S pass", "E hokum", "N pass", "W pass", "S pass", "E pass",
    "N pass", "S pass",
    "N play Ac", "W play 8c", "S play 9c", "E play 7s",
    "E play Ah", "N play 8h", "W play 9h", "S play Jh",
    "E play Ad", "N play Kd", "W play Td", "S play 8d",
    "E play 7d", "N play 8s", "W play Qs", "S play 9d",
    "W play Tc ekka", "S play Jc", "E play Kh", "N play 7c",
    "W play Qc", "S play Kc", "E play Ks", "N play Ts",
    "N play Th", "W play 7h", "S play Js", "E play Jd",
    "S play Qd ekka", "E play 9s", "N play As", "W play Qh",
]  # fmt: skip
THROWN = 35
#: A quick bot that estimates: the tests check what it is asked, not how well it plays.
FAST = "expert:fast,deals=6"
FAST_OPTIONS = {"fast": "", "deals": "6"}


@pytest.fixture(scope="module")
def thrown() -> Record:
    return loads(record_text(THROWN_ACTIONS, deck=THROWN_DECK))


@pytest.fixture(scope="module")
def exact_only(thrown: Record) -> Analysis:
    """The thrown hand judged by exact values alone (no bot)."""
    return analyze_record(thrown, SolverAndBot(None))


def hand_before(record: Record, number: int, position: int) -> Hand:
    """Hand ``number`` of ``record`` rebuilt through the engine up to action ``position``."""
    match = Match(record.rules, record.hands[0].dealer)
    for entry in record.hands[: number - 1]:
        match.deal(entry.deck, entry.dealer)
        for text in entry.actions:
            match.apply(text)
    entry = record.hands[number - 1]
    match.deal(entry.deck, entry.dealer)
    for text in entry.actions[: position - 1]:
        match.apply(text)
    return match.hand


def test_a_position_judged_comes_back_with_the_hand_before_its_action(thrown: Record) -> None:
    point, decision = analyze_position(thrown, SolverAndBot(None), 1, THROWN)
    expected = hand_before(thrown, 1, THROWN)
    assert (point.number, point.position, point.chosen) == (1, THROWN, decision.chosen)
    assert point.hand.actions == expected.actions and point.options == expected.legal_actions()


# --------------------------------------------------------------------------- hindsight


def test_a_trump_ace_kept_back_while_the_trick_is_thrown_away_is_a_blunder(
    thrown: Record,
) -> None:
    _, decision = analyze_position(thrown, SolverAndBot(None), 1, THROWN)
    assert str(decision.chosen) == "N play Th"
    assert str(decision.best) == "N play As"
    assert (decision.value, decision.best_value, decision.loss) == (-6, 16, 22)
    assert decision.mark is Mark.BLUNDER and decision.mark.symbol == "??"
    assert decision.exact and decision.unit is Unit.GAME_POINTS


def test_the_exact_values_are_the_solvers_on_the_same_position(
    thrown: Record, exact_only: Analysis
) -> None:
    (hand,) = exact_only.hands
    assert hand.decisions
    for decision in hand.decisions:
        position = hand_before(thrown, 1, decision.position)
        expected = values(position, Mode.SCORE)
        assert {o.action: o.exact for o in decision.options} == expected
        assert [o.action for o in decision.options] == list(position.legal_actions())


def test_the_best_option_loses_nothing_and_no_choice_gains(exact_only: Analysis) -> None:
    for decision in exact_only.decisions():
        loss = decision.loss
        assert loss is not None and loss >= 0
        best = decision.best
        assert best is not None and decision.value_of(best) == decision.best_value
        if decision.chosen == best:
            assert loss == 0 and decision.mark is None
        assert decision.mark is mark_of(loss)


def test_the_thrown_trick_is_the_hands_only_blunder_and_north_carries_it(
    exact_only: Analysis,
) -> None:
    blunders = [d for d in exact_only.decisions() if d.mark is Mark.BLUNDER]
    assert THROWN in [d.position for d in blunders]
    summary = exact_only.to_json()["summary"]["N"]["plays"]
    assert summary["blunder"] == sum(1 for d in blunders if d.seat.name == "N") >= 1


def test_forced_actions_are_counted_and_not_listed(thrown: Record, exact_only: Analysis) -> None:
    hand = Hand.from_deck(THROWN_DECK, dealer="E")
    forced, choices = 0, []
    for position, text in enumerate(THROWN_ACTIONS, 1):
        if len(hand.legal_actions()) == 1:
            forced += 1
        elif hand.phase is Phase.PLAYING:
            choices.append(position)
        hand.apply(text)
    (analysed,) = exact_only.hands
    assert analysed.skipped == forced
    assert [d.position for d in analysed.decisions] == choices


def test_a_declaration_is_an_option_of_the_first_trick() -> None:
    """The record-format example: N declares a Sira before its first card; the decision
    offers the declaration and every card, valued by the solver."""
    record = loads(record_text(ACTIONS))
    _, decision = analyze_position(record, SolverAndBot(None), 1, 10)
    assert str(decision.chosen) == "N declare sira"
    verbs = {o.action.verb for o in decision.options}
    assert verbs == {Verb.DECLARE, Verb.PLAY}
    assert {o.action: o.exact for o in decision.options} == values(hand_before(record, 1, 10))


# --------------------------------------------------------------------------- marks


@pytest.mark.parametrize(
    ("loss", "mark"),
    [
        (0, None),
        (INACCURACY - 1, None),
        (INACCURACY, Mark.INACCURACY),
        (MISTAKE - 1, Mark.INACCURACY),
        (MISTAKE, Mark.MISTAKE),
        (BLUNDER - 1, Mark.MISTAKE),
        (BLUNDER, Mark.BLUNDER),
        (40, Mark.BLUNDER),
        (1.99, None),
    ],
)
def test_marks_follow_the_thresholds_in_game_points(loss: float, mark: Mark | None) -> None:
    assert mark_of(loss) is mark


def test_the_thresholds_are_one_three_and_six_game_points_handed_over() -> None:
    assert (INACCURACY, MISTAKE, BLUNDER) == (2, 6, 12)
    assert [m.symbol for m in Mark] == ["?!", "?", "??"]


def test_in_a_gahwa_hand_the_values_are_the_match_and_any_loss_a_blunder() -> None:
    hand = Hand.new(rng=random.Random(3), dealer="E")
    raises = (Verb.HOKUM, Verb.DOUBLE, Verb.TRIPLE, Verb.FOUR, Verb.GAHWA)
    while hand.phase is not Phase.PLAYING:
        legal = hand.legal_actions()
        hand.apply(next((a for a in legal if a.verb in raises), legal[0]))
    assert hand.contract is not None and hand.contract.level is Level.GAHWA
    rng = random.Random(4)
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_actions()))
    analysis = analyze_record(Record.of(hand), SolverAndBot(None))
    (analysed,) = analysis.hands
    assert analysed.unit is Unit.MATCH and analysed.to_json()["unit"] == "match"
    assert analysed.decisions
    for decision in analysed.decisions:
        assert decision.unit is Unit.MATCH
        assert {o.exact for o in decision.options} <= {-1, 1}
        assert (decision.mark is Mark.BLUNDER) == (decision.loss != 0)
    plays = analysis.to_json()["summary"]
    assert all(plays[seat]["plays"]["average_loss"] is None for seat in "NWSE")


# --------------------------------------------------------------------------- positions


def test_position_k_judges_what_action_k_chose_as_the_whole_hand_did(
    thrown: Record, exact_only: Analysis
) -> None:
    judge = SolverAndBot(None)
    for decision in exact_only.decisions():
        _, alone = analyze_position(thrown, judge, 1, decision.position)
        assert alone == decision
        assert str(alone.chosen) == THROWN_ACTIONS[decision.position - 1]


def test_a_forced_position_lists_its_single_option(thrown: Record) -> None:
    last = len(THROWN_ACTIONS)
    _, decision = analyze_position(thrown, SolverAndBot(None), 1, last)
    assert [str(o.action) for o in decision.options] == [THROWN_ACTIONS[-1]]
    assert decision.loss == 0 and decision.mark is None


def test_a_comment_keeps_its_number_and_the_actions_after_it_theirs() -> None:
    actions = [*THROWN_ACTIONS[:20], "# N thinks", *THROWN_ACTIONS[20:]]
    record = loads(record_text(actions, deck=THROWN_DECK))
    _, decision = analyze_position(record, SolverAndBot(None), 1, THROWN + 1)
    assert str(decision.chosen) == "N play Th" and decision.mark is Mark.BLUNDER
    with pytest.raises(AnalysisError, match="action 21 is only a comment"):
        analyze_position(record, SolverAndBot(None), 1, 21)


def test_a_record_in_progress_offers_the_decision_to_make_now() -> None:
    record = loads(record_text(THROWN_ACTIONS[: THROWN - 1], deck=THROWN_DECK))
    _, decision = analyze_position(record, SolverAndBot(None), 1, THROWN)
    assert decision.chosen is None and decision.loss is None and decision.mark is None
    assert str(decision.best) == "N play As"
    analysis = analyze_record(record, SolverAndBot(None))
    assert analysis.hands == () and analysis.in_progress == (1,)
    alone = analyze_record(record, SolverAndBot(None), hand=1)
    assert [d.position for d in alone.hands[0].decisions][-1] < THROWN


@pytest.mark.parametrize(
    ("hand", "position", "message"),
    [
        (2, 1, "no hand 2: the record has 1 hand"),
        (0, 1, "no hand 0"),
        (1, 43, "hand 1 has no action 43: its positions are 1 to 42"),
        (1, 4, "action 4 is a call, which has no exact value"),
    ],
)
def test_a_hand_or_position_the_record_lacks_is_one_clear_error(
    thrown: Record, hand: int, position: int, message: str
) -> None:
    with pytest.raises(AnalysisError, match=message):
        analyze_position(thrown, SolverAndBot(None), hand, position)


def test_only_finished_hands_are_analysed_unless_one_is_asked_for() -> None:
    rng = random.Random(11)
    match = Match.new(rng=random.Random(12), dealer="E")
    while len(match.hands) < 2 or len(match.hand.actions) < 14:
        match.apply(rng.choice(match.legal_actions()))
    record = Record.of(match)
    analysis = analyze_record(record, SolverAndBot(None))
    assert [h.number for h in analysis.hands] == [1] and analysis.in_progress == (2,)
    second = analyze_record(record, SolverAndBot(None), hand=2)
    assert [h.number for h in second.hands] == [2] and second.in_progress == ()
    assert second.hands[0].to_json()["outcome"] == "in progress"


# --------------------------------------------------------------------------- the bot


@pytest.fixture(scope="module")
def with_bot(thrown: Record) -> Analysis:
    return analyze_record(thrown, SolverAndBot(FAST, seed=5))


def test_calls_are_judged_by_the_bots_estimates(with_bot: Analysis) -> None:
    calls = [d for d in with_bot.decisions() if not d.exact]
    assert calls and all(d.phase is not Phase.PLAYING for d in calls)
    for decision in calls:
        assert all(o.exact is None and o.estimate is not None for o in decision.options)
        assert decision.value == decision.value_of(decision.chosen)  # type: ignore[arg-type]
        assert decision.loss is not None and decision.loss >= 0
        assert decision.expert in [o.action for o in decision.options]
    assert with_bot.to_json()["summary"]["E"]["calls"]["decisions"] >= 1


def test_the_estimates_are_the_bots_evaluate_from_the_seats_view(thrown: Record) -> None:
    _, decision = analyze_position(thrown, SolverAndBot(FAST, seed=5), 1, THROWN)
    hand = hand_before(thrown, 1, THROWN)
    bot = ExpertBot(random.Random(f"5:1:{THROWN}"), FAST_OPTIONS)
    expected = bot.evaluate(SeatView.of(hand, "N"), hand.legal_actions())
    assert {o.action: o.estimate for o in decision.options} == pytest.approx(expected)
    chooser = ExpertBot(random.Random(f"5:1:{THROWN}"), FAST_OPTIONS)
    assert decision.expert == chooser.choose(SeatView.of(hand, "N"), hand.legal_actions())


def test_the_analysis_is_the_same_on_every_run_and_for_one_position_alone(
    thrown: Record, with_bot: Analysis
) -> None:
    again = analyze_record(thrown, SolverAndBot(FAST, seed=5))
    assert again.to_json() == with_bot.to_json()
    some = [d for d in with_bot.decisions() if d.position in (4, THROWN)]
    for decision in some:
        assert analyze_position(thrown, SolverAndBot(FAST, seed=5), 1, decision.position)[1] == (
            decision
        )


def test_without_a_bot_plays_are_judged_and_calls_left_out(exact_only: Analysis) -> None:
    assert all(d.exact and d.expert is None for d in exact_only.decisions())
    data = exact_only.to_json()
    assert data["bot"] is None
    assert all(o["expert"] is None for d in data["hands"][0]["decisions"] for o in d["options"])


def test_a_bot_that_cannot_estimate_or_does_not_exist_is_refused() -> None:
    with pytest.raises(JudgeError, match="cannot estimate"):
        SolverAndBot("heuristic")
    with pytest.raises(JudgeError, match="unknown bot"):
        SolverAndBot("nobody")
    with pytest.raises(JudgeError, match="only registered bots"):
        SolverAndBot("cmd:python3 bot.py")
    with pytest.raises(JudgeError, match="expert"):
        SolverAndBot("expert:samples=none")


# --------------------------------------------------------------------------- the JSON


def test_the_json_has_the_documented_keys(with_bot: Analysis) -> None:
    data: dict[str, Any] = with_bot.to_json()
    assert set(data) == {
        "format", "bot", "seed", "thresholds", "players", "hands", "in_progress", "summary",
    }  # fmt: skip
    assert data["format"] == "baloot-analysis/1" and data["bot"] == FAST and data["seed"] == 5
    assert data["thresholds"] == {"inaccuracy": 2, "mistake": 6, "blunder": 12}
    (hand,) = data["hands"]
    assert set(hand) == {
        "hand", "dealer", "exposed", "outcome", "contract", "score", "unit", "forced",
        "decisions", "summary",
    }  # fmt: skip
    assert (hand["hand"], hand["dealer"], hand["exposed"], hand["unit"]) == (
        1, "E", "7s", "game-points",
    )  # fmt: skip
    decision = next(d for d in hand["decisions"] if d["position"] == THROWN)
    assert set(decision) == {
        "position", "seat", "phase", "action", "exact", "unit", "options", "value", "best",
        "best_value", "loss", "mark", "symbol", "expert",
    }  # fmt: skip
    assert decision["action"] == "N play Th" and decision["best"] == "N play As"
    assert (decision["loss"], decision["mark"], decision["symbol"]) == (22, "blunder", "??")
    assert set(decision["expert"]) == {"action", "loss"}
    assert all(set(o) == {"action", "value", "expert"} for o in decision["options"])
    tally = hand["summary"]["N"]["plays"]
    assert set(tally) == {"decisions", "average_loss", "inaccuracy", "mistake", "blunder"}
    assert set(data["summary"]) == {"N", "W", "S", "E"}
