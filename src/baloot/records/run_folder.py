"""The folder of a long run that goes on where it stopped: the arena's pairs, self-play's
shards. What both keep alike: a manifest of the run's arguments, checked on every start so
that two runs are never mixed, and no temporary file left by an interrupted write.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> wanted, shown = {"format": "demo/1", "seed": 1}, {"seed": "seed"}
>>> open_run_folder(folder, "run.json", wanted, shown, "a demo run's")
>>> open_run_folder(folder, "run.json", wanted, shown, "a demo run's")  # the same run: goes on
>>> open_run_folder(folder, "run.json", {**wanted, "seed": 2}, shown, "a demo run's")
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
baloot.records.atomic.FolderError: ... holds another run (seed 1, not 2): use its arguments ...
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from baloot.records.atomic import FolderError, write_atomic

__all__ = ["open_run_folder", "read_json"]


def open_run_folder(
    folder: Path, manifest: str, wanted: dict[str, Any], shown: Mapping[str, str], what: str
) -> None:
    """Make ``folder`` the folder of the run whose arguments are ``wanted``: write its
    ``manifest`` the first time, else check that the one there is this run's (its ``format``,
    and each argument of ``shown``, named there as a person reads it); remove the temporaries
    an interrupted write left. A :class:`FolderError` in one line when it holds another run
    (``what`` names the kind of run: "an arena run's")."""
    path = folder / manifest
    if path.exists():
        kept = read_json(path)
        if kept.get("format") != wanted["format"]:
            raise FolderError(f"{path} is not {what}: use another --out")
        differ = [
            f"{name} {_text(kept.get(key))}, not {_text(wanted[key])}"
            for key, name in shown.items()
            if kept.get(key) != wanted[key]
        ]
        if differ:
            raise FolderError(
                f"{folder} holds another run ({'; '.join(differ)}): "
                "use its arguments or another --out"
            )
    else:
        write_atomic(path, (json.dumps(wanted, indent=2) + "\n").encode())
    for leftover in [*folder.glob(".*.tmp"), *folder.glob("*/.*.tmp")]:
        with contextlib.suppress(OSError):
            leftover.unlink()


def read_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; a :class:`FolderError` in one line if it is none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise FolderError(f"cannot read {path}: {error}") from None
    if not isinstance(data, dict):
        raise FolderError(f"cannot read {path}: not a JSON object")
    return data


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)
