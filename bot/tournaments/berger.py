"""FIDE's Berger tables (Handbook C.05, Annex 1): who meets whom, with which colours, in each round.

Seats are numbered from 1. With an even ``n`` the highest seat ``n`` plays every round on the first
board; with an odd ``n`` the table of ``n + 1`` is used and the player drawn against that missing
seat has the bye, written as a pair with :data:`BYE` in the second place: ``(seat, BYE)``.

Each other pair is ``(white, black)``. Round ``r`` of ``n`` seats (``n`` even, ``m = n - 1``):
the seat opposite ``n`` is ``p = (r - 1) * n / 2 mod m + 1``, White in odd rounds and Black in even
ones; board ``k + 1`` has ``p + k`` (White) against ``p - k`` (Black), counted round ``1..m``.

>>> berger_rounds(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
>>> berger_rounds(3)[0]
[(1, 0), (2, 3)]
>>> berger_rounds(4, double=True)[3]
[(4, 1), (3, 2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.tournaments.records import Bye, Entrant, Pairing

BYE: Final = 0  # the missing seat of an odd table: ``(seat, BYE)`` means ``seat`` has the bye
MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 16


def berger_rounds(n: int, double: bool = False, *, swap_last_two: bool = False) -> list[list[tuple[int, int]]]:
    """Every round of a round robin of ``n`` players (3-16), boards in FIDE's order.

    A double round robin plays the same table twice, the second cycle with colours reversed.
    ``swap_last_two`` plays the first cycle's last two rounds in the other order, as FIDE recommends
    for a double round robin: then no one has the same colour three times running where the cycles
    meet. The default keeps the tables as published.
    """
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"a round robin takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    seats = n + n % 2
    cycle = [_round(seats, r, has_dummy=seats != n) for r in range(1, seats)]
    if not double:
        return cycle
    first = [*cycle[:-2], cycle[-1], cycle[-2]] if swap_last_two else cycle
    return first + [[_reversed(pair) for pair in boards] for boards in cycle]


def bye_in(boards: list[tuple[int, int]]) -> int | None:
    """The seat that has the bye in a round, or None (an even table).

    >>> bye_in(berger_rounds(5)[1]), bye_in(berger_rounds(6)[1])
    (4, None)
    """
    return next((white for white, black in boards if black == BYE), None)


def round_robin_round(entrants: Sequence[Entrant], r: int, double: bool = False, *,
                      swap_last_two: bool = False) -> tuple[list[Pairing], Bye | None]:
    """Round ``r`` (from 1) of a round robin as the history's values: seat ``i`` is ``entrants[i - 1]``.

    The bye of an odd table is a pairing-allocated bye (FIDE C.05: the player drawn against the
    missing seat scores as for a bye).

    >>> ann, bob, cy = Entrant(1, "ann", 1600), Entrant(2, "bob", 1500), Entrant(3, "cy", 1400)
    >>> round_robin_round([ann, bob, cy], 2)
    ([Pairing(round=2, white=1, black=2, result=None)], Bye(round=2, player=3, kind='pairing'))
    """
    rounds = berger_rounds(len(entrants), double, swap_last_two=swap_last_two)
    if not 1 <= r <= len(rounds):
        raise ValueError(f"a round robin of {len(entrants)} has rounds 1 to {len(rounds)}, not {r}")
    boards = rounds[r - 1]
    seat = bye_in(boards)
    pairings = [Pairing(r, entrants[w - 1].id, entrants[b - 1].id) for w, b in boards if b != BYE]
    return pairings, None if seat is None else Bye(r, entrants[seat - 1].id, "pairing")


def _round(seats: int, r: int, *, has_dummy: bool) -> list[tuple[int, int]]:
    m = seats - 1
    p = (r - 1) * seats // 2 % m + 1
    first = (p, seats) if r % 2 else (seats, p)
    if has_dummy:
        first = (p, BYE)
    others = [(_wrap(p + k, m), _wrap(p - k, m)) for k in range(1, seats // 2)]
    return [first, *others]


def _wrap(seat: int, m: int) -> int:
    return (seat - 1) % m + 1


def _reversed(pair: tuple[int, int]) -> tuple[int, int]:
    white, black = pair
    return pair if black == BYE else (black, white)
