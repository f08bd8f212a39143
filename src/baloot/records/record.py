"""The ``baloot/1`` record (``docs/records.md``): the model, read and checked.

Like the :mod:`json` module: :func:`loads`/:func:`load` read TOML or JSON; writing it back,
metadata included, is :mod:`baloot.records.writer` (``dumps``/``dump``).

Every number a record holds is bounded where it is read (:func:`loads` says how), so that
nothing downstream meets a number it cannot write out; :meth:`Record.of` refuses what the
reader would, so that a record written is a record read.

>>> text = '''
... format = "baloot/1"
... event = "Friday night"
... dealer = "E"
... deck = "9c 8d Th 9h Jc 8s Qs Js As 7d 8h Td Kc Qh Kd 7s Qd Qc Ks Jh Jd Ad Kh Ah Ts Ac 9s 7c 8c Tc 9d 7h"
... actions = ["N pass", "W sun"]
... '''
>>> record = loads(text)
>>> record.metadata, record.hands[0].actions
({'event': 'Friday night'}, ['N pass', 'W sun'])
"""

from __future__ import annotations

import datetime
import json as jsonlib
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any, Final

from baloot.core.cards import Card
from baloot.core.errors import NotationError, RecordError, RulesError
from baloot.core.hand import Hand
from baloot.core.match import Match
from baloot.core.rules import CHOICES, CLASSIC, FLAG_NAMES, PRESETS, Rules
from baloot.core.seats import Seat
from baloot.records.fair import Fair, FairError

FORMAT: Final = "baloot/1"
SHOWN_LENGTH: Final = 60
"""The most characters of a value that an error message echoes (then an ellipsis)."""
METADATA_KEYS: Final = frozenset({"event", "date", "players", "comment"})
_HAND_KEYS: Final = ("dealer", "deck", "actions")
_OPTIONAL_HAND_KEYS: Final = ("fair",)
MAX_TOTAL: Final = 9_999
"""The largest match total ``score_before`` may hold. A match is over once a team has 152 or
more and the totals differ (R13), so a total past 151 only comes from tied hands, each of which
writes a few hundred points at most: no match comes near 9,999."""
WHOLE_NUMBERS: Final = range(-(2**63), 2**63)
"""The whole numbers a record may hold: TOML's, 64 bits with a sign (a seed is one of them)."""
_WHOLE: Final = f"whole numbers of 64 bits ({WHOLE_NUMBERS.start} to {WHOLE_NUMBERS.stop - 1})"
STAND_IN_KEY: Final = "x_stand_in"
"""A hand's own metadata key: the positions (from 1, in its ``actions``) of the decisions a bot
made for a human seat (a stand-in, when the human ran out of time or was away), so that no one
is credited with a bot's play. A server's record writes it in every hand where there are some."""
NO_HANDS: Final = "a record has at least one hand"
"""The error of a record without hands (``loads`` refuses one; one built by hand may have none)."""


class UnprovenHandError(RecordError):
    """A hand without a ``fair`` table in a record whose other hands hold one
    (``docs/records.md``): a proof cannot be stripped from one hand unnoticed. The record
    is refused like a deal that does not follow from its proof (exit 1), naming the hand.

    >>> str(UnprovenHandError(3))
    'hand 3: not a fair deal: no fair table, where other hands of the record hold one'
    """

    reason: Final = "not a fair deal: no fair table, where other hands of the record hold one"

    def __init__(self, hand: int, where: str = "") -> None:
        super().__init__(f"{where}hand {hand}: {self.reason}")
        self.hand = hand


@dataclass
class HandRecord:
    """The inputs of one hand: who dealt, the deck from the top, the actions as written, the
    proof that the deck was derived fairly (``fair``), when the hand has one, and the hand's
    own ``x_*`` keys (``metadata``: a match record's ``[[hands]]`` table may hold them, e.g.
    :data:`STAND_IN_KEY`), kept as they are and written back (a record of one hand has
    them at its top, as its own metadata)."""

    dealer: Seat
    deck: tuple[Card, ...]
    actions: list[str] = field(default_factory=list)
    fair: Fair | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class Record:
    """One hand or a whole match (``[[hands]]``), its rules and its metadata."""

    hands: list[HandRecord]
    rules: Rules = CLASSIC
    is_match: bool = False
    score_before: tuple[int, int] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    preset: str = "classic"

    @classmethod
    def of(cls, game: Hand | Match, **metadata: Any) -> Record:
        """A record of ``game`` as played so far: one hand, or a whole match (``[[hands]]``).

        The record depends on the engine, never the reverse (``Hand`` and ``Match`` know
        nothing of records). ``metadata`` takes ``event``, ``date``, ``players``,
        ``comment`` and ``x_*`` keys; metadata or totals beyond the bounds of a record are a
        :class:`RecordError`.

        >>> import random
        >>> hand = Hand.new(rng=random.Random(1))
        >>> _ = hand.apply(hand.legal_actions()[0])
        >>> Record.of(hand, event="club night").hands[0].actions
        ['N hokum']
        """
        if isinstance(game, Hand):
            hands, is_match = [game], False
        elif isinstance(game, Match):
            hands, is_match = list(game.hands), True
        else:
            raise TypeError(f"a record is made of a Hand or a Match, not {type(game).__name__}")
        before = _read_score(list(game.score_before))  # what a record read back may hold
        return cls(
            [HandRecord(h.dealer, h.deck, [str(a) for a in h.actions]) for h in hands],
            game.rules,
            is_match=is_match,
            score_before=before if before != (0, 0) else None,
            metadata=_metadata(metadata),
            preset=_preset_of(game.rules),
        )

    def to_dict(self) -> dict[str, Any]:
        """The record as the mapping its TOML or JSON holds."""
        if not self.hands:
            raise RecordError(NO_HANDS)
        out: dict[str, Any] = {"format": FORMAT, "rules": rules_json(self.rules, self.preset)}
        out.update(self.metadata)
        if self.score_before is not None:
            out["score_before"] = list(self.score_before)
        hands = [_hand_dict(h) for h in self.hands]
        if self.is_match:
            out["hands"] = hands
        else:
            out.update(hands[0])
        return out


def _metadata(values: Mapping[str, Any]) -> dict[str, Any]:
    """Metadata for a new record: only ``event``, ``date``, ``players``, ``comment``, ``x_*``,
    holding what a record read back may hold."""
    for key in values:
        if key not in METADATA_KEYS and not key.startswith("x_"):
            raise RecordError(
                f"{key!r} is not record metadata (event, date, players, comment, x_*)"
            )
    _check_metadata(values)
    return dict(values)


def rules_json(rules: Rules, preset: str | None = None) -> str | dict[str, Any]:
    """The ``rules`` value of a record: a preset name, or a table of a preset (by default
    the one ``rules`` differ least from) and the flags that differ.

    >>> rules_json(Rules()), rules_json(Rules(must_undertrump=True))
    ('classic', {'preset': 'classic', 'must_undertrump': True})
    """
    name = rules.name()
    if name is not None:
        return name
    base = _preset_of(rules) if preset is None else preset
    return {"preset": base, **rules.changes(PRESETS[base])}


def _preset_of(rules: Rules) -> str:
    """The preset that ``rules`` differ least from."""
    return min(PRESETS, key=lambda name: len(rules.changes(PRESETS[name])))


def _hand_dict(hand: HandRecord) -> dict[str, Any]:
    out: dict[str, Any] = {
        "dealer": hand.dealer.name,
        "deck": " ".join(c.text for c in hand.deck),
        "actions": list(hand.actions),
    }
    if hand.fair is not None:
        out["fair"] = hand.fair.to_json()
    out.update(hand.metadata)
    return out


# ---------------------------------------------------------------------- reading


def loads(text: str | bytes, *, check_fair: bool = True) -> Record:
    """Read a record from TOML, or from JSON if its first non-blank character is ``{``.

    A hand's ``fair`` table is checked against its deck unless ``check_fair`` is false (then
    only its form is: ``baloot verify`` checks it hand by hand). Either way, once any hand
    holds ``fair`` every hand must: an :class:`UnprovenHandError` names the first that does
    not.

    A leading byte order mark is ignored; a JSON object must not repeat a key (TOML
    refuses that too). Every number is bounded ("What a record may hold" in ``docs/records.md``), and
    one beyond its bound is a :class:`RecordError` like any other wrong value:

    - ``score_before``: two whole numbers from 0 to :data:`MAX_TOTAL`;
    - ``x_seed``: a whole number of 64 bits (:data:`WHOLE_NUMBERS`), the seed of the match;
    - any other number in the metadata, at any depth: a whole number of 64 bits or a float
      (TOML's own integers and floats);
    - the other values are text (dealer, deck, actions, rules) or true and false (rule
      flags), never a number.

    A float or true/false where a whole number is expected is refused too.

    >>> loads('format = "baloot/1"\\nscore_before = [0x%s, 0]' % ("f" * 4000))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    baloot.RecordError: "score_before" must be two whole numbers [NS, EW] from 0 to 9999, not [0xfff...
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(f"not UTF-8 text: {error}") from None
    text = text.removeprefix("\ufeff")
    is_json = text.lstrip().startswith("{")
    kind = "JSON" if is_json else "TOML"
    try:
        data = _json_loads(text) if is_json else tomllib.loads(text)
    except RecordError:
        raise
    except (jsonlib.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise RecordError(f"not valid {kind}: {error}") from None
    except ValueError:  # the readers' only other error: a whole number too long to convert
        raise RecordError(f"not a record: a number in the {kind} is beyond the {_WHOLE}") from None
    except RecursionError:
        raise RecordError("not a record: nested too deeply") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a table of keys")
    try:
        return from_dict(data, check_fair=check_fair)
    except RecursionError:
        raise RecordError("not a record: nested too deeply") from None


def loads_all(text: str) -> list[Record]:
    """Read one record, or a bulk file of JSON records, one a line.

    >>> from baloot.core.cards import CARDS
    >>> line = '{"format": "baloot/1", "dealer": "E", "deck": "%s", "actions": []}' % (
    ...     " ".join(c.text for c in CARDS))
    >>> len(loads_all(line + "\\n" + line + "\\n"))
    2
    """
    text = text.removeprefix("\ufeff")
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines):
        try:
            _json_loads(lines[0])
        except RecordError:
            pass  # a bulk file whose first record is refused: said below, with its line
        except (ValueError, RecursionError):
            return [loads(text)]
        records = []
        for number, line in enumerate(lines, 1):
            try:
                records.append(loads(line))
            except UnprovenHandError as error:
                raise UnprovenHandError(error.hand, f"line {number}: ") from None
            except RecordError as error:
                raise RecordError(f"line {number}: {error}") from None
        return records
    return [loads(text)]


def _json_loads(text: str) -> Any:
    """JSON that refuses a repeated key in an object, as TOML does."""
    return jsonlib.loads(text, object_pairs_hook=_json_object)


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise RecordError(f"duplicate key {shown(key)} in a JSON object")
        data[key] = value
    return data


def shown(value: Any, limit: int = SHOWN_LENGTH) -> str:
    """A value as a record writes it (JSON or TOML style), cut to ``limit`` characters.

    >>> shown(None), shown("x"), shown(True), shown(datetime.date(2024, 1, 1)), shown([1, "a"])
    ('null', '"x"', 'true', '2024-01-01', '[1, "a"]')
    >>> shown("a" * 100)
    '"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…'
    >>> len(shown(16 ** 4000)), shown("\\ud800")
    (60, '"\\\\ud800"')
    """
    text = _show(value, limit + 1)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _show(value: Any, budget: int) -> str:
    """``value`` written out, stopping soon after ``budget`` characters (so never deep)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        part = value[:budget]
        try:
            part.encode()
        except UnicodeEncodeError:  # a lone surrogate (JSON may hold one) is written escaped
            return jsonlib.dumps(part)
        return jsonlib.dumps(part, ensure_ascii=False)
    if isinstance(value, int):
        if value.bit_length() > 4 * budget:  # too long to write out (or to convert at all)
            return ("-" if value < 0 else "") + hex(abs(value))[: budget + 2]
        return str(value)
    if isinstance(value, float):
        return repr(value) if value == value else "nan"
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if budget <= 0:
        return "…"
    if isinstance(value, dict):
        inner = budget - 1  # each level takes from the budget, so the depth is bounded too
        pairs = (f"{_show(str(k), inner)}: {_show(v, inner)}" for k, v in value.items())
        return "{" + _joined(pairs, budget) + "}"
    if isinstance(value, list | tuple):
        return "[" + _joined((_show(item, budget - 1) for item in value), budget) + "]"
    return type(value).__name__


def _joined(parts: Iterator[str], budget: int) -> str:
    """The parts joined by commas, up to about ``budget`` characters (the rest is "…")."""
    out: list[str] = []
    used = 2
    for part in parts:
        if used > budget:
            out.append("…")
            break
        out.append(part)
        used += len(part) + 2
    return ", ".join(out)


def load(fp: IO[str] | IO[bytes]) -> Record:
    """Read a record from an open file."""
    return loads(fp.read())


def from_dict(data: Mapping[str, Any], *, check_fair: bool = True) -> Record:
    """Check a record's keys and values (#37, #38) and build it (``check_fair`` as for
    :func:`loads`)."""
    if data.get("format") != FORMAT:
        if "format" not in data:
            raise RecordError('missing key "format"')
        raise RecordError(f'unknown format {shown(data["format"])} (expected "{FORMAT}")')
    for key in data:
        if key in ("format", "rules", "score_before", "hands", *_HAND_KEYS, *_OPTIONAL_HAND_KEYS):
            continue
        if key in METADATA_KEYS or key.startswith("x_"):
            continue
        raise RecordError(f"unknown key {shown(key)}")
    rules, preset = read_rules(data.get("rules", "classic"))
    score_before = None
    if "score_before" in data:
        score_before = _read_score(data["score_before"])
    metadata = {k: v for k, v in data.items() if k in METADATA_KEYS or k.startswith("x_")}
    _check_metadata(metadata)
    if "hands" in data:
        extra = [k for k in (*_HAND_KEYS, *_OPTIONAL_HAND_KEYS) if k in data]
        if extra:
            raise RecordError(f'a match record keeps "{extra[0]}" inside its [[hands]]')
        tables = data["hands"]
        if not isinstance(tables, list) or not tables:
            raise RecordError('"hands" must be a non-empty list of tables')
        hands = []
        for number, table in enumerate(tables, 1):
            if not isinstance(table, dict):
                raise RecordError(f"hand {number} is not a table")
            for key in table:
                if key not in _HAND_KEYS and key not in _OPTIONAL_HAND_KEYS:
                    if not key.startswith("x_"):
                        raise RecordError(f"hand {number}: unknown key {shown(key)}")
                    try:
                        _check_value(key, table[key])
                    except RecordError as error:
                        raise RecordError(f"hand {number}: {error}") from None
            hand = _read_hand(table, f"hand {number}: ", check_fair=check_fair)
            hand.metadata = {k: v for k, v in table.items() if k.startswith("x_")}
            hands.append(hand)
        is_match = True
    else:
        hands = [_read_hand(data, "", "hand 1: ", check_fair=check_fair)]
        is_match = False
    _check_all_proven(hands)
    return Record(hands, rules, is_match, score_before, metadata, preset)


def _check_all_proven(hands: list[HandRecord]) -> None:
    """Once any hand holds ``fair``, every hand must (:class:`UnprovenHandError` for the
    first that does not): also when ``check_fair`` is false, as ``baloot verify`` reads."""
    if any(hand.fair is not None for hand in hands):
        unproven = next((n for n, hand in enumerate(hands, 1) if hand.fair is None), None)
        if unproven is not None:
            raise UnprovenHandError(unproven)


def _check_metadata(metadata: Mapping[str, Any]) -> None:
    """Metadata must survive a round trip through TOML, its numbers bounded; ``x_seed`` is
    the seed that ``baloot play --resume`` deals on from, so a whole number."""
    if "x_seed" in metadata and not _is_whole(metadata["x_seed"], WHOLE_NUMBERS):
        raise RecordError(
            f'"x_seed" must be a seed, one of the {_WHOLE}, not {shown(metadata["x_seed"])}'
        )
    for key, value in metadata.items():
        _check_value(key, value)


def _check_value(key: str, value: Any) -> None:
    """TOML has no null, and its whole numbers are those of :data:`WHOLE_NUMBERS`."""
    if value is None:
        raise RecordError(f"{shown(key)} is null, which a record cannot hold")
    if isinstance(value, int) and value not in WHOLE_NUMBERS:
        raise RecordError(
            f"{shown(key)} holds {shown(value)}, beyond the {_WHOLE} a record may hold"
        )
    if isinstance(value, list):
        for item in value:
            _check_value(key, item)
    elif isinstance(value, dict):
        for inner, item in value.items():
            _check_value(f"{key}.{inner}", item)


def _is_whole(value: Any, bounds: range) -> bool:
    """Whether ``value`` is a whole number (not true or false) within ``bounds``."""
    return isinstance(value, int) and not isinstance(value, bool) and value in bounds


def read_rules(value: Any) -> tuple[Rules, str]:
    """The rules of a record's ``rules`` value (a preset name or a table of a preset and
    flags) and the preset it names; a :class:`RecordError` with one clear line otherwise.

    >>> read_rules({"preset": "classic", "must_undertrump": True})[0].must_undertrump
    True
    """
    if isinstance(value, str):
        return _preset(value), value
    if not isinstance(value, dict):
        raise RecordError(f'"rules" must be a preset name or a table, not {shown(value)}')
    name = value.get("preset", "classic")
    if not isinstance(name, str):
        raise RecordError(f"rules preset must be a name, not {shown(name)}")
    _preset(name)
    for flag, setting in value.items():
        if flag == "preset":
            continue
        if flag not in FLAG_NAMES:
            raise RecordError(f"unknown rule flag {shown(flag)}")
        choices = CHOICES.get(flag)
        if choices is None and not isinstance(setting, bool):
            raise RecordError(f"rule flag {flag} takes true or false, not {shown(setting)}")
        if choices is not None and (not isinstance(setting, str) or setting not in choices):
            raise RecordError(
                f"rule flag {flag} takes one of {', '.join(choices)}, not {shown(setting)}"
            )
    try:
        return Rules.from_mapping(value), name
    except RulesError as error:
        raise RecordError(str(error)) from None


def _preset(name: str) -> Rules:
    if name not in PRESETS:
        raise RecordError(f"unknown rules preset {shown(name)} (known: {', '.join(PRESETS)})")
    return PRESETS[name]


def _read_score(value: Any) -> tuple[int, int]:
    totals = range(MAX_TOTAL + 1)
    if isinstance(value, list) and len(value) == 2 and all(_is_whole(v, totals) for v in value):
        return (value[0], value[1])
    raise RecordError(
        f'"score_before" must be two whole numbers [NS, EW] from 0 to {MAX_TOTAL}, '
        f"not {shown(value)}"
    )


def _read_hand(
    table: Mapping[str, Any], where: str, named: str | None = None, *, check_fair: bool = True
) -> HandRecord:
    """One hand's table; ``where`` starts its errors, ``named`` those of its ``fair`` (which
    always name the hand, also in a record of one)."""
    for key in _HAND_KEYS:
        if key not in table:
            raise RecordError(f'{where}missing key "{key}"')
    dealer = table["dealer"]
    try:
        if not isinstance(dealer, str):
            raise NotationError(dealer)
        seat = Seat.parse(dealer)
    except NotationError:
        raise RecordError(f"{where}dealer: unknown seat {shown(dealer)}") from None
    deck = _read_deck(table["deck"], where)
    actions = table["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError(f'{where}"actions" must be a list of strings')
    fair = None
    if "fair" in table:
        fair = _read_fair(table["fair"], deck, where if named is None else named, check_fair)
    return HandRecord(seat, deck, list(actions), fair)


def _read_fair(value: Any, deck: tuple[Card, ...], where: str, check: bool) -> Fair:
    """A hand's ``fair`` table, checked against its deck (``docs/table-protocol.md``) if ``check``."""
    try:
        fair = Fair.from_json(value)
        if check:
            fair.check(deck)
    except FairError as error:
        raise RecordError(f"{where}not a fair deal: {error}") from None
    return fair


def _read_deck(value: Any, where: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        words = value.split()
    elif isinstance(value, list) and all(isinstance(w, str) for w in value):
        words = list(value)
    else:
        raise RecordError(f'{where}"deck" must be a string or a list of cards')
    cards: list[Card] = []
    for word in words:
        try:
            cards.append(Card.parse(word))
        except NotationError:
            raise RecordError(f"{where}deck: unknown card {shown(word)}") from None
    if len(cards) != 32:
        raise RecordError(f"{where}deck: a deck is 32 cards, not {len(cards)}")
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise RecordError(f"{where}deck: card {card.text} is repeated")
        seen.add(card)
    return tuple(cards)
