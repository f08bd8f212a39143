"""What the HTTP API tells the pages of the tables, as JSON (``seat-view.md`` §4): a new
table's links, the lobby's public tables, what anyone may know of one table, the history
page's finished matches and a finished hand's score sheet.

The :class:`~baloot.server.hall.Hall` keeps the tables, their clocks and their storage; how
they are shown to the pages is here, beside the application that serves them.
"""

from __future__ import annotations

from typing import Any

from baloot.records.summary import teams_json
from baloot.server.hall import Hall, record_url
from baloot.server.room import Room
from baloot.server.storage import TableStatus
from baloot.view.sheet import explain
from baloot.view.sheet import to_json as sheet_json


def created(room: Room) -> dict[str, Any]:
    """The answer to ``POST /api/tables`` (201): the table, each human seat's token and
    link, and the spectators' link; URLs are relative."""
    return {
        "table": room.id,
        "seats": {
            seat.name: {"token": token, "url": f"/t/{room.id}?token={token}"}
            for seat, token in room.tokens.items()
        },
        "spectate": f"/t/{room.id}",
    }


def public_tables(hall: Hall) -> list[dict[str, Any]]:
    """The public tables in play, for the lobby: spectator links only."""
    out = []
    for table_id, live in hall.tables.items():
        if not live.config.public or live.finished:
            continue
        table = live.room.table
        out.append(
            {
                "table": table_id,
                "spectate": f"/t/{table_id}",
                "players": dict(live.config.players),
                "hand": table.hand_number,
                "totals": teams_json(table.match.totals),
                "rules": live.config.rules,
            }
        )
    return out


async def described(hall: Hall, table_id: str) -> dict[str, Any] | None:
    """What anyone may know of a table (no token): one in memory, one that could not be
    restored, or one no longer in memory (finished or closed); None for an unknown id."""
    live = hall.tables.get(table_id)
    if live is not None:
        config = live.config
        return {
            "table": table_id,
            "rules": config.rules,
            "timer": config.timer,
            "public": config.public,
            "players": dict(config.players),
            "humans": list(config.humans),
            "status": TableStatus.OVER if live.finished else TableStatus.PLAYING,
        }
    if table_id in hall.unrestorable:
        return {
            "table": table_id,
            "status": TableStatus.UNRESTORABLE,
            "error": "the table could not be restored from storage, where it is kept as it "
            "was; the server's log says why",
        }
    found = await hall.match_record(table_id)
    if found is None:
        return None
    return {"table": table_id, "status": found[0]}


async def matches(hall: Hall, limit: int, offset: int) -> list[dict[str, Any]]:
    """Finished and closed matches, newest first, as the history page lists them."""
    out = []
    for row in await hall.finished(limit, offset):
        summary = row["summary"] or {}
        out.append(
            {
                "id": row["id"],
                "status": row["status"],
                "players": row["players"],
                "totals": summary.get("totals"),
                "winner": summary.get("winner"),
                "finished": row["finished"],
                "record": record_url(row["id"]),
                "analysis": f"/t/{row['id']}/hands/1/analysis",
            }
        )
    return out


def hand_sheet(hall: Hall, table_id: str, number: int) -> list[dict[str, Any]] | None:
    """The score sheet lines of the finished hand ``number`` (from 1) of a table in memory,
    as its ``hand-over`` gave them; None if there is no such hand."""
    live = hall.tables.get(table_id)
    if live is None:
        return None
    hands = live.room.table.match.hands
    if not 1 <= number <= len(hands) or not hands[number - 1].is_over:
        return None
    hand = hands[number - 1]
    return sheet_json(explain(hand.result(), hand.rules))
