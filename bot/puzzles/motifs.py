"""Tactical motifs of a puzzle's line, read with the rules core: forks by piece, pins, skewers,
discovered attacks, mating patterns, the variants' own rules, and the line's length.

Each returns the tags it finds (names as lichess's where one exists); ``themes.tags`` adds them.

>>> length_tag(1), length_tag(2), length_tag(3), length_tag(5)
('oneMove', 'short', 'long', 'veryLong')
"""

from __future__ import annotations

from collections.abc import Sequence

from makruk import Board, Move, PieceType
from makruk import attacks as A

from .verify import VALUES

FORK_TAGS = {PieceType.MA: "forkMa", PieceType.KHON: "forkKhon", PieceType.MET: "forkMet",
             PieceType.BIA_NGAI: "forkMet", PieceType.BIA: "forkBia"}
MOTIF_THEMES = frozenset({
    "fork", *FORK_TAGS.values(), "pin", "skewer", "discoveredAttack",
    "ruaMaMate", "twoRuaMate", "metMate", "khonMate", "smotheredMate",
    "makpongCheck", "oukLeap", "sittuyinPromotion", "oneMove", "short", "long", "veryLong",
})


def motifs(fen: str, moves: Sequence[str], *, variant: str = "makruk") -> list[str]:
    """Every motif of the line, in a fixed order."""
    found: list[str] = []
    found += forks(fen, moves, variant)
    found += pins_and_skewers(fen, moves, variant)
    found += discovered(fen, moves, variant)
    found += mate_pattern(fen, moves, variant)
    found += variant_rules(fen, moves, variant)
    return found


def length_tag(solver_moves: int) -> str:
    return {1: "oneMove", 2: "short", 3: "long"}.get(solver_moves, "veryLong")


def forks(fen: str, moves: Sequence[str], variant: str) -> list[str]:
    """A solver move's piece attacks two targets worth more than itself (the Khun counts), and a
    later solver move takes one of them, or the move ends a line that does not mate (where the
    gain settles): ``fork`` and ``forkMa``/``forkKhon``/``forkMet``/``forkBia``."""
    board = Board(fen, variant=variant)
    solver = board.turn
    line = [Move.from_uci(u) for u in moves]
    for ply, move in enumerate(line):
        board.push(move)
        if ply % 2:
            continue
        piece = board.piece_at(move.to_square)
        if piece is None:
            continue
        targets = {sq for sq in _attacked_from(board, move.to_square, solver)
                   if (t := board.piece_at(sq)) is not None and t.color != solver
                   and (t.kind == PieceType.KHUN or VALUES[t.kind] > VALUES[piece.kind])}
        # The last move of a material line is where the gain settles: its fork needs no capture.
        last = ply == len(line) - 1 and not board.is_checkmate()
        if len(targets) >= 2 and (last or targets & {m.to_square for m in line[ply + 2::2]}):
            return ["fork", FORK_TAGS[piece.kind]] if piece.kind in FORK_TAGS else ["fork"]
    return []


def pins_and_skewers(fen: str, moves: Sequence[str], variant: str) -> list[str]:
    """After a solver move a Rua's line runs through an enemy piece to the enemy Khun or a piece
    worth more (a pin) or less (a skewer, the front piece the Khun or a Rua), and a later solver
    move takes the piece pinned or the one behind."""
    board = Board(fen, variant=variant)
    solver = board.turn
    line = [Move.from_uci(u) for u in moves]
    found: list[str] = []
    for ply, move in enumerate(line):
        board.push(move)
        if ply % 2 or ply + 2 >= len(line):
            continue
        later = {m.to_square for m in line[ply + 2::2]}
        for front, behind in _rua_lines(board, solver):
            f, b = board.piece_at(front), board.piece_at(behind)
            assert f is not None and b is not None
            if (b.kind == PieceType.KHUN or VALUES[b.kind] > VALUES[f.kind]) and front in later:
                found.append("pin")
            elif (f.kind == PieceType.KHUN or (f.kind == PieceType.RUA and VALUES[b.kind] < VALUES[f.kind])) \
                    and behind in later:
                found.append("skewer")
    return sorted(set(found), key=["pin", "skewer"].index)


def discovered(fen: str, moves: Sequence[str], variant: str) -> list[str]:
    """A solver move opens a Rua's line onto the enemy Khun or a piece a later solver move takes."""
    board = Board(fen, variant=variant)
    solver = board.turn
    line = [Move.from_uci(u) for u in moves]
    for ply, move in enumerate(line):
        if ply % 2 == 0:
            before = set(_rua_targets(board, solver, exclude=move.from_square))
            board.push(move)
            later = {m.to_square for m in line[ply + 2::2]}
            opened = set(_rua_targets(board, solver, exclude=move.to_square)) - before
            if any(sq == board.king(not solver) or sq in later for sq in opened):
                return ["discoveredAttack"]
        else:
            board.push(move)
    return []


def mate_pattern(fen: str, moves: Sequence[str], variant: str) -> list[str]:
    """The pieces that give the last mate: Rua and Ma, two Ruas, a Met (or Bia Ngai), a Khon, or
    a Ma among the Khun's own pieces (smothered)."""
    board = Board(fen, variant=variant)
    solver = board.turn
    for uci in moves:
        board.push(Move.from_uci(uci))
    if not board.is_checkmate():
        return []
    khun = board.king(not solver)
    checkers = [board.piece_at(sq) for sq in A.squares(board.checkers_mask)]
    kinds = {p.kind for p in checkers if p is not None}
    found: list[str] = []
    net = {p.kind for sq in [khun, *A.squares(A.KHUN[khun])]
           for a in A.squares(board.attackers_mask(solver, sq)) if (p := board.piece_at(a)) is not None}
    ruas = sum(1 for sq in A.squares(board.occupied_co[solver]) if (p := board.piece_at(sq)) and p.kind == PieceType.RUA
               and any(board.attackers_mask(solver, s) >> sq & 1 or sq == s for s in [khun, *A.squares(A.KHUN[khun])]))
    if PieceType.MA in kinds and all(
            (p := board.piece_at(sq)) is not None and p.color != solver for sq in A.squares(A.KHUN[khun])):
        found.append("smotheredMate")
    elif {PieceType.RUA, PieceType.MA} <= net and net <= {PieceType.RUA, PieceType.MA, PieceType.KHUN}:
        found.append("ruaMaMate")
    elif PieceType.RUA in kinds and ruas >= 2 and net <= {PieceType.RUA, PieceType.KHUN}:
        found.append("twoRuaMate")
    if kinds & {PieceType.MET, PieceType.BIA_NGAI}:
        found.append("metMate")
    if PieceType.KHON in kinds:
        found.append("khonMate")
    return found


def variant_rules(fen: str, moves: Sequence[str], variant: str) -> list[str]:
    """Makpong's check (a Khun in check may not move), Ouk Chatrang's first leaps of the Khun
    and the Met, Sittuyin's promotion."""
    board = Board(fen, variant=variant)
    found: list[str] = []
    for ply, uci in enumerate(moves):
        move = Move.from_uci(uci)
        piece = board.piece_at(move.from_square)
        if variant == "makpong" and ply % 2 == 1 and board.checkers_mask and "makpongCheck" not in found:
            found.append("makpongCheck")
        if variant == "cambodian" and piece is not None and _leaps(piece.kind, move) and "oukLeap" not in found:
            found.append("oukLeap")
        if variant == "sittuyin" and ply % 2 == 0 and move.promotion and "sittuyinPromotion" not in found:
            found.append("sittuyinPromotion")
        board.push(move)
    return found


def _leaps(kind: PieceType, move: Move) -> bool:
    files = abs(move.from_square % 8 - move.to_square % 8)
    ranks = abs(move.from_square // 8 - move.to_square // 8)
    return (kind == PieceType.KHUN and max(files, ranks) > 1) or (kind == PieceType.MET and (files, ranks) == (0, 2))


def _attacked_from(board: Board, sq: int, color: bool) -> list[int]:
    """The squares the piece on ``sq`` attacks (read through the rules' own attackers)."""
    return [t for t in range(64) if t != sq and board.attackers_mask(color, t) >> sq & 1]


def _rua_lines(board: Board, solver: bool) -> list[tuple[int, int]]:
    """(front, behind) enemy pieces on a solver Rua's line, the front one attacked."""
    occupied = board.occupied_co[True] | board.occupied_co[False]
    pairs = []
    for rua in A.squares(board.occupied_co[solver]):
        piece = board.piece_at(rua)
        if piece is None or piece.kind != PieceType.RUA:
            continue
        for front in A.squares(A.rua_attacks(rua, occupied) & board.occupied_co[not solver]):
            beyond = A.rua_attacks(rua, occupied & ~(1 << front)) & ~A.rua_attacks(rua, occupied)
            for behind in A.squares(beyond & board.occupied_co[not solver]):
                if A.BETWEEN[rua][behind] >> front & 1:
                    pairs.append((front, behind))
    return pairs


def _rua_targets(board: Board, solver: bool, *, exclude: int) -> list[int]:
    occupied = board.occupied_co[True] | board.occupied_co[False]
    targets = []
    for rua in A.squares(board.occupied_co[solver]):
        piece = board.piece_at(rua)
        if rua != exclude and piece is not None and piece.kind == PieceType.RUA:
            targets += list(A.squares(A.rua_attacks(rua, occupied) & board.occupied_co[not solver]))
    return targets
