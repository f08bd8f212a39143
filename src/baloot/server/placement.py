"""Which node a table goes to: a new table to the least loaded live node, the tables nobody
holds (their node died) to the least loaded too, one at a time, and one table at a time away
from a node that serves clearly more than the least loaded (a node joined).

A node decides from the live nodes its last heartbeat read (:meth:`Leases.live_nodes
<baloot.server.leases.Leases.live_nodes>`, at most :data:`~baloot.server.leases.RENEW_SECONDS`
old), with itself counted at the load it has now, whether or not its own heartbeat is among
them. Every node ranks them alike (by load, then by name), so that, given the same
heartbeats, they agree on who is least loaded; a disagreement costs nothing but balance,
since a table's lease, not this choice, says who serves it.

>>> from baloot.server.leases import Node
>>> nodes = [Node("a", "http://a", 3, 0.0), Node("b", "http://b", 1, 0.0)]
>>> [node.name for node in ranked(nodes, "c", 2)]
['b', 'c', 'a']
>>> placement(nodes, "a", 3).name  # b is less loaded: a new table made at a goes to b
'b'
>>> placement(nodes, "b", 1) is None  # b is the least loaded: it keeps the table
True
>>> adoption_quota(nodes, "b", 1), adoption_quota(nodes, "a", 3)
(1, 0)
>>> adoption_quota([], "a", 5) == ALL
True
>>> handover(nodes, "a", 3).name, handover(nodes, "a", 2)  # a hands one of its 3 to b
('b', None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from baloot.server.leases import Node

#: As many tables as there are: a node alone adopts every table nobody holds.
ALL: Final = 1_000_000


def ranked(nodes: Sequence[Node], name: str, load: int) -> list[Node]:
    """The live ``nodes`` least loaded first (then by name), with the node ``name`` counted
    at ``load``, whether or not its heartbeat is among them (its URL then unknown here)."""
    others = [node for node in nodes if node.name != name]
    mine = next((node for node in nodes if node.name == name), Node(name, "", load, 0.0))
    return sorted([*others, replace(mine, load=load)], key=lambda node: (node.load, node.name))


def placement(nodes: Sequence[Node], name: str, load: int) -> Node | None:
    """The node a new table made at the node ``name`` (serving ``load`` tables) goes to: None
    for ``name`` itself when no live node is less loaded (a tie keeps it there, where it is
    made), else the least loaded other."""
    least = ranked(nodes, name, load)[0]
    return None if least.name == name or least.load >= load else least


def adoption_quota(nodes: Sequence[Node], name: str, load: int) -> int:
    """How many tables nobody holds the node ``name`` (serving ``load`` tables) takes now:
    none unless it is the least loaded; then one, after which it tells its load and reads
    the others' again, so that the tables of a node that died spread over the others one at
    a time; :data:`ALL` when it is alone."""
    order = ranked(nodes, name, load)
    if order[0].name != name:
        return 0
    return ALL if len(order) == 1 else 1


def handover(nodes: Sequence[Node], name: str, load: int) -> Node | None:
    """The node the node ``name`` (serving ``load`` tables) hands one table over to now: the
    least loaded, when ``name`` serves at least two more (one less here and one more there
    still leaves ``name`` at least as loaded, so tables never go back and forth); else
    None."""
    least = ranked(nodes, name, load)[0]
    return None if least.name == name or load < least.load + 2 else least
