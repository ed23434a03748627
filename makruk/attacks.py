"""Attack tables as bitboards (bit ``sq`` set = square ``sq``), computed once at import."""

from __future__ import annotations

from collections.abc import Iterator

Bitboard = int
ALL: Bitboard = (1 << 64) - 1
RANK_1: Bitboard = 0xFF
RANK_8: Bitboard = 0xFF << 56


def _on_board(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def _step_table(steps: list[tuple[int, int]]) -> list[Bitboard]:
    table = []
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        bb = 0
        for df, dr in steps:
            if _on_board(f + df, r + dr):
                bb |= 1 << ((r + dr) * 8 + f + df)
        table.append(bb)
    return table


_DIAGONALS = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
_ORTHOGONALS = [(1, 0), (-1, 0), (0, 1), (0, -1)]

KHUN: list[Bitboard] = _step_table(_DIAGONALS + _ORTHOGONALS)
MET: list[Bitboard] = _step_table(_DIAGONALS)  # also the Bia Ngai
MA: list[Bitboard] = _step_table([(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)])
# Indexed by colour (False = Black, True = White): forward is up the board for White.
KHON: tuple[list[Bitboard], list[Bitboard]] = (
    _step_table([*_DIAGONALS, (0, -1)]),
    _step_table([*_DIAGONALS, (0, 1)]),
)
BIA_CAPTURES: tuple[list[Bitboard], list[Bitboard]] = (
    _step_table([(1, -1), (-1, -1)]),
    _step_table([(1, 1), (-1, 1)]),
)
BIA_PUSH: tuple[list[Bitboard], list[Bitboard]] = (_step_table([(0, -1)]), _step_table([(0, 1)]))


def _ray(sq: int, df: int, dr: int) -> list[int]:
    f, r = sq & 7, sq >> 3
    out = []
    while _on_board(f + df, r + dr):
        f, r = f + df, r + dr
        out.append(r * 8 + f)
    return out


def _line_table(directions: list[tuple[int, int]]) -> tuple[list[Bitboard], list[dict[Bitboard, Bitboard]]]:
    """Masks of the relevant blockers and attack sets keyed by the blockers present."""
    masks, tables = [], []
    for sq in range(64):
        rays = [_ray(sq, df, dr) for df, dr in directions]
        # The last square of a ray never blocks anything beyond it.
        mask = 0
        for ray in rays:
            for s in ray[:-1]:
                mask |= 1 << s
        table = {}
        subset = 0
        while True:  # every subset of mask (Carry-Rippler enumeration)
            attacks = 0
            for ray in rays:
                for s in ray:
                    attacks |= 1 << s
                    if subset >> s & 1:
                        break
            table[subset] = attacks
            subset = (subset - mask) & mask
            if subset == 0:
                break
        masks.append(mask)
        tables.append(table)
    return masks, tables


RANK_MASKS, RANK_ATTACKS = _line_table([(1, 0), (-1, 0)])
FILE_MASKS, FILE_ATTACKS = _line_table([(0, 1), (0, -1)])
RUA_RAYS: list[Bitboard] = _step_table([])  # filled below: all squares on the same rank and file
for _sq in range(64):
    RUA_RAYS[_sq] = RANK_ATTACKS[_sq][0] | FILE_ATTACKS[_sq][0]


def rua_attacks(sq: int, occupied: Bitboard) -> Bitboard:
    return RANK_ATTACKS[sq][occupied & RANK_MASKS[sq]] | FILE_ATTACKS[sq][occupied & FILE_MASKS[sq]]


def _between_table() -> list[list[Bitboard]]:
    """Squares strictly between two squares on one rank or file (0 otherwise)."""
    table = [[0] * 64 for _ in range(64)]
    for a in range(64):
        for df, dr in _ORTHOGONALS:
            bb = 0
            for s in _ray(a, df, dr):
                table[a][s] = bb
                bb |= 1 << s
    return table


BETWEEN: list[list[Bitboard]] = _between_table()


def squares(bb: Bitboard) -> Iterator[int]:
    """Yields the squares of a bitboard, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def popcount(bb: Bitboard) -> int:
    return bb.bit_count()
