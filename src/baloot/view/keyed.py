"""Reading a keyed line from JSON: ``{"key": ..., "params": {...}}``, as the score sheet and the
hints are written for a client, checked for one that comes back from one (a browser's).

>>> keyed({"key": "tricks", "params": {"NS": 6, "EW": 2}}, "a sheet line", ("NS", "EW"))
{'NS': 6, 'EW': 2}
>>> keyed({"key": "tricks", "params": {"NS": 6}}, "a sheet line", ("NS", "EW"))
Traceback (most recent call last):
...
ValueError: tricks: missing params EW
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from baloot.records.record import shown


def key_of(data: object, what: str) -> object:
    """The ``key`` of a keyed line (``what`` names it in the error); a :class:`ValueError`
    unless ``data`` is an object of exactly ``key`` and ``params``."""
    if not isinstance(data, dict) or set(data) != {"key", "params"}:
        raise ValueError(f'{what} must be {{"key": ..., "params": {{...}}}}, not {shown(data)}')
    return data["key"]


def keyed(data: object, what: str, names: Iterable[str]) -> dict[str, Any]:
    """The ``params`` of a keyed line, which must hold exactly ``names`` (their values are the
    caller's to check); a :class:`ValueError` with a one-line reason otherwise."""
    key = key_of(data, what)
    assert isinstance(data, dict)
    given = data["params"]
    if not isinstance(given, dict):
        raise ValueError(f"{key}: params must be an object, not {shown(given)}")
    names = tuple(names)
    if missing := [name for name in names if name not in given]:
        raise ValueError(f"{key}: missing params {', '.join(missing)}")
    if extra := sorted(str(name) for name in given if name not in names):
        raise ValueError(f"{key}: unknown params {shown(', '.join(extra))}")
    return given
