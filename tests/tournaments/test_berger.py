"""Berger tables: FIDE's published tables (Handbook C.05, Annex 1) written out, and the shape of all sizes."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from bot.tournaments.berger import BYE, berger_rounds, bye_in, round_robin_round
from bot.tournaments.records import Entrant, Pairing


def _table(text: str) -> list[list[tuple[int, int]]]:
    """One line a round, boards as ``white-black``."""
    return [[(int(w), int(b)) for w, b in (board.split("-") for board in line.split())]
            for line in text.strip().splitlines()]


# FIDE Handbook C.05 Annex 1, as printed (round by round, board 1 first).
PUBLISHED = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """,
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """,
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """,
    10: """
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1
    """,
    12: """
        1-12 2-11 3-10 4-9 5-8 6-7
        12-7 8-6 9-5 10-4 11-3 1-2
        2-12 3-1 4-11 5-10 6-9 7-8
        12-8 9-7 10-6 11-5 1-4 2-3
        3-12 4-2 5-1 6-11 7-10 8-9
        12-9 10-8 11-7 1-6 2-5 3-4
        4-12 5-3 6-2 7-1 8-11 9-10
        12-10 11-9 1-8 2-7 3-6 4-5
        5-12 6-4 7-3 8-2 9-1 10-11
        12-11 1-10 2-9 3-8 4-7 5-6
        6-12 7-5 8-4 9-3 10-2 11-1
    """,
    14: """
        1-14 2-13 3-12 4-11 5-10 6-9 7-8
        14-8 9-7 10-6 11-5 12-4 13-3 1-2
        2-14 3-1 4-13 5-12 6-11 7-10 8-9
        14-9 10-8 11-7 12-6 13-5 1-4 2-3
        3-14 4-2 5-1 6-13 7-12 8-11 9-10
        14-10 11-9 12-8 13-7 1-6 2-5 3-4
        4-14 5-3 6-2 7-1 8-13 9-12 10-11
        14-11 12-10 13-9 1-8 2-7 3-6 4-5
        5-14 6-4 7-3 8-2 9-1 10-13 11-12
        14-12 13-11 1-10 2-9 3-8 4-7 5-6
        6-14 7-5 8-4 9-3 10-2 11-1 12-13
        14-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-14 8-6 9-5 10-4 11-3 12-2 13-1
    """,
}


@pytest.mark.parametrize("n", sorted(PUBLISHED))
def test_tables_are_fides(n: int) -> None:
    assert berger_rounds(n) == _table(PUBLISHED[n])


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_an_odd_table_is_the_next_even_one_with_its_last_seat_a_bye(n: int) -> None:
    even = berger_rounds(n + 1)
    odd = berger_rounds(n)
    for boards_odd, boards_even in zip(odd, even, strict=True):
        (seat, bye), *rest = boards_odd
        assert bye == BYE and seat in boards_even[0] and n + 1 in boards_even[0]
        assert rest == boards_even[1:]
        assert bye_in(boards_odd) == seat


@pytest.mark.parametrize("n", range(3, 17))
def test_everyone_meets_everyone_once_a_cycle(n: int) -> None:
    rounds = berger_rounds(n)
    seats = n + n % 2
    assert len(rounds) == seats - 1
    met = Counter(frozenset(pair) for boards in rounds for pair in boards if BYE not in pair)
    assert set(met) == {frozenset(p) for p in combinations(range(1, n + 1), 2)}
    assert set(met.values()) == {1}
    for boards in rounds:  # each seat once a round
        seen = [s for pair in boards for s in pair if s != BYE]
        assert sorted(seen) == list(range(1, n + 1))
    if n % 2:
        assert sorted(bye_in(boards) or 0 for boards in rounds) == list(range(1, n + 1))


@pytest.mark.parametrize("n", range(4, 17, 2))
def test_colours_are_balanced_and_the_last_seat_alternates(n: int) -> None:
    rounds = berger_rounds(n)
    whites = Counter(white for boards in rounds for white, _ in boards)
    # n - 1 games each: n/2 Whites for seats 1..n/2 - 1 ... every seat has n/2 or n/2 - 1
    assert set(whites.values()) <= {n // 2, n // 2 - 1}
    assert sum(whites.values()) == n * (n - 1) // 2
    last = ["w" if boards[0][0] == n else "b" for boards in rounds]
    assert last == ["b" if r % 2 else "w" for r in range(1, n)]


@pytest.mark.parametrize("n", range(3, 17))
def test_a_double_round_robin_repeats_with_colours_reversed(n: int) -> None:
    single, double = berger_rounds(n), berger_rounds(n, double=True)
    assert double[: len(single)] == single
    for first, second in zip(single, double[len(single):], strict=True):
        assert second == [pair if BYE in pair else pair[::-1] for pair in first]


@pytest.mark.parametrize("n", [0, 2, 17])
def test_sizes_outside_three_to_sixteen_are_refused(n: int) -> None:
    with pytest.raises(ValueError, match="3 to 16"):
        berger_rounds(n)


def test_a_round_as_the_historys_values() -> None:
    players = [Entrant(10 + seat, f"p{seat}", 1500) for seat in range(1, 6)]
    seen: set[frozenset[int]] = set()
    byes = []
    for r in range(1, 6):
        pairings, bye = round_robin_round(players, r)
        assert all(p.round == r and p.result is None for p in pairings)
        assert bye is not None and bye.round == r and bye.kind == "pairing"
        byes.append(bye.player)
        seen |= {frozenset((p.white, p.black)) for p in pairings}
    assert sorted(byes) == [11, 12, 13, 14, 15]
    assert len(seen) == 10
    pairings, bye = round_robin_round(players[:4], 2)
    assert [(p.white, p.black) for p in pairings] == [(14, 13), (11, 12)] and bye is None
    assert round_robin_round(players[:4], 6, double=True)[0] == [Pairing(6, 14, 12), Pairing(6, 11, 13)]  # 3 reversed


def test_a_round_outside_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="rounds 1 to 3"):
        round_robin_round([Entrant(i, "x", 0) for i in range(4)], 4)


def _longest_run_of_one_colour(rounds: list[list[tuple[int, int]]], n: int) -> int:
    longest = 0
    for seat in range(1, n + 1):
        colours = [("w" if w == seat else "b") for boards in rounds for w, b in boards if seat in (w, b)]
        run = 0
        for i, colour in enumerate(colours):
            run = run + 1 if i and colour == colours[i - 1] else 1
            longest = max(longest, run)
    return longest


@pytest.mark.parametrize("n", range(4, 17, 2))
def test_swapping_the_last_two_rounds_avoids_three_same_colours_in_a_row(n: int) -> None:
    plain = berger_rounds(n, double=True)
    swapped = berger_rounds(n, double=True, swap_last_two=True)
    assert _longest_run_of_one_colour(plain, n) == 3
    assert _longest_run_of_one_colour(swapped, n) == 2
    assert swapped[: n - 3] == plain[: n - 3] and swapped[n - 1:] == plain[n - 1:]
    assert (swapped[n - 3], swapped[n - 2]) == (plain[n - 2], plain[n - 3])
    assert berger_rounds(n, swap_last_two=True) == berger_rounds(n)  # a single cycle is as published
