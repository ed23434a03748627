"""The evaluation of the Makruk family in centipawns: material, piece squares, Bia advancement,
Khun safety, Rua and Ma mobility, and the endgame knowledge the counting rules call for.

Material and piece-square values are kept incrementally by the search (``scores`` once,
``move_delta`` per move, both signed White-positive, from the variant's ``Tables``);
``evaluate`` adds the terms that need the whole position and answers from the side to move's
point of view. The variants share the pieces and most values; what differs is where a Bia
promotes (the Bia's squares), how the count starts (declared, or by itself in ASEAN and
Sittuyin) and which material is a dead draw (Makruk's table, or two bare Khuns).

>>> from makruk import Board
>>> evaluate(Board(), *scores(Board())), evaluate(Board(variant="asean"), *scores(Board(variant="asean")))
(0, 0)
"""

from __future__ import annotations

from typing import NamedTuple

from makruk import Board
from makruk import attacks as A
from makruk.counting import is_dead_material
from makruk.types import BLACK_OFFSET, DROP_KINDS, Move, PieceType

BIA, BIA_NGAI, MET, KHON, MA, RUA, KHUN = (int(k) for k in PieceType)

# (middlegame, endgame) values; a Bia Ngai moves like a Met and is worth as much.
VALUES: dict[int, tuple[int, int]] = {
    BIA: (100, 120),
    BIA_NGAI: (210, 230),
    MET: (210, 230),
    KHON: (320, 330),
    MA: (330, 320),
    RUA: (560, 600),
    KHUN: (0, 0),
}
# Exchange values for ordering captures (MVV-LVA) and for delta pruning.
ORDER_VALUE = [0] * 16
for _kind, (_mg, _eg) in VALUES.items():
    ORDER_VALUE[_kind] = ORDER_VALUE[_kind + BLACK_OFFSET] = _mg
ORDER_VALUE[KHUN] = ORDER_VALUE[KHUN + BLACK_OFFSET] = 2000

# Game phase from the pieces left (Rua 4, Ma and Khon 2, Met and Bia Ngai 1): 24 at the start.
MAX_PHASE = 24
MATE_MATERIAL_THRESHOLD = 550  # without a Rua, less than this rarely mates within the count


def _table(rows: list[list[int]]) -> list[int]:
    """A table written rank 8 first (as seen from White) into a1-first order."""
    return [value for row in reversed(rows) for value in row]


_CENTRE = _table([
    [0, 2, 4, 6, 6, 4, 2, 0],
    [2, 6, 10, 12, 12, 10, 6, 2],
    [4, 10, 16, 20, 20, 16, 10, 4],
    [6, 12, 20, 24, 24, 20, 12, 6],
    [6, 12, 20, 24, 24, 20, 12, 6],
    [4, 10, 16, 20, 20, 16, 10, 4],
    [2, 6, 10, 12, 12, 10, 6, 2],
    [0, 2, 4, 6, 6, 4, 2, 0],
])
_MA = _table([
    [-40, -25, -15, -10, -10, -15, -25, -40],
    [-25, -5, 5, 10, 10, 5, -5, -25],
    [-15, 10, 20, 25, 25, 20, 10, -15],
    [-10, 10, 25, 30, 30, 25, 10, -10],
    [-10, 5, 20, 25, 25, 20, 5, -10],
    [-15, 0, 10, 15, 15, 10, 0, -15],
    [-25, -10, 0, 0, 0, 0, -10, -25],
    [-40, -25, -20, -15, -15, -20, -25, -40],
])
# A Bia gains as it nears the promotion rank (rank 6); ranks 6-7 only under optional promotion.
_BIA = _table([
    [0] * 8,
    [60, 60, 65, 70, 70, 65, 60, 60],
    [45, 45, 50, 55, 55, 50, 45, 45],
    [22, 24, 28, 34, 34, 28, 24, 22],
    [8, 10, 14, 20, 20, 14, 10, 8],
    [0, 0, 2, 6, 6, 2, 0, 0],
    [0] * 8,
    [0] * 8,
])
# ASEAN: a Bia promotes on the last rank, most often to a Rua, so the last steps are worth most.
_BIA_ASEAN = _table([
    [0] * 8,
    [80, 80, 85, 90, 90, 85, 80, 80],
    [40, 40, 45, 50, 50, 45, 40, 40],
    [20, 22, 26, 32, 32, 26, 22, 20],
    [8, 10, 14, 20, 20, 14, 10, 8],
    [0, 0, 2, 6, 6, 2, 0, 0],
    [0] * 8,
    [0] * 8,
])
# Sittuyin: a Bia promotes to a Sit-ke by a move of its own on the long diagonals of the enemy
# half; the last rank is a dead end. Symmetric in the files, as Black's Bia stand White's turned round.
_SITTUYIN_RANKS = [0, 0, 0, 6, 16, 24, 26, 10]
_SITTUYIN_PROMOTION = {56, 49, 42, 35, 36, 45, 54, 63}
_BIA_SITTUYIN = [
    _SITTUYIN_RANKS[sq >> 3] + (0, 0, 2, 4, 4, 2, 0, 0)[sq & 7] + (12 if sq in _SITTUYIN_PROMOTION else 0)
    for sq in range(64)
]
_KHUN_MG = _table([
    [-60, -60, -60, -60, -60, -60, -60, -60],
    [-50, -50, -50, -50, -50, -50, -50, -50],
    [-40, -40, -40, -40, -40, -40, -40, -40],
    [-30, -30, -35, -40, -40, -35, -30, -30],
    [-20, -20, -25, -30, -30, -25, -20, -20],
    [-10, -10, -15, -20, -20, -15, -10, -10],
    [5, 10, 5, 0, 0, 5, 10, 5],
    [10, 15, 10, 5, 5, 10, 15, 10],
])
_KHUN_EG = [2 * c - 24 for c in _CENTRE]
_RUA = _table([
    [0, 0, 0, 5, 5, 0, 0, 0],
    [10, 15, 15, 15, 15, 15, 15, 10],
    [0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 5, 5, 0, 0, 0],
])


class Tables(NamedTuple):
    """Signed (White +, Black -) material plus square values per piece code and square."""

    mg: list[list[int]]
    eg: list[list[int]]


def _piece_squares(bia: list[int]) -> Tables:
    positional_mg = {
        BIA: bia,
        BIA_NGAI: [c // 2 for c in _CENTRE],
        MET: [c // 2 for c in _CENTRE],
        KHON: [c // 2 + (4 if sq >> 3 in (2, 3, 4) else 0) for sq, c in enumerate(_CENTRE)],
        MA: _MA,
        RUA: _RUA,
        KHUN: _KHUN_MG,
    }
    positional_eg = {
        BIA: [v + v // 2 for v in bia],
        BIA_NGAI: _CENTRE,
        MET: _CENTRE,
        KHON: _CENTRE,
        MA: _MA,
        RUA: [0] * 64,
        KHUN: _KHUN_EG,
    }
    mg = [[0] * 64 for _ in range(16)]
    eg = [[0] * 64 for _ in range(16)]
    for kind, (value_mg, value_eg) in VALUES.items():
        for sq in range(64):
            mg[kind][sq] = value_mg + positional_mg[kind][sq]
            eg[kind][sq] = value_eg + positional_eg[kind][sq]
            mirrored = sq ^ 56  # Black's square seen from its own side
            mg[kind + BLACK_OFFSET][sq] = -(value_mg + positional_mg[kind][mirrored])
            eg[kind + BLACK_OFFSET][sq] = -(value_eg + positional_eg[kind][mirrored])
    return Tables(mg, eg)


_MAKRUK_TABLES = _piece_squares(_BIA)
TABLES: dict[str, Tables] = {
    "makruk": _MAKRUK_TABLES,
    "makpong": _MAKRUK_TABLES,
    "cambodian": _MAKRUK_TABLES,
    "karouk": _MAKRUK_TABLES,  # Ouk Chatrang where the first check wins: a check is scored as a mate
    "asean": _piece_squares(_BIA_ASEAN),
    "sittuyin": _piece_squares(_BIA_SITTUYIN),
}


def tables_for(variant: str) -> Tables:
    """The values of ``variant``'s pieces (Makruk's for a variant not in ``TABLES``; a test keeps it complete)."""
    return TABLES.get(variant, _MAKRUK_TABLES)


def counts_by_itself(board: Board) -> bool:
    """Whether the count starts by itself (ASEAN, Sittuyin) rather than being declared (Makruk's family).

    >>> counts_by_itself(Board(variant="asean")), counts_by_itself(Board(variant="cambodian"))
    (True, False)
    """
    return not board.declared_counting


_CENTRE_DISTANCE = [max(3 - min(sq & 7, 7 - (sq & 7)), 3 - min(sq >> 3, 7 - (sq >> 3))) for sq in range(64)]


def scores(board: Board, tables: Tables | None = None) -> tuple[int, int]:
    """Signed (middlegame, endgame) material and square values of the pieces on ``board``."""
    mg_table, eg_table = tables or tables_for(board.variant)
    mg = eg = 0
    for sq, code in enumerate(board.piece_codes):
        if code:
            mg += mg_table[code][sq]
            eg += eg_table[code][sq]
    return mg, eg


def move_delta(board: Board, move: Move, tables: Tables) -> tuple[int, int]:
    """How ``move`` (not yet made on ``board``) changes the values of ``scores`` (from ``tables``)."""
    frm, to = move.from_square, move.to_square
    if move.promotion or frm == to:
        return _promotion_or_drop_delta(board, move, tables)
    squares = board.piece_codes
    mg, eg = tables
    code, captured = squares[frm], squares[to]
    return mg[code][to] - mg[code][frm] - mg[captured][to], eg[code][to] - eg[code][frm] - eg[captured][to]


def _promotion_or_drop_delta(board: Board, move: Move, tables: Tables) -> tuple[int, int]:
    mg, eg = tables
    frm, to = move.from_square, move.to_square
    if move.drop:  # Sittuyin's deployment
        new = DROP_KINDS[move.drop] + (0 if board.turn else BLACK_OFFSET)
        return mg[new][to], eg[new][to]
    code = board.piece_codes[frm]
    new = (board.promoted_kind(move) or BIA_NGAI) + code - BIA  # a Bia Ngai, ASEAN's choice, a Sit-ke
    captured = board.piece_codes[to] if to != frm else 0  # Sittuyin's Bia may promote where it stands
    return mg[new][to] - mg[code][frm] - mg[captured][to], eg[new][to] - eg[code][frm] - eg[captured][to]


def promotion_gain(board: Board, move: Move) -> int:
    """What a promotion adds to the material (for delta pruning); 0 for other moves."""
    kind = board.promoted_kind(move)
    return ORDER_VALUE[kind] - ORDER_VALUE[BIA] if kind is not None else 0


def hand_value(board: Board) -> int:
    """The pieces still in hand (Sittuyin's deployment), for the side to move: ours minus theirs."""
    value = 0
    for color, sign in ((board.turn, 1), (not board.turn, -1)):
        for kind, number in board.pocket(color).items():
            value += sign * number * VALUES[kind][0]
    return value


def evaluate(board: Board, mg: int, eg: int) -> int:
    """The position's value for the side to move; 0 for dead-draw material."""
    bb = board.bitboards
    occ_white, occ_black = board.occupied_co[1], board.occupied_co[0]
    occupied = occ_white | occ_black
    phase = (4 * (bb[RUA] | bb[RUA + BLACK_OFFSET]).bit_count()
             + 2 * (bb[MA] | bb[MA + BLACK_OFFSET] | bb[KHON] | bb[KHON + BLACK_OFFSET]).bit_count()
             + (bb[MET] | bb[MET + BLACK_OFFSET] | bb[BIA_NGAI] | bb[BIA_NGAI + BLACK_OFFSET]).bit_count())
    if phase > MAX_PHASE:
        phase = MAX_PHASE
    score = int((mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE)  # rounds as for either side
    score += _mobility(bb, occupied, occ_white, occ_black)

    white_k = bb[KHUN].bit_length() - 1
    black_k = bb[KHUN + BLACK_OFFSET].bit_length() - 1
    if phase > 8:  # Khun safety: own pieces around the Khun, no enemy Rua on its file
        shelter = 6 * (A.KHUN[white_k] & occ_white).bit_count() - 6 * (A.KHUN[black_k] & occ_black).bit_count()
        if bb[RUA + BLACK_OFFSET] & A.FILE_ATTACKS[white_k][0]:
            shelter -= 15
        if bb[RUA] & A.FILE_ATTACKS[black_k][0]:
            shelter += 15
        score += int(shelter * phase / MAX_PHASE)

    if not (bb[BIA] | bb[BIA + BLACK_OFFSET]):
        score = _endgame(board, score, white_k, black_k)
    return score if board.turn else -score


def _mobility(bb: list[int], occupied: int, occ_white: int, occ_black: int) -> int:
    """Squares the Rua and Ma reach (the short-stepping pieces' squares are in the tables)."""
    mobility = 0
    rua_attacks, ma = A.rua_attacks, A.MA
    for code, sign, own in ((RUA, 3, occ_white), (RUA + BLACK_OFFSET, -3, occ_black)):
        pieces = bb[code]
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            mobility += sign * (rua_attacks(low.bit_length() - 1, occupied) & ~own).bit_count()
    for code, sign, own in ((MA, 2, occ_white), (MA + BLACK_OFFSET, -2, occ_black)):
        pieces = bb[code]
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            mobility += sign * (ma[low.bit_length() - 1] & ~own).bit_count()
    return mobility


def _endgame(board: Board, score: int, white_k: int, black_k: int) -> int:
    """No unpromoted Bia: counting and dead material decide what the material is worth."""
    if white_k < 0 or black_k < 0:
        return score  # a Khun still in hand (Sittuyin's deployment)
    squares = board.piece_codes
    if board.declared_counting and (board.occupied_co[0] | board.occupied_co[1]).bit_count() <= 8 \
            and is_dead_material(squares):
        return 0  # Makruk's table of dead material (ASEAN and Sittuyin draw only two bare Khuns)
    white_bare = board.occupied_co[1] == 1 << white_k
    black_bare = board.occupied_co[0] == 1 << black_k
    if white_bare and black_bare:
        return 0
    strong = score > 0  # True: White is ahead
    weak_k, strong_k = (black_k, white_k) if strong else (white_k, black_k)
    material = _material(board, strong)
    if material < MATE_MATERIAL_THRESHOLD and not board.bitboards[RUA + (0 if strong else BLACK_OFFSET)]:
        score = int(score / 4)  # Khon, Ma, Met and Bia Ngai alone seldom mate in time
    elif abs(score) > 250:
        # Mop-up: drive the lone Khun to the edge, bring our Khun close.
        distance = abs((weak_k & 7) - (strong_k & 7)) + abs((weak_k >> 3) - (strong_k >> 3))
        bonus = 12 * _CENTRE_DISTANCE[weak_k] + 6 * (14 - distance)
        army = board.occupied_co[1 if strong else 0] & ~(1 << strong_k)  # the other pieces close in too
        while army:
            low = army & -army
            army ^= low
            sq = low.bit_length() - 1
            bonus += 2 * (7 - max(abs((sq & 7) - (weak_k & 7)), abs((sq >> 3) - (weak_k >> 3))))
        score += bonus if strong else -bonus

    count = board.count
    if count is None and (white_bare or black_bare):
        # ASEAN's count starts by itself from the strongest piece; in Makruk's family the bare side
        # declares the pieces' honour count as soon as it may (Ouk's limits are one move shorter).
        limit = board.count_limit(not white_bare)
        if limit is None:
            return score  # a Met alone: no count, only the 50-move rule
        if limit <= 0:
            return 0
        remaining = limit
    elif count is not None:
        remaining = count.limit - count.done
    else:
        return score
    if remaining < 30:
        score = int(score * (remaining + 6) / 36)  # a running count is worth less as it runs out
    return score


def _material(board: Board, white: bool) -> int:
    bb = board.bitboards
    off = 0 if white else BLACK_OFFSET
    return sum(VALUES[kind][1] * bb[kind + off].bit_count() for kind in (BIA_NGAI, MET, KHON, MA, RUA))


def static_eval(board: Board) -> int:
    """``evaluate`` for a board whose values are not being kept incrementally."""
    return evaluate(board, *scores(board))
