"""The score sheet: one model (``baloot.view.sheet``), worded alike by ``baloot replay`` and
``baloot play`` in both languages, and always agreeing with the result it explains."""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from spec_example import ACTIONS, DECK

from baloot.cli import main
from baloot.cli.render import Seating, render_sheet
from baloot.core.actions import Verb
from baloot.core.hand import Hand
from baloot.core.rules import Rules
from baloot.core.scoring import HandResult
from baloot.core.seats import Seat, Team
from baloot.core.vocabulary import ContractKind, DecidedBy, Level, Outcome
from baloot.records.record import loads
from baloot.records.replay import replay
from baloot.view.sheet import FATES, HOW, SheetKey, SheetLine, explain, to_json
from baloot.words.sheet import sheet_text
from baloot.words.strings import LANGUAGES, strings

#: Held by the kabooted team: NS take all eight tricks while W holds (and announces) the
#: Baloot, which R12.8 loses (classic rules: ``baloot_on_loss = transfer``).
KABOOT_DECK = (
    "As Jh 7h Qh 8s 7c 9h Ad Jc 7s Ks Kc Ac Th Qc Qd "
    "Jd Js Td 8h Ah Ts Tc 9d 8c Kh 7d 8d Kd Qs 9s 9c"
)
KABOOT_ACTIONS = [
    "N hokum", "W pass", "S pass", "E pass", "N pass", "W pass", "E pass",
    "N play Th", "W play Kh", "S play 9h", "E play 8h",
    "S play Jc", "E play 9c", "N play Ac", "W play Qc",
    "N play Jh", "W play Qh baloot", "S play 7d", "E play Kc",
    "N play Tc ekka", "W play 8c", "S play 8d", "E play Qs",
    "N play 7h", "W play 9d", "S play Js", "E play Td",
    "N play As", "W play 8s", "S play Ad", "E play 9s",
    "N play Ts ekka", "W play 7c", "S play Jd", "E play Ks",
    "N play Ah", "W play Qd", "S play Kd", "E play 7s",
]  # fmt: skip
SEATING = Seating(Seat.S, {Seat.N: "heuristic", Seat.W: "random", Seat.E: "random"})


def record_text(deck: str, actions: list[str], rules: str = "classic") -> str:
    return (
        f'format = "baloot/1"\nrules = "{rules}"\ndealer = "E"\ndeck = "{deck}"\n'
        f"actions = {json.dumps(actions)}\n"
    )


def random_hand(seed: int, hokum: bool) -> Hand:
    """A hand played to its end with random legal actions under random rule flags; with
    ``hokum`` the bidding mostly says Hokum or pass (uniform bidding almost always ends in
    Sun)."""
    rng = random.Random(seed)
    hand = Hand.new(rng=rng, dealer=rng.choice(list(Seat)), rules=Rules.random(rng))
    while not hand.is_over:
        legal = hand.legal_actions()
        if hokum and hand.contract is None and rng.random() < 0.8:
            calls = [a for a in legal if a.verb in (Verb.HOKUM, Verb.PASS, Verb.TRUMP)]
            action = rng.choice(calls or legal)
        else:
            action = rng.choice(legal)
        hand.apply(hand.announced(action))
    return hand


def only(lines: tuple[SheetLine, ...], key: SheetKey) -> SheetLine:
    found = [line for line in lines if line.key is key]
    assert len(found) == 1, (key, lines)
    return found[0]


def keys(lines: tuple[SheetLine, ...]) -> list[SheetKey]:
    return [line.key for line in lines]


def check_sheet(result: HandResult, rules: Rules) -> tuple[SheetLine, ...]:
    """Every line of the sheet agrees with the result it explains; returns the lines."""
    lines = explain(result, rules)
    data = to_json(lines)
    assert json.loads(json.dumps(data)) == data
    for item in data:
        assert SheetKey(item["key"])
        params = item["params"]
        assert isinstance(params, dict)
        for value in params.values():
            assert value is None or isinstance(value, str | int | bool | list), value
            if isinstance(value, list):
                assert all(isinstance(item, str) for item in value)
    for lang in LANGUAGES:
        s = strings(lang)
        for line in lines:
            text = sheet_text(line, s)
            assert text and "{" not in text and "}" not in text, (lang, line, text)
    if result.outcome is Outcome.ANNULLED:
        (line,) = lines
        assert line.key is SheetKey.ANNULLED
        kawesh = result.kawesh
        assert line.params == {
            "reason": "passes" if kawesh is None else "kawesh",
            "seat": None if kawesh is None else kawesh.name,
        }
        return lines
    score, contract = result.scoring, result.contract
    assert score is not None and contract is not None and result.score is not None
    assert only(lines, SheetKey.CONTRACT).params["level"] == contract.level.json
    assert only(lines, SheetKey.TRICKS).params == {"NS": result.tricks[0], "EW": result.tricks[1]}
    points = only(lines, SheetKey.CARD_POINTS).params
    assert (points["NS"], points["EW"]) == result.card_points
    assert points["total"] == sum(result.card_points)

    written = only(lines, SheetKey.WRITTEN).params
    assert (written["NS"], written["EW"]) == result.score == score.score
    gahwa = contract.level is Level.GAHWA
    expected_how = (
        "gahwa"
        if gahwa
        else "kaboot"
        if score.kaboot is not None
        else "doubled"
        if contract.level > 1
        else "made"
        if score.made
        else "failed"
    )
    assert written["how"] == expected_how and written["how"] in HOW

    if score.kaboot is not None:
        assert only(lines, SheetKey.KABOOT).params == {
            "team": score.kaboot.name,
            "projects": rules.kaboot_projects,
        }
        assert SheetKey.COUNTING_TEAM not in keys(lines)
        assert SheetKey.GAME_POINTS not in keys(lines)
    else:
        assert SheetKey.KABOOT not in keys(lines)
        counting = only(lines, SheetKey.COUNTING_TEAM).params
        team = score.counting_team
        assert counting["team"] == team.name and counting["other"] == team.other.name
        assert counting["points"] == result.card_points[team]
        assert counting["rounded"] == score.card_game_points[team]
        assert counting["other_rounded"] == score.card_game_points[team.other]
        sun = contract.kind is ContractKind.SUN
        expected = "sun" if sun else "hokum-pair" if rules.hokum_pair_rounding else "hokum"
        assert counting["rounding"] == expected
        game = only(lines, SheetKey.GAME_POINTS).params
        assert (game["NS"], game["EW"]) == score.game_points

    decision = only(lines, SheetKey.DECISION).params
    assert decision == {
        "winner": score.winner.name,
        "declarers": contract.declarer.team.name,
        "made": score.made,
        "decided_by": score.decided_by.value,
        "tie_digit": score.tie_digit,
    }
    assert (decision["tie_digit"] is not None) == (score.decided_by is DecidedBy.TIE_DIGIT)
    if score.tie_digit is not None:
        assert score.tie_digit == result.card_points[score.counting_team] % 10

    if gahwa:
        assert only(lines, SheetKey.GAHWA).params == {"team": score.winner.name}
        assert result.gahwa_winner == score.winner
        assert SheetKey.DOUBLING not in keys(lines)
    else:
        assert SheetKey.GAHWA not in keys(lines)
        if contract.level > 1:
            assert only(lines, SheetKey.DOUBLING).params == {
                "level": int(contract.level),
                "factor": score.project_factor,
            }
        else:
            assert SheetKey.DOUBLING not in keys(lines)

    holder = result.baloot_holder
    if holder is None:
        assert SheetKey.BALOOT not in keys(lines)
    else:
        baloot = only(lines, SheetKey.BALOOT).params
        assert baloot["seat"] == holder.name and baloot["team"] == holder.team.name
        assert baloot["points"] == result.baloot[holder.team] == 2
        by = baloot["written_by"]
        assert baloot["written"] == sum(score.baloot_written)
        if by is None:
            assert baloot["fate"] == "lost" and score.baloot_written == (0, 0)
        else:
            assert score.baloot_written[Team[str(by)]] == baloot["written"] > 0
            fate = "kept" if by == holder.team.name else "transferred"
            assert baloot["fate"] == fate
        assert baloot["fate"] in FATES

    shown = [line.params for line in lines if line.key is SheetKey.PROJECTS]
    for team in Team:
        mine = [p for p in shown if p["team"] == team.name]
        assert len(mine) == (1 if result.projects[team] else 0)
        if mine:
            sun = contract.kind is ContractKind.SUN
            kinds = sorted(p.kind.word for p in result.projects[team])
            assert sorted(mine[0]["kinds"]) == kinds  # type: ignore[arg-type]
            assert mine[0]["points"] == sum(p.kind.game_points(sun) for p in result.projects[team])
    lost = {line.params["seat"] for line in lines if line.key is SheetKey.DECLARED_NOT_SCORED}
    assert lost == {
        seat.name for seat in Seat if result.declared[seat] and not result.projects[seat.team]
    }
    nothing = not shown and not lost
    assert (SheetKey.NO_PROJECTS in keys(lines)) == nothing
    return lines


# --------------------------------------------------------------------------- properties


@given(st.integers(0, 2**32 - 1), st.booleans())
def test_every_sheet_agrees_with_the_result_it_explains(seed: int, hokum: bool) -> None:
    hand = random_hand(seed, hokum)
    check_sheet(hand.result(), hand.rules)


def test_random_hands_cover_every_kind_of_sheet() -> None:
    """Seeded: the same checks, and every case they exist for is met at least once."""
    seen: Counter[str] = Counter()
    for seed in range(700):
        hand = random_hand(seed, hokum=seed % 4 != 0)
        result = hand.result()
        lines = check_sheet(result, hand.rules)
        for line in lines:
            seen[line.key.value] += 1
            for name in ("rounding", "fate", "how", "decided_by", "reason"):
                if name in line.params:
                    seen[f"{name}={line.params[name]}"] += 1
    for case in (
        "annulled",
        "kaboot",
        "gahwa",
        "doubling",
        "baloot",
        "projects",
        "declared_not_scored",
        "rounding=hokum",
        "rounding=hokum-pair",
        "rounding=sun",
        "decided_by=tie-digit",
        "how=made",
        "how=failed",
        "how=doubled",
        "how=kaboot",
        "how=gahwa",
        "fate=kept",
        "fate=transferred",
        "fate=lost",
    ):
        assert seen[case], (case, seen)


def test_every_template_words_in_both_languages() -> None:
    """Each key with each value its wording depends on, in English and Arabic."""
    cases = [
        SheetLine(SheetKey.ANNULLED, {"reason": "passes", "seat": None}),
        SheetLine(SheetKey.ANNULLED, {"reason": "kawesh", "seat": "W"}),
        *(
            SheetLine(
                SheetKey.CONTRACT,
                {
                    "kind": "hokum" if trump else "sun",
                    "trump": trump,
                    "declarer": "S",
                    "team": "NS",
                    "level": level,
                    "locked": locked,
                },
            )
            for trump in ("h", None)
            for level in (1, 2, 3, 4, "gahwa")
            for locked in (False, True)
        ),
        SheetLine(SheetKey.TRICKS, {"NS": 5, "EW": 3}),
        SheetLine(SheetKey.CARD_POINTS, {"NS": 100, "EW": 62, "total": 162}),
        *(
            SheetLine(
                SheetKey.COUNTING_TEAM,
                {
                    "team": "EW",
                    "points": 62,
                    "rounded": 6,
                    "rounding": rounding,
                    "other": "NS",
                    "other_rounded": 10,
                },
            )
            for rounding in ("hokum", "sun", "hokum-pair")
        ),
        *(
            SheetLine(SheetKey.KABOOT, {"team": "NS", "projects": flag})
            for flag in ("own_scored", "all", "none")
        ),
        SheetLine(
            SheetKey.PROJECTS,
            {
                "team": "NS",
                "seats": ("N", "S"),
                "kinds": ("sira", "four-hundred"),
                "cards": ("Ah Kh Qh", "As Ah Ad Ac"),
                "points": 42,
            },
        ),
        SheetLine(
            SheetKey.DECLARED_NOT_SCORED, {"seat": "E", "team": "EW", "kinds": ("fifty", "sira")}
        ),
        SheetLine(SheetKey.NO_PROJECTS),
        *(
            SheetLine(
                SheetKey.BALOOT,
                {
                    "seat": "W",
                    "team": "EW",
                    "points": 2,
                    "fate": fate,
                    "written_by": {"kept": "EW", "transferred": "NS", "lost": None}[fate],
                    "written": 0 if fate == "lost" else 2,
                },
            )
            for fate in FATES
        ),
        SheetLine(SheetKey.GAME_POINTS, {"NS": 12, "EW": 6}),
        *(SheetLine(SheetKey.DOUBLING, {"level": level, "factor": 2}) for level in (2, 3, 4)),
        SheetLine(SheetKey.GAHWA, {"team": "EW"}),
        *(
            SheetLine(
                SheetKey.DECISION,
                {
                    "winner": "NS",
                    "declarers": "EW",
                    "made": made,
                    "decided_by": decided.value,
                    "tie_digit": 5 if decided is DecidedBy.TIE_DIGIT else None,
                },
            )
            for decided in DecidedBy
            for made in (False, True)
        ),
        *(SheetLine(SheetKey.WRITTEN, {"NS": 0, "EW": 26, "how": how}) for how in HOW),
    ]
    assert {line.key for line in cases} == set(SheetKey)
    for lang in LANGUAGES:
        s = strings(lang)
        texts = [sheet_text(line, s) for line in cases]
        assert all(text and "{" not in text for text in texts)
    tie = next(line for line in cases if line.params.get("decided_by") == "tie-digit")
    assert "digit 5" in sheet_text(tie, strings("en"))


def test_the_spec_example_sheet_is_the_seat_view_example() -> None:
    """``docs/seat-view.md``: ``{"key": "counting_team", "params": {"team": "EW", "points": 26,
    "rounded": 3}}`` for the example hand of ``docs/records.md``."""
    hand = Hand.from_deck(DECK, dealer="E")
    for action in ACTIONS:
        hand.apply(action)
    sheet = to_json(explain(hand.result(), hand.rules))
    counting = next(line for line in sheet if line["key"] == "counting_team")
    params = counting["params"]
    assert isinstance(params, dict)
    assert {k: params[k] for k in ("team", "points", "rounded")} == {
        "team": "EW",
        "points": 26,
        "rounded": 3,
    }
    assert sheet[-1] == {"key": "written", "params": {"NS": 15, "EW": 3, "how": "made"}}
    projects = next(line for line in sheet if line["key"] == "projects")
    assert projects["params"] == {
        "team": "NS",
        "seats": ["N"],
        "kinds": ["sira"],
        "cards": ["Ah Kh Qh"],
        "points": 2,
    }


def test_an_unfinished_hand_has_only_its_figures_so_far() -> None:
    hand = Hand.from_deck(DECK, dealer="E")
    for action in ACTIONS[:20]:
        hand.apply(action)
    lines = explain(hand.result(), hand.rules)
    assert keys(lines) == [SheetKey.CONTRACT, SheetKey.TRICKS, SheetKey.CARD_POINTS]


# --------------------------------------------------------------------------- the two renderers


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    status = main(list(args))
    out, err = capsys.readouterr()
    assert (status, err) == (0, ""), err
    return out


def rich_sheet(result: HandResult, rules: Rules, lang: str = "en") -> str:
    console = Console(file=io.StringIO(), width=400, color_system=None)
    console.print(render_sheet(result, rules, 1, (0, 0), SEATING, strings(lang)))
    output = console.file
    assert isinstance(output, io.StringIO)
    return output.getvalue()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_replay_and_play_word_the_same_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    path = tmp_path / "match.baloot"
    path.write_text(run(capsys, "random", "--seed", "6", "--rules", "random"), encoding="utf-8")
    plain = run(capsys, "replay", str(path), "--lang", lang)
    result = replay(loads(path.read_text(encoding="utf-8")))
    s = strings(lang)
    for hand, res in zip(result.hands, result.results, strict=True):
        rich = rich_sheet(res, hand.rules, lang)
        for line in explain(res, hand.rules):
            text = sheet_text(line, s)
            assert "  " + text + "\n" in plain
            if line.key not in (SheetKey.TRICKS, SheetKey.GAME_POINTS):
                assert text in rich, text


def test_the_pair_rounding_sheet_names_the_pair_rounding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The old disagreement: with ``hokum_pair_rounding`` the replay explained the standard
    rounding (seed 6 has Hokum hands)."""
    path = tmp_path / "pair.baloot"
    record = run(capsys, "random", "--seed", "6", "--rule", "hokum_pair_rounding=true")
    path.write_text(record, encoding="utf-8")
    plain = run(capsys, "replay", str(path))
    counting = [line for line in plain.splitlines() if "counting team" in line]
    hokum = [line for line in counting if "Sun:" not in line]
    assert hokum and all("pair rounding" in line for line in hokum), counting
    assert "a 5 rounds down" not in plain
    result = replay(loads(record))
    for hand, res in zip(result.hands, result.results, strict=True):
        contract = res.contract
        if contract is None or contract.kind is ContractKind.SUN or res.kaboot is not None:
            continue
        rounding = only(explain(res, hand.rules), SheetKey.COUNTING_TEAM).params["rounding"]
        assert rounding == "hokum-pair"
        assert "pair rounding" in rich_sheet(res, hand.rules)


def test_the_kaboot_sheet_does_not_claim_baloot_that_is_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NS take all eight tricks, W held the Baloot: EW write 0 (R12.8), and the sheet says
    the Baloot is lost instead of crediting EW with 2."""
    text = record_text(KABOOT_DECK, KABOOT_ACTIONS)
    result = replay(loads(text))
    (res,) = result.results
    (hand,) = result.hands
    assert res.kaboot is Team.NS and res.score == (25, 0) and res.baloot == (0, 2)
    lines = check_sheet(res, hand.rules)
    baloot = only(lines, SheetKey.BALOOT).params
    assert baloot == {
        "seat": "W",
        "team": "EW",
        "points": 2,
        "fate": "lost",
        "written_by": None,
        "written": 0,
    }
    path = tmp_path / "kaboot.baloot"
    path.write_text(text, encoding="utf-8")
    plain = run(capsys, "replay", str(path))
    (line,) = [line for line in plain.splitlines() if "Baloot (" in line]
    assert "held by W (EW)" in line and "lost" in line
    assert not re.search(r"\b2 for\b|EW writes", plain)
    assert "score: NS 25, EW 0" in plain
    rich = rich_sheet(res, hand.rules)
    assert not re.search(r"Baloot\s+0\s+2", rich)  # no Baloot row crediting EW
    assert "lost, nobody writes it" in rich


def test_replay_in_arabic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.baloot"
    path.write_text(record_text(DECK, ACTIONS), encoding="utf-8")
    out = run(capsys, "replay", str(path), "--lang", "ar")
    for word in (
        "الجولة 1",
        "الفريق المحسوب شرق-غرب: 26 بنط ← 3",
        "المكتوب: شمال-جنوب 15، شرق-غرب 3",
        "سرا",
        "الشراء: شمال: بس، غرب: بس، جنوب: حكم",
        "= نقطتان",  # two points, as Arabic counts them
    ):
        assert word in out, word
    for english in ("counting team", "score:", "Hand 1", "trick 1", "totals"):
        assert english not in out, english
    # No engine notation inside the Arabic: no seat letter, action or team code.
    assert not re.search(r"\b(NS|EW|[NWSE]|pass|hokum|sun|sira|classic)\b", out), out
    assert "\u2068A♥ K♥ Q♥ 10♥ A♦ 8♦ K♣ 9♣\u2069" in out  # a card list isolated
    assert out.rstrip().endswith("المجموع: شمال-جنوب 15، شرق-غرب 3؛ الفائز بالمباراة: لا أحد بعد")
    assert run(capsys, "replay", str(path), "--lang", "en") == run(capsys, "replay", str(path))


def test_replay_rejects_an_unknown_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.baloot"
    path.write_text(record_text(DECK, ACTIONS), encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        main(["replay", str(path), "--lang", "fr"])
    assert stop.value.code == 2
    assert "--lang" in capsys.readouterr().err
