"""Swiss tournaments for pairs as the store keeps them (``docs/tournaments.md``, "On the
server"), on SQLite and PostgreSQL: pairs registered with both players' consent, the start
seeding and pairing the first round, each table's end scoring its game in the transaction
that ends it, the next round paired once when the round's last table ends (even with two
stores over one database ending tables at once), late entry, withdrawal, the end."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from conftest import Opener
from social_accounts import add_player

from baloot.server.journal import TableConfig
from baloot.server.storage import Store
from baloot.server.tournaments.director import CLAIM_LIFE, table_points
from baloot.server.tournaments.store import Kept, TournamentError

NOW = 1000.0


def players(store: Store, count: int) -> list[str]:
    return [add_player(store, f"player {n}", session=False).id for n in range(count)]


def organise(store: Store, organiser: str, rounds: int = 3) -> str:
    return store.create_tournament(organiser, "Friday cup", "classic", None, rounds, "match", NOW)


def enter(store: Store, tournament: str, me: str, partner: str) -> str:
    name = store.player(partner)
    assert name is not None
    pair = store.register_pair(me, tournament, name.name, NOW)
    store.accept_pair(partner, tournament, pair)
    return pair


def make_tables(store: Store, tournament: str) -> list[str]:
    """What the API's seating step does, without a hall: a stored table per claimed game."""
    made = []
    for seating in store.claim_tournament_tables(tournament, NOW):
        table_id = f"t{seating.tournament[:4]}r{seating.round}n{seating.table_no}"
        players = {seat: name for seat, (_, name) in seating.seats.items()}
        store.create(
            TableConfig(table_id, players, ("N", "E", "S", "W"), "classic", 1, None, True, {}, NOW)
        )
        tokens = {seat: f"token-{seat}" for seat in seating.seats}
        assert store.seat_tournament_table(seating, table_id, tokens)
        made.append(table_id)
    return made


def round_tables(kept: Kept) -> list[tuple[str, str | None, str | None]]:
    return [(g.ns, g.ew, g.table_id) for g in kept.games if g.round == kept.listed.round and g.ew]


def finish(store: Store, table_id: str, winner: str) -> None:
    store.finish(table_id, "record", {"winner": winner, "totals": {"NS": 0, "EW": 0}}, NOW)


def tournament(store: Store, tournament: str) -> Kept:
    kept = store.tournament(tournament)
    assert kept is not None
    return kept


def test_a_pair_enters_only_once_the_partner_accepts(opener: Opener) -> None:
    store = opener()
    a, b, c = players(store, 3)
    tid = organise(store, a)
    pair = store.register_pair(a, tid, "player 1", NOW)
    assert [p.state for p in tournament(store, tid).pairs] == ["asked"]
    with pytest.raises(TournamentError, match="no such pair asks you"):
        store.accept_pair(c, tid, pair)
    with pytest.raises(TournamentError, match="is in a pair of this tournament already"):
        store.register_pair(a, tid, "player 2", NOW)
    with pytest.raises(TournamentError, match="a pair is two players"):
        store.register_pair(c, tid, "player 2", NOW)
    with pytest.raises(TournamentError, match="no such player"):
        store.register_pair(c, tid, "nobody", NOW)
    store.accept_pair(b, tid, pair)
    (entered,) = tournament(store, tid).pairs
    assert (entered.state, entered.names) == ("entered", ("player 0", "player 1"))
    store.withdraw_pair(b, tid, pair)  # before the start: the pair is gone
    assert tournament(store, tid).pairs == []


def test_only_the_organiser_starts_and_with_two_pairs(opener: Opener) -> None:
    store = opener()
    ids = players(store, 5)
    tid = organise(store, ids[4])
    enter(store, tid, ids[0], ids[1])
    with pytest.raises(TournamentError, match="two pairs") as refused:
        store.start_tournament(ids[4], tid)
    assert refused.value.status == 409
    enter(store, tid, ids[2], ids[3])
    with pytest.raises(TournamentError, match="only the organiser") as refused:
        store.start_tournament(ids[0], tid)
    assert refused.value.status == 403
    store.start_tournament(ids[4], tid)
    with pytest.raises(TournamentError, match="started already"):
        store.start_tournament(ids[4], tid)


def test_rounds_are_played_at_tables_scored_as_they_end_and_paired_in_turn(
    opener: Opener,
) -> None:
    store = opener()
    ids = players(store, 10)
    tid = organise(store, ids[0], rounds=3)
    pairs = [enter(store, tid, ids[n], ids[n + 1]) for n in range(0, 10, 2)]
    store.start_tournament(ids[0], tid)
    kept = tournament(store, tid)
    assert (kept.listed.state, kept.listed.round) == ("running", 1)
    assert sorted(p.seed or 0 for p in kept.pairs) == [1, 2, 3, 4, 5]
    byes = [g.ns for g in kept.games if g.ew is None]
    assert len(byes) == 1 and len(round_tables(kept)) == 2  # five pairs: one bye
    made = make_tables(store, tid)
    assert make_tables(store, tid) == []  # made once
    assert sorted(str(t) for _, _, t in round_tables(tournament(store, tid))) == sorted(made)
    # Each seat is bound to its account: NS the first pair's two players at N and S.
    first_ns = round_tables(kept)[0][0]
    pair = next(p for p in kept.pairs if p.id == first_ns)
    assert {s: p for s, p in store.seat_players_of(made[0]).items() if s in "NS"} == {
        "N": pair.players[0],
        "S": pair.players[1],
    }
    finish(store, made[0], "NS")
    assert tournament(store, tid).listed.round == 1  # a table of the round is still played
    finish(store, made[1], "EW")
    finish(store, made[1], "NS")  # a second end of the same table changes nothing
    kept = tournament(store, tid)
    assert kept.listed.round == 2
    scored = {(g.round, g.ns, g.ew): (g.ns_points, g.ew_points) for g in kept.games if g.round == 1}
    assert sorted(scored.values()) == [(0.0, 2.0), (2.0, 0.0), (2.0, 0.0)]
    for _ in range(2):
        for table_id in make_tables(store, tid):
            finish(store, table_id, "NS")
    kept = tournament(store, tid)
    assert (kept.listed.state, kept.listed.round) == ("over", 3)
    # Nobody met twice, and no pair had two byes.
    met = [frozenset((g.ns, g.ew)) for g in kept.games if g.ew is not None]
    assert len(met) == len(set(met)) == 6
    assert len({g.ns for g in kept.games if g.ew is None}) == 3
    assert set(pairs) == {p.id for p in kept.pairs}


def test_late_entry_and_withdrawal(opener: Opener) -> None:
    store = opener()
    ids = players(store, 8)
    tid = organise(store, ids[0], rounds=3)
    first = enter(store, tid, ids[0], ids[1])
    enter(store, tid, ids[2], ids[3])
    enter(store, tid, ids[4], ids[5])
    store.start_tournament(ids[0], tid)
    late = enter(store, tid, ids[6], ids[7])  # entered during round 1: plays from round 2
    store.withdraw_pair(ids[1], tid, first)  # stops after round 1
    with pytest.raises(TournamentError, match="withdrawn already"):
        store.withdraw_pair(ids[0], tid, first)
    kept = tournament(store, tid)
    by_id = {p.id: p for p in kept.pairs}
    assert (by_id[late].joined, by_id[late].seed, by_id[first].withdrawn) == (2, 4, 2)
    assert late not in {x for g in kept.games for x in (g.ns, g.ew)}
    for table_id in make_tables(store, tid):
        finish(store, table_id, "NS")
    kept = tournament(store, tid)
    playing = {x for g in kept.games if g.round == 2 for x in (g.ns, g.ew) if x}
    assert late in playing and first not in playing


def test_a_table_closed_unfinished_scores_the_totals_it_stopped_at() -> None:
    assert table_points({"winner": None, "totals": {"NS": 40, "EW": 41}}) == (0, 2)
    assert table_points({"totals": {"NS": 7, "EW": 7}}) == (1, 1)


def test_two_stores_ending_the_last_tables_at_once_pair_the_next_round_once(
    opener: Opener,
) -> None:
    store, other = opener(), opener()
    ids = players(store, 8)
    tid = organise(store, ids[0], rounds=2)
    for n in range(0, 8, 2):
        enter(store, tid, ids[n], ids[n + 1])
    store.start_tournament(ids[0], tid)
    one, two = make_tables(store, tid)
    failures: list[Any] = []

    def end(kept: Store, table_id: str) -> None:
        try:
            finish(kept, table_id, "NS")
        except Exception as failure:
            failures.append(failure)

    threads = [threading.Thread(target=end, args=a) for a in ((store, one), (other, two))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    kept = tournament(store, tid)
    assert kept.listed.round == 2
    assert len([g for g in kept.games if g.round == 2]) == 2


def test_a_claim_to_make_a_table_is_one_nodes_until_it_lapses(opener: Opener) -> None:
    store, other = opener(), opener()
    ids = players(store, 4)
    tid = organise(store, ids[0])
    enter(store, tid, ids[0], ids[1])
    enter(store, tid, ids[2], ids[3])
    store.start_tournament(ids[0], tid)
    (mine,) = store.claim_tournament_tables(tid, NOW)
    assert other.claim_tournament_tables(tid, NOW + CLAIM_LIFE - 1) == []
    (theirs,) = other.claim_tournament_tables(tid, NOW + CLAIM_LIFE + 1)  # its node died
    assert (theirs.round, theirs.table_no) == (mine.round, mine.table_no)
    assert theirs.claim != mine.claim
    for table_id in ("late", "first"):
        store.create(
            TableConfig(table_id, {}, ("N", "E", "S", "W"), "classic", 1, None, True, {}, NOW)
        )
    tokens = dict.fromkeys("NESW", "token")
    assert other.seat_tournament_table(theirs, "first", tokens)
    assert not store.seat_tournament_table(mine, "late", tokens)  # its claim was lost
    (game,) = [g for g in tournament(store, tid).games if g.ew]
    assert game.table_id == "first"


def test_a_table_closed_as_idle_is_scored_as_it_stood(opener: Opener) -> None:
    store = opener()
    ids = players(store, 4)
    tid = organise(store, ids[0], rounds=1)
    enter(store, tid, ids[0], ids[1])
    enter(store, tid, ids[2], ids[3])
    store.start_tournament(ids[0], tid)
    (table_id,) = make_tables(store, tid)
    assert store.close_idle(NOW + 1, NOW + 2) == [table_id]
    kept = tournament(store, tid)
    (game,) = [g for g in kept.games if g.ew]
    assert (game.ns_points, game.ew_points, kept.listed.state) == (1.0, 1.0, "over")
