"""The output folder of an arena run, which lets a long run go on across sessions.

``arena.json`` names the run's arguments (bots, mode, seed, rules, CPU budget); each finished
pair leaves its records, its bots' logs (``logs/``), and last its results
(``pairs/00001.json``): a pair whose results are there is finished, with everything it wrote.
Every file is written atomically (a temporary file, synced, renamed), so an interruption at any
moment leaves only whole files. Run again with the same arguments, the arena skips the
finished pairs and plays the others; with other arguments it refuses, in one line, rather than
mix two runs. The number of pairs may change: a rerun with more pairs goes on, one with fewer
sums up the first ones.

>>> import tempfile
>>> from baloot.bots.pairs import ArenaConfig, play_pair
>>> config = ArenaConfig("random", "random", pairs=3, seed=1, out=tempfile.mkdtemp())
>>> folder = RunFolder(config)
>>> folder.open()
{}
>>> folder.keep(play_pair(config, 1, pair_seeds(1, 1)[0]))
>>> sorted(RunFolder(config).open())
[1]
>>> RunFolder(ArenaConfig("random", "heuristic", pairs=3, seed=1, out=config.out)).open()
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
baloot.records.atomic.FolderError: ... holds another run (bot B random, not heuristic): use its ...
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from baloot.bots.pairs import ArenaConfig, PairResult, pair_seeds
from baloot.records.atomic import FolderError, write_atomic
from baloot.records.record import rules_json
from baloot.records.run_folder import open_run_folder, read_json

FORMAT: Final = "baloot-arena/1"
MANIFEST: Final = "arena.json"
PAIRS: Final = "pairs"
#: How the arguments of a run are named when they differ.
_SHOWN: Final = {
    "bot_a": "bot A",
    "bot_b": "bot B",
    "mode": "mode",
    "seed": "seed",
    "rules": "rules",
    "cpu_ms": "--cpu-ms",
}


def arguments(config: ArenaConfig) -> dict[str, Any]:
    """What a run's folder keeps of its arguments: those that decide its pairs' results."""
    return {
        "format": FORMAT,
        "bot_a": config.bot_a,
        "bot_b": config.bot_b,
        "mode": "hands" if config.hands else "matches",
        "seed": config.seed,
        "rules": "random" if config.rules is None else rules_json(config.rules),
        "cpu_ms": config.cpu_ms,
    }


class RunFolder:
    """The output folder of ``config`` (``config.out``)."""

    def __init__(self, config: ArenaConfig) -> None:
        assert config.out is not None
        self.config = config
        self.path = Path(config.out)

    def open(self) -> dict[int, PairResult]:
        """Make the folder ready for this run: the pairs already finished in it, by number
        (up to the run's number of pairs). A :class:`FolderError` when it holds another run."""
        self.path.mkdir(parents=True, exist_ok=True)
        (self.path / PAIRS).mkdir(exist_ok=True)
        open_run_folder(self.path, MANIFEST, arguments(self.config), _SHOWN, "an arena run's")
        return self._finished()

    def keep(self, pair: PairResult) -> None:
        """Write a finished pair: its files, then its results (which mark it finished)."""
        for name, data in pair.files.items():
            path = self.path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, data)
        text = json.dumps(pair.to_json(), separators=(",", ":")) + "\n"
        write_atomic(self.path / PAIRS / f"{pair.index:05d}.json", text.encode())

    def _finished(self) -> dict[int, PairResult]:
        paths = {
            int(path.stem): path
            for path in (self.path / PAIRS).glob("*.json")
            if path.stem.isdigit() and 1 <= int(path.stem) <= self.config.pairs
        }
        seeds = pair_seeds(self.config.seed, max(paths, default=0))
        found: dict[int, PairResult] = {}
        for index in sorted(paths):
            try:
                pair = PairResult.from_json(read_json(paths[index]))
            except (KeyError, TypeError, ValueError):
                pair = None
            if pair is None or pair.index != index or pair.seed != seeds[index - 1]:
                raise FolderError(f"{paths[index]} is not a pair of this run")
            found[index] = pair
        return found
