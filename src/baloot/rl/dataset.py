"""The folder of a self-play run: its shards, kept as they come, and its dataset card.

``selfplay.json`` names the run's arguments (bots, seed, rules, shard size, layout version);
each finished shard leaves ``shards/00001.parquet`` and last ``shards/00001.json`` (its
counts), which marks it finished. Every file is written atomically
(:func:`~baloot.records.atomic.write_atomic`), so an interruption at any moment leaves only
whole files: run again with the same arguments, the run skips the finished shards and plays
the others; with other arguments it refuses in one line rather than mix two runs (as the
arena's folder, :mod:`baloot.bots.folder`). The number of hands may grow: a rerun with more
hands goes on.

The card (``card.json`` and ``card.md``) says what the data is: the format, the observation's
layout version, the rules, the bots, the seeds and the counts; it is written anew after each
shard.

>>> import tempfile
>>> from baloot.bots.pairs import iter_pair_seeds
>>> from baloot.rl.selfplay import play_shard
>>> config = SelfplayConfig("random", hands=3, seed=1, shard_hands=2)
>>> folder = DatasetFolder(tempfile.mkdtemp(), config)
>>> folder.open()
{}
>>> folder.keep(play_shard(config, 1, next(iter_pair_seeds(1))))
>>> sorted(DatasetFolder(folder.path, config).open()), folder.card()["hands"]
([1], 2)
>>> DatasetFolder(folder.path, SelfplayConfig("heuristic", 3, 1, shard_hands=2)).open()
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
baloot.records.atomic.FolderError: ... holds another run (bots random, not heuristic): use its ...
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from baloot.bots.pairs import pair_seeds
from baloot.records.atomic import FolderError, write_atomic
from baloot.records.record import rules_json
from baloot.records.run_folder import open_run_folder, read_json
from baloot.rl.action_space import NUM_ACTIONS
from baloot.rl.observation import SIZE, VERSION
from baloot.rl.selfplay import FORMAT, SelfplayConfig, ShardResult, iter_shards

MANIFEST: Final = "selfplay.json"
SHARDS: Final = "shards"
CARD: Final = "card"
#: How the arguments of a run are named when they differ.
_SHOWN: Final = {
    "bots": "bots",
    "seed": "seed",
    "rules": "rules",
    "shard_hands": "shard size",
    "layout_version": "layout version",
}


def arguments(config: SelfplayConfig) -> dict[str, Any]:
    """What a run's folder keeps of its arguments: those that decide its shards."""
    return {
        "format": FORMAT,
        "bots": config.bots,
        "seed": config.seed,
        "rules": "random" if config.rules is None else rules_json(config.rules),
        "shard_hands": config.shard_hands,
        "layout_version": VERSION,
    }


class DatasetFolder:
    """The folder ``path`` of the self-play run ``config``."""

    def __init__(self, path: str | Path, config: SelfplayConfig) -> None:
        self.path = Path(path)
        self.config = config
        self.finished: dict[int, ShardResult] = {}
        #: Wall seconds of this session's playing.
        self.seconds = 0.0

    def open(self) -> dict[int, ShardResult]:
        """Make the folder ready: the shards already finished in it, by number. A
        :class:`~baloot.records.atomic.FolderError` when it holds another run."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            (self.path / SHARDS).mkdir(exist_ok=True)
        except OSError as error:
            raise FolderError(f"cannot use {self.path}: {error.strerror or error}") from None
        open_run_folder(self.path, MANIFEST, arguments(self.config), _SHOWN, "a self-play run's")
        self.finished = self._finished()
        return dict(self.finished)

    def keep(self, shard: ShardResult) -> None:
        """Write a finished shard: its data, then its counts (which mark it finished), then
        the card."""
        stem = self.path / SHARDS / f"{shard.index:05d}"
        write_atomic(stem.with_suffix(".parquet"), shard.data)
        text = json.dumps(shard.to_json(), separators=(",", ":")) + "\n"
        write_atomic(stem.with_suffix(".json"), text.encode())
        self.finished[shard.index] = shard
        self.write_card()

    def card(self) -> dict[str, Any]:
        """The dataset card of the shards finished so far."""
        shards = [self.finished[i] for i in sorted(self.finished)]
        phases: dict[str, int] = {}
        for shard in shards:
            for phase, count in shard.phases.items():
                phases[phase] = phases.get(phase, 0) + count
        config = self.config
        return {
            **arguments(config),
            "observation_size": SIZE,
            "actions": NUM_ACTIONS,
            "labels": "baloot.solver.values(hand, Mode.SCORE): the double-dummy value of each "
            "legal action in the true deal, for the seat's team, in the play phase",
            "hands_wanted": config.hands,
            "shards_wanted": config.shards,
            "shards": len(shards),
            "hands": sum(s.hands for s in shards),
            "decisions": sum(s.decisions for s in shards),
            "labelled": sum(s.labelled for s in shards),
            "phases": dict(sorted(phases.items())),
            "shard_seeds": [s.seed for s in shards],
            "cpu_seconds": round(sum(s.seconds for s in shards), 1),
        }

    def write_card(self) -> None:
        """Write ``card.json`` and ``card.md``."""
        card = self.card()
        write_atomic(self.path / f"{CARD}.json", (json.dumps(card, indent=2) + "\n").encode())
        write_atomic(self.path / f"{CARD}.md", card_markdown(card).encode())

    def _finished(self) -> dict[int, ShardResult]:
        config = self.config
        paths = {
            int(path.stem): path
            for path in (self.path / SHARDS).glob("*.json")
            if path.stem.isdigit() and 1 <= int(path.stem) <= config.shards
        }
        seeds = pair_seeds(config.seed, max(paths, default=0))
        found: dict[int, ShardResult] = {}
        for index in sorted(paths):
            try:
                shard = ShardResult.from_json(read_json(paths[index]))
            except (KeyError, TypeError, ValueError):
                shard = None
            data = paths[index].with_suffix(".parquet")
            if (
                shard is None
                or shard.index != index
                or shard.seed != seeds[index - 1]
                or not data.is_file()
            ):
                raise FolderError(f"{paths[index]} is not a shard of this run")
            if shard.hands != config.shard_size(index):
                continue  # the last shard of a shorter run: played again, whole
            found[index] = shard
        return found


def run_selfplay(
    config: SelfplayConfig,
    out: str | Path,
    jobs: int = 1,
    cluster: str | None = None,
    progress: Callable[[DatasetFolder], None] | None = None,
) -> DatasetFolder:
    """Play the shards of ``config`` not yet in the folder ``out`` and keep each as it
    finishes (here, on ``jobs`` processes or on the Ray cluster ``cluster``); ``progress`` is
    called after each. The folder, its card written."""
    folder = DatasetFolder(out, config)
    finished = folder.open()
    folder.write_card()
    if progress is not None:
        progress(folder)
    shards = iter_shards(config, jobs, cluster, skip=finished.keys())
    start = time.perf_counter()
    try:
        for shard in shards:
            folder.keep(shard)
            folder.seconds = time.perf_counter() - start
            if progress is not None:
                progress(folder)
    finally:
        shards.close()  # at once, not when the traceback goes: it stops the workers
    return folder


def card_markdown(card: dict[str, Any]) -> str:
    """The card as a short Markdown page."""
    rules = card["rules"] if isinstance(card["rules"], str) else json.dumps(card["rules"])
    phases = ", ".join(f"{phase} {count:,}" for phase, count in card["phases"].items())
    return (
        f"# Self-play data ({card['format']})\n\n"
        f"- Observation: layout version {card['layout_version']}, "
        f"{card['observation_size']} floats; {card['actions']} actions\n"
        f"- Bots in every seat: `{card['bots']}`; rules: {rules}\n"
        f"- Seed {card['seed']}; {card['shards']} of {card['shards_wanted']} shards of "
        f"{card['shard_hands']} hands\n"
        f"- {card['hands']:,} hands, {card['decisions']:,} decisions "
        f"({phases}), {card['labelled']:,} with values\n"
        f"- Values: {card['labels']}\n"
        f"- CPU time: {card['cpu_seconds']:,} s\n"
    )
