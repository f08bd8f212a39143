"""The quick match's queue and its pairing step (``docs/quick-match.md``): by rating, the gap
widening with the wait, partners drawn at random yet reproducible, blocked players never
together, bots after the documented time or on request, two stores on one database never
seating one player twice."""

from __future__ import annotations

import random
import threading
from collections import Counter

import pytest
from conftest import Opener
from social_accounts import add_player

from baloot.server.players.quick_match import (
    BOTS_AFTER,
    NEW_RATING,
    Match,
    Waiting,
    allowed_gap,
    pair,
    rating_of,
)
from baloot.server.storage import Store

NOW = 1000.0


def waiting(name: str, rating: float, wait: float = 0.0, *, bots: bool = False) -> Waiting:
    return Waiting(name, name.upper(), "classic", None, rating, NOW - wait, bots)


def seated(matches: list[Match]) -> list[list[str]]:
    return [sorted(match.seats.values()) for match in matches]


def test_four_players_of_close_ratings_make_a_table_and_far_ones_wait() -> None:
    players = [waiting(f"p{n}", NEW_RATING + n * 0.5) for n in range(4)] + [waiting("far", 40.0)]
    assert seated(pair(players, set(), NOW, random.Random(0))) == [["p0", "p1", "p2", "p3"]]


def test_three_players_wait_until_a_fourth_comes() -> None:
    assert pair([waiting(f"p{n}", 25.0) for n in range(3)], set(), NOW, random.Random(0)) == []


def test_the_gap_widens_with_the_first_players_wait() -> None:
    spread = [waiting("a", 20.0), waiting("b", 24.0), waiting("c", 28.0), waiting("d", 30.0)]
    assert pair(spread, set(), NOW, random.Random(0)) == []  # a spread of 10 at once: no
    old = [waiting("a", 20.0, wait=40.0), *spread[1:]]
    assert allowed_gap(40.0) >= 10.0
    assert seated(pair(old, set(), NOW, random.Random(0))) == [["a", "b", "c", "d"]]


def test_the_closest_ratings_are_taken_first() -> None:
    players = [waiting("first", 25.0, 5.0), *(waiting(f"p{n}", 25.0 + n) for n in (3, 1, 2, 0))]
    assert seated(pair(players, set(), NOW, random.Random(0))) == [["first", "p0", "p1", "p2"]]


def test_partners_are_drawn_at_random_and_a_seeded_draw_repeats() -> None:
    players = [waiting(f"p{n}", 25.0) for n in range(4)]

    def partners(seed: int) -> frozenset[frozenset[str]]:
        (match,) = pair(players, set(), NOW, random.Random(seed))
        seats = match.seats
        return frozenset((frozenset((seats["N"], seats["S"])), frozenset((seats["E"], seats["W"]))))

    assert partners(7) == partners(7)
    assert len({partners(seed) for seed in range(40)}) == 3  # every pairing comes up


def test_players_who_block_each_other_are_never_seated_together() -> None:
    players = [waiting(f"p{n}", 25.0, wait=100.0 - n) for n in range(6)]
    blocks = {frozenset(("p0", "p1")), frozenset(("p2", "p0"))}
    for seed in range(20):
        for match in pair(players, blocks, NOW, random.Random(seed)):
            together = set(match.seats.values())
            assert not any(block <= together for block in blocks)


def test_bots_fill_the_empty_seats_after_the_documented_wait() -> None:
    alone = [waiting("p0", 25.0, wait=BOTS_AFTER - 1)]
    assert pair(alone, set(), NOW, random.Random(0)) == []
    alone = [waiting("p0", 25.0, wait=BOTS_AFTER)]
    (match,) = pair(alone, set(), NOW, random.Random(0))
    assert list(match.seats.values()) == ["p0"]


def test_bots_fill_the_empty_seats_when_the_player_asks() -> None:
    two = [waiting("p0", 25.0, bots=True), waiting("p1", 26.0)]
    assert seated(pair(two, set(), NOW, random.Random(0))) == [["p0", "p1"]]


def store_with(store: Store, count: int) -> list[str]:
    return [add_player(store, f"player {n}", session=False).id for n in range(count)]


def test_a_store_claims_a_table_of_four_and_seats_it(opener: Opener) -> None:
    store = opener()
    ids = store_with(store, 5)
    for n, id_ in enumerate(ids):
        store.join_queue(id_, "classic", None, NOW + n)
    ((claim, match),) = store.claim_matches(NOW + 5, random.Random(1))
    assert sorted(match.seats.values()) == sorted(ids[:4])
    assert store.claim_matches(NOW + 5, random.Random(1)) == []  # claimed rows are skipped
    store.release_claim(claim)
    assert len(store.claim_matches(NOW + 5, random.Random(1))) == 1


def test_rating_of_treats_everyone_as_new_without_a_ratings_table(opener: Opener) -> None:
    store = opener()
    (id_,) = store_with(store, 1)
    with store._transaction() as run:
        assert rating_of(run, id_, "classic") is None
        assert run("SELECT 1") == [(1,)]  # the transaction goes on
    assert store.join_queue(id_, "classic", None, NOW).state == "waiting"


def test_a_player_who_stops_polling_leaves_the_queue(opener: Opener) -> None:
    store = opener()
    ids = store_with(store, 4)
    store.join_queue(ids[0], "classic", None, NOW - 100)
    for id_ in ids[1:]:
        store.join_queue(id_, "classic", None, NOW)
    assert store.claim_matches(NOW, random.Random(0)) == []
    assert store.queue_entry(ids[0], NOW) is None


def test_two_stores_on_one_database_never_seat_one_player_twice(opener: Opener) -> None:
    first, second = opener(), opener()
    ids = store_with(first, 60)
    for n, id_ in enumerate(ids):
        first.join_queue(id_, "classic", None, NOW - BOTS_AFTER - n % 7)
        first.queue_entry(id_, NOW)  # polled just now
    claimed: list[str] = []
    start = threading.Barrier(2)

    def step(store: Store, seed: int) -> None:
        rng = random.Random(seed)
        start.wait()
        for _ in range(10):
            for _, match in store.claim_matches(NOW, rng):
                claimed.extend(match.seats.values())

    threads = [threading.Thread(target=step, args=(s, n)) for n, s in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(claimed).most_common(1)[0][1] == 1
    assert sorted(claimed) == sorted(ids)


@pytest.mark.parametrize("preset", ["classic", "federation"])
def test_players_wait_for_their_own_preset_and_timer(opener: Opener, preset: str) -> None:
    store = opener()
    ids = store_with(store, 4)
    for id_ in ids[:3]:
        store.join_queue(id_, preset, 30, NOW)
    store.join_queue(ids[3], preset, None, NOW)
    assert store.claim_matches(NOW, random.Random(0)) == []


def test_a_store_never_seats_a_blocker_with_the_blocked(opener: Opener) -> None:
    store = opener()
    ids = store_with(store, 4)
    store.block(ids[1], "player 0", NOW)
    for id_ in ids:
        store.join_queue(id_, "classic", None, NOW)
    assert store.claim_matches(NOW, random.Random(0)) == []  # only three may sit together
    later = NOW + BOTS_AFTER
    for id_ in ids:
        store.queue_entry(id_, later)
    for _, match in store.claim_matches(later, random.Random(0)):
        assert not {ids[0], ids[1]} <= set(match.seats.values())
