"""What the HTTP API tells the pages of the tables, as JSON (``docs/table-protocol.md``): a new
table's links, the lobby's public tables, what anyone may know of one table (and of a
finished one, its rematch), the history page's finished matches and a finished hand's score
sheet.

The :class:`~baloot.server.hall.Hall` keeps the tables, their clocks and their storage; how
they are shown to the pages is here, beside the application that serves them.
"""

from __future__ import annotations

from typing import Any

from baloot.server.hall import Hall
from baloot.server.journal import JournalError, KeptTable, TableConfig
from baloot.server.live import record_url
from baloot.server.room import Room
from baloot.server.storage import TableStatus
from baloot.view.sheet import explain
from baloot.view.sheet import to_json as sheet_json


def created(room: Room) -> dict[str, Any]:
    """The answer to ``POST /api/tables`` (201): the table, each human seat's token and
    link, the spectators' link (URLs are relative), and the first hand's fair table before
    anyone speaks (``docs/table-protocol.md``; null at a table dealt from a seed)."""
    return {
        "table": room.id,
        "seats": {
            seat.name: {"token": token, "url": f"/t/{room.id}?token={token}"}
            for seat, token in room.tokens.items()
        },
        "spectate": f"/t/{room.id}",
        "fair": room.published_fair(),
    }


async def public_tables(hall: Hall) -> list[dict[str, Any]]:
    """The public tables in play on every node, for the lobby: spectator links only. Read
    from storage at each request: the lobby asks again every few seconds, and has no channel
    the server would push a change on."""
    return [
        {
            "table": table["table"],
            "spectate": f"/t/{table['table']}",
            "players": table["players"],
            "hand": table["hand"],
            "totals": table["totals"],
            "rules": table["rules"],
        }
        for table in await hall.public_tables()
    ]


async def described(hall: Hall, table_id: str) -> dict[str, Any] | None:
    """What anyone may know of a table (no token), whichever node serves it: one in memory
    here, one that could not be restored here, or one as storage keeps it (in play at
    another node, finished or closed); None for an unknown id."""
    live = hall.tables.get(table_id)
    if live is not None:
        status = TableStatus.OVER if live.finished else TableStatus.PLAYING
        return await _with_rematch(hall, _description(live.config, status))
    if table_id in hall.unrestorable:
        return {
            "table": table_id,
            "status": TableStatus.UNRESTORABLE,
            "error": "the table could not be restored from storage, where it is kept as it "
            "was; the server's log says why",
        }
    found = await hall.table_config(table_id)
    if found is None:
        return None
    status, text = found
    try:
        config, _ = KeptTable(table_id, text, ()).read()
    except JournalError:  # a row no node could restore: its status is still known
        return {"table": table_id, "status": status}
    return await _with_rematch(hall, _description(config, status))


async def _with_rematch(hall: Hall, description: dict[str, Any]) -> dict[str, Any]:
    """A finished table's description says the id of its rematch once it is made
    (``rematch``: :mod:`~baloot.server.rematch`), for its people's pages to follow; one in
    play says where it is served now (``url``, absolute), for a client that lost its node."""
    if description["status"] == TableStatus.PLAYING:
        description["url"] = await hall.served_at(description["table"])
    if description["status"] == TableStatus.OVER:
        again = await hall.rematch_of(description["table"])
        if again is not None:
            description["rematch"] = again
    return description


def _description(config: TableConfig, status: TableStatus) -> dict[str, Any]:
    """A table's description from its config."""
    return {
        "table": config.id,
        "rules": config.rules,
        "timer": config.timer,
        "public": config.public,
        "players": dict(config.players),
        "humans": list(config.humans),
        "status": status,
    }


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
