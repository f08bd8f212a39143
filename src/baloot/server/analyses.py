"""The analyses of finished hands for the web pages: computed in the background, one at a time,
and kept in the store.

``GET /api/tables/ID/hands/N/analysis`` asks for the analysis of hand N (from 1) of a table,
in play or over. A hand in progress is refused (409: its deck is hidden), and so is, while the
match is in play, a hand annulled before any card was played (its cards were never shown). The
first request of a finished hand starts its analysis and is answered 202, as are the requests
while it is computed (with how far it got); once done, it is kept in the store and every
request is answered 200 with it. Analyses run one at a time, so that the tables never wait
for them: on the server's bot workers when it has some (one position at a time, as a
:class:`~baloot.analysis.tasks.JudgeTask`, so that the tables' bots are never queued behind a
whole hand; a position whose worker fails is judged here), else in a thread of their own. At
most :data:`QUEUE` wait or run at once (beyond: 503). An analysis is kept with the digest of
the hand it was made of: a hand taken back by an undo and played again is analysed again.

Answers (JSON): 200 ``{"status": "done", "table", "hand", "finished", "analysis"}`` where
``analysis`` is the ``baloot-analysis/1`` object of ``docs/analysis.md`` with the one hand;
202 ``{"status": "queued" | "computing", "table", "hand", "finished", "done", "total"}``;
otherwise ``{"error": "...", "finished": [...]}``. ``finished`` lists the hands of the match
whose analysis may be asked for.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, NamedTuple

from baloot.analysis import Decision, SolverAndBot, analyze_record
from baloot.analysis.analyze import Plan
from baloot.analysis.tasks import JudgeTask
from baloot.bots.decisions import Deciders, DecisionFailed
from baloot.bots.levels import ROLES
from baloot.core.errors import BalootError
from baloot.core.match import Match
from baloot.core.vocabulary import Outcome
from baloot.records.record import Record, loads
from baloot.records.replay import replay
from baloot.server.storage import Store

log = logging.getLogger("baloot.server")

#: The most analyses waiting or running at once on one server.
QUEUE: Final = 8
#: Why an analysis is refused (409).
IN_PROGRESS: Final = "the hand is not over: its deck is hidden"
#: Why the hand after the last one dealt, in a match still in play, has no analysis.
NOT_DEALT: Final = "the hand is not over: it has not been dealt yet"
ANNULLED: Final = (
    "the hand was annulled before its cards were shown: its analysis comes once the match is over"
)


class AnalysisStatus(StrEnum):
    """How far the analysis of a hand is: waiting its turn, being computed, or kept."""

    QUEUED = "queued"
    COMPUTING = "computing"
    DONE = "done"


class Answer(NamedTuple):
    """An HTTP status and its JSON body."""

    status: int
    body: dict[str, Any]


@dataclass(frozen=True)
class Source:
    """What a hand's analysis is made of: the match's record (hidden cards included: it never
    leaves the server) and the hands whose analysis may be shown, with why others may not."""

    record: Record
    finished: tuple[int, ...]
    refused: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of_match(cls, match: Match, players: dict[str, str]) -> Source:
        """A match in play: its finished hands, except the annulled ones until it is over."""
        finished, refused = [], {}
        for number, hand in enumerate(match.hands, 1):
            if not hand.is_over:
                refused[number] = IN_PROGRESS
            elif hand.result().outcome is Outcome.ANNULLED and not match.is_over:
                refused[number] = ANNULLED
            else:
                finished.append(number)
        if not match.is_over and (not match.hands or match.hand.is_over):
            refused[len(match.hands) + 1] = NOT_DEALT  # its commitment may be out already
        return cls(Record.of(match, players=players), tuple(finished), refused)

    @classmethod
    def of_record(cls, text: str) -> Source:
        """A match no longer in play, from its kept record: every finished hand."""
        record = loads(text)
        hands = replay(record).hands
        finished = tuple(n for n, hand in enumerate(hands, 1) if hand.is_over)
        refused = {n: IN_PROGRESS for n, hand in enumerate(hands, 1) if not hand.is_over}
        return cls(record, finished, refused)

    def digest(self, number: int) -> str:
        """A name for hand ``number`` as it was played: its dealer, deck and actions."""
        hand = self.record.hands[number - 1]
        text = json.dumps([hand.dealer.name, [c.text for c in hand.deck], hand.actions])
        return hashlib.sha256(text.encode()).hexdigest()[:32]


class Cancelled(Exception):
    """The server is stopping: an analysis in the worker ends at its next decision."""


@dataclass(eq=False)
class Job:
    """An analysis waiting or running: how far it got."""

    done: int = 0
    total: int = 0
    started: bool = False
    task: asyncio.Task[None] | None = None


Storing = Callable[..., Awaitable[Any]]


class Analyses:
    """The analyses of one server. ``store_call`` runs a :class:`Store` method in the store's
    writer thread; ``bot`` is the bot that estimates (None: exact values only); ``deciders``
    are the server's bot workers, which judge the positions (None: a thread here does)."""

    def __init__(
        self,
        store: Store,
        store_call: Storing,
        *,
        bot: str | None = ROLES.server_analysis,
        queue: int = QUEUE,
        deciders: Deciders | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.judge = SolverAndBot(bot)  # an unknown bot, or one that cannot judge: said now
        self.deciders = deciders
        self.store = store
        self.store_call = store_call
        self.bot = bot
        self.queue = queue
        self.clock = clock
        self.jobs: dict[tuple[str, int, str], Job] = {}
        self.failed: set[tuple[str, int, str]] = set()
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="baloot-analysis")
        self._stopping = False

    async def answer(self, table_id: str, number: int, source: Source | None) -> Answer:
        """The answer to a request for hand ``number`` of a table (``source`` None: unknown
        table), starting its analysis if need be."""
        if source is None:
            return Answer(404, {"error": "no such table"})
        finished = list(source.finished)
        if number in source.refused:
            return Answer(409, {"error": source.refused[number], "finished": finished})
        if not 1 <= number <= len(source.record.hands):
            return Answer(404, {"error": "no such hand", "finished": finished})
        digest = source.digest(number)
        about = {"table": table_id, "hand": number, "finished": finished}
        kept = await self.store_call(self.store.analysis, table_id, number, digest)
        if kept is not None:
            return Answer(200, {"status": AnalysisStatus.DONE, **about, "analysis": kept})
        key = (table_id, number, digest)
        if key in self.failed:
            return Answer(500, {"error": "the analysis of this hand failed", **about})
        job = self.jobs.get(key)
        if job is None:
            if len(self.jobs) >= self.queue or self._stopping:
                return Answer(503, {"error": "the server is busy with analyses; try later"})
            job = self.jobs[key] = Job()
            job.task = asyncio.create_task(self._run(key, source.record, job))
        status = AnalysisStatus.COMPUTING if job.started else AnalysisStatus.QUEUED
        return Answer(202, {"status": status, **about, "done": job.done, "total": job.total})

    async def _run(self, key: tuple[str, int, str], record: Record, job: Job) -> None:
        table_id, number, digest = key
        loop = asyncio.get_running_loop()
        try:
            if self.deciders is None:
                body = await loop.run_in_executor(self._worker, self._compute, record, number, job)
            else:
                body = await self._judged_away(self.deciders, table_id, record, number, job)
            await self.store_call(
                self.store.keep_analysis, table_id, number, digest, body, self.clock()
            )
        except (Cancelled, asyncio.CancelledError):
            pass
        except Exception:
            log.exception("the analysis of hand %s of table %s failed", number, table_id)
            self.failed.add(key)
        finally:
            self.jobs.pop(key, None)

    def _compute(self, record: Record, number: int, job: Job) -> dict[str, Any]:
        """In the worker thread: the analysis of hand ``number``, as JSON."""
        if self._stopping:
            raise Cancelled

        def progress(done: int, total: int) -> None:
            if self._stopping:
                raise Cancelled
            job.done, job.total = done, total

        job.started = True
        try:
            analysis = analyze_record(record, self.judge, hand=number, progress=progress)
        except BalootError as error:  # a record the server wrote that does not replay: a bug
            raise RuntimeError(f"cannot analyse: {error}") from error
        return analysis.to_json()

    async def _judged_away(
        self, deciders: Deciders, table_id: str, record: Record, number: int, job: Job
    ) -> dict[str, Any]:
        """The analysis of hand ``number``, its positions judged on the bot workers one at a
        time (a position whose worker fails is judged in the analyses' thread), as JSON."""
        loop = asyncio.get_running_loop()
        plan_of = functools.partial(Plan.of, record, estimated=self.bot is not None, hand=number)
        try:
            plan = await loop.run_in_executor(self._worker, plan_of)
        except BalootError as error:  # a record the server wrote that does not replay: a bug
            raise RuntimeError(f"cannot analyse: {error}") from error
        points = plan.points
        job.started, job.total = True, len(points)
        decisions: list[Decision] = []
        for point in points:
            task = JudgeTask(point, self.bot, self.judge.seed)
            try:
                decision = await asyncio.wrap_future(deciders.submit(task))
            except DecisionFailed as failure:
                log.warning(
                    "table %s, hand %s: %s; the position is judged in the server",
                    table_id,
                    number,
                    failure,
                )
                decision = await loop.run_in_executor(self._worker, task.run)
            decisions.append(decision)
            job.done = len(decisions)
        return plan.analysis(decisions, self.judge).to_json()

    async def stop(self) -> None:
        """End the analyses in progress (at their next decision) and the worker."""
        self._stopping = True
        tasks = [job.task for job in self.jobs.values() if job.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        loop = asyncio.get_running_loop()
        shutdown = functools.partial(self._worker.shutdown, wait=True, cancel_futures=True)
        await loop.run_in_executor(None, shutdown)
