"""Captures and promotions only, for the quiescence search: the rules core's generator with
every destination but enemy pieces (and promotion squares) left out, and nothing else changed.

Only for a side that is not in check (in check, the search takes every evasion).

>>> from makruk import Board
>>> [m.uci() for m in tactical_moves(Board("4k3/8/8/3p4/4P3/8/8/3K4 w - - 0 1"))]
['e4d5']
"""

from __future__ import annotations

from makruk import attacks as A
from makruk.types import MOVES, Move, PieceType

BIA, BIA_NGAI, MET, KHON, MA, RUA, KHUN = (int(k) for k in PieceType)
BLACK_OFFSET = 8


def tactical_moves(board) -> list[Move]:
    """The legal captures and promotions of the side to move, which must not be in check."""
    us = board.turn
    off = 0 if us else BLACK_OFFSET
    bb, squares = board._bb, board._squares
    ours, theirs = board._occ[us], board._occ[not us]
    occupied = ours | theirs
    ksq = bb[KHUN + off].bit_length() - 1
    moves: list[Move] = []

    without_khun = occupied ^ (1 << ksq)
    row = MOVES[ksq]
    targets = A.KHUN[ksq] & theirs
    while targets:
        low = targets & -targets
        to = low.bit_length() - 1
        targets ^= low
        if not board._attackers(not us, to, without_khun):
            moves.append(row[to][0])

    pins: dict[int, int] = {}
    enemy_rua = bb[RUA + (BLACK_OFFSET - off)] & A.RUA_RAYS[ksq]
    while enemy_rua:
        low = enemy_rua & -enemy_rua
        rsq = low.bit_length() - 1
        enemy_rua ^= low
        between = A.BETWEEN[ksq][rsq]
        blockers = between & occupied
        if blockers and not blockers & (blockers - 1) and blockers & ours:
            pins[blockers] = between | low

    zone = board._promotion_zone(us)
    promo_from = board._promotion_from_mask(us)
    last = A.RANK_8 if us else A.RANK_1
    forced = board.promotion == "forced"
    pieces = ours & ~bb[KHUN + off]
    while pieces:
        low = pieces & -pieces
        frm = low.bit_length() - 1
        pieces ^= low
        kind = squares[frm] - off
        if kind == BIA:
            dests = A.BIA_CAPTURES[us][frm] & theirs
            if low & promo_from:
                dests |= A.BIA_PUSH[us][frm] & ~occupied & zone
        elif kind == RUA:
            dests = A.rua_attacks(frm, occupied) & theirs
        elif kind == MA:
            dests = A.MA[frm] & theirs
        elif kind == KHON:
            dests = A.KHON[us][frm] & theirs
        else:  # Met and Bia Ngai
            dests = A.MET[frm] & theirs
        pin = pins.get(low)
        if pin is not None:
            dests &= pin
        row = MOVES[frm]
        while dests:
            bit = dests & -dests
            to = bit.bit_length() - 1
            dests ^= bit
            if kind == BIA and bit & zone:
                moves.append(row[to][1])  # the promotion; declining it gains nothing here
                if not forced and not bit & last and squares[to]:
                    moves.append(row[to][0])
            else:
                moves.append(row[to][0])
    return moves
