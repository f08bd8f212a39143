"""The ``baloot/1`` record written out: canonical TOML, or one line of JSON (``docs/records.md``).

The writing half of :mod:`baloot.records.record`, as ``json.dumps`` is to ``json.loads``: it
renders :meth:`Record.to_dict <baloot.records.record.Record.to_dict>`, and what it writes
reads back as the same record.

>>> import random
>>> from baloot.core.hand import Hand
>>> from baloot.records.record import Record, loads
>>> hand = Hand.new(rng=random.Random(1))
>>> _ = hand.apply(hand.legal_actions()[0])
>>> record = Record.of(hand, event="Friday night")
>>> dumps(record).splitlines()[:3]
['format = "baloot/1"', 'rules = "classic"', 'event = "Friday night"']
>>> loads(dumps(record)) == record
True
>>> loads(dumps(record, json=True)) == record
True
"""

from __future__ import annotations

import datetime
import json as jsonlib
from collections.abc import Mapping
from typing import IO, Any

from baloot.core.errors import RecordError
from baloot.records.record import Record


def dumps(record: Record, *, json: bool = False) -> str:
    """Write a record as TOML (canonical) or as one line of JSON."""
    data = record.to_dict()
    if json:
        return jsonlib.dumps(data, ensure_ascii=False, default=_json_default)
    return _toml(data)


def dump(record: Record, fp: IO[str], *, json: bool = False) -> None:
    """Write a record to an open text file."""
    fp.write(dumps(record, json=json))
    if json:
        fp.write("\n")


def _json_default(value: object) -> str:
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    raise TypeError(f"cannot write {type(value).__name__} in a record")


def _toml(data: Mapping[str, Any]) -> str:
    lines = []
    hands = data.get("hands")
    for key, value in data.items():
        if key == "hands":
            continue
        if key == "actions":
            lines.append(_toml_actions(value))
        else:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for hand in hands or ():
        lines.append("")
        lines.append("[[hands]]")
        lines.append(f"dealer = {_toml_value(hand['dealer'])}")
        lines.append(f"deck = {_toml_value(hand['deck'])}")
        lines.append(_toml_actions(hand["actions"]))
        if "fair" in hand:
            lines.append(f"fair = {_toml_value(hand['fair'])}")
        for key, value in hand.items():  # the hand's own x_* keys, as they were
            if key.startswith("x_"):
                lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def _toml_actions(actions: list[str]) -> str:
    if not actions:
        return "actions = []"
    return "actions = [\n" + "".join(f"  {_toml_value(a)},\n" for a in actions) + "]"


def _toml_key(key: str) -> str:
    if key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key):
        return key
    return _toml_string(key)


def _toml_string(text: str) -> str:
    out = ['"']
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, int | float):
        return repr(value) if not isinstance(value, float) or value == value else "nan"
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + items + " }" if items else "{}"
    raise RecordError(f"cannot write {type(value).__name__} in a record")
