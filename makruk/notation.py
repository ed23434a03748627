"""Reading and writing moves: UCI, SAN (Fairy-Stockfish style) and Thai.

>>> from makruk.board import Board
>>> board = Board()
>>> parse_move(board, "Nd2").uci(), parse_move(board, "จ๔").uci(), parse_move(board, "E3-E4").uci()
('b1d2', 'e3e4', 'e3e4')
>>> san(board, parse_move(board, "g1e2")), thai_san(board, parse_move(board, "b1d2"))
('Ne2', 'ม-ง๒')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import attacks as A
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from .types import DROP_KINDS, FILE_NAMES, RANK_NAMES, SQUARE_NAMES, Move, PieceType, Square, piece_from_code

if TYPE_CHECKING:  # the board calls this module (Board.san), so this module does not import it
    from .board import Board

MAX_MOVE_TEXT = 40  # longer text is never a move; refusing early keeps parsing cheap

SAN_LETTERS = {
    PieceType.KHUN: "K",
    PieceType.MET: "M",
    PieceType.BIA_NGAI: "M",  # Fairy-Stockfish writes the Bia Ngai like a Met
    PieceType.KHON: "S",
    PieceType.MA: "N",
    PieceType.RUA: "R",
    PieceType.BIA: "",
}
THAI_LETTERS = {
    PieceType.KHUN: "ข",
    PieceType.MET: "ม็",
    PieceType.BIA_NGAI: "ง",
    PieceType.KHON: "ค",
    PieceType.MA: "ม",
    PieceType.RUA: "ร",
    PieceType.BIA: "",
}
# PlayOK's letters: the Khon is a Bishop there, the Met a Queen and the Bia Ngai a promoted Pawn.
PLAYOK_LETTERS = {
    PieceType.KHUN: "K",
    PieceType.MET: "Q",
    PieceType.BIA_NGAI: "P",
    PieceType.KHON: "B",
    PieceType.MA: "N",
    PieceType.RUA: "R",
    PieceType.BIA: "",
}
THAI_FILES = "กขคงจฉชญ"
THAI_DIGITS = "๐๑๒๓๔๕๖๗๘๙"
_TO_ARABIC = str.maketrans(THAI_DIGITS, "0123456789")
_TO_THAI = str.maketrans("0123456789", THAI_DIGITS)


# --- writing ----------------------------------------------------------------------------

def san(board: Board, move: Move) -> str:
    """Standard algebraic notation as Fairy-Stockfish writes it for the board's variant."""
    return _algebraic(board, move, board.san_letters, FILE_NAMES, lambda rank: str(rank + 1), thai=False)


def playok_san(board: Board, move: Move) -> str:
    """SAN as PlayOK writes Makruk: ``Bf2`` (Khon), ``Qc7`` (Met), ``Pbc4`` (Bia Ngai), ``axb3=P``.

    >>> from makruk.board import Board
    >>> board = Board()
    >>> playok_san(board, parse_move(board, "f1e2")), playok_san(board, parse_move(board, "e1d2"))
    ('Be2', 'Qd2')
    """
    return _algebraic(board, move, PLAYOK_LETTERS, FILE_NAMES, lambda rank: str(rank + 1), thai=False,
                      promoted="P")


def thai_san(board: Board, move: Move) -> str:
    """Thai algebraic notation as Fairy-Stockfish writes it (``จ๔``, ``ม-ง๒``, ``ฉxจ๕``)."""
    return _algebraic(board, move, THAI_LETTERS, THAI_FILES, lambda rank: THAI_DIGITS[rank + 1], thai=True)


def square_thai(sq: Square) -> str:
    """The square's name in Thai coordinates.

    >>> square_thai(20)
    'จ๓'
    """
    return THAI_FILES[sq & 7] + THAI_DIGITS[(sq >> 3) + 1]


def _algebraic(
    board: Board,
    move: Move,
    letters: dict[PieceType, str],
    files: str,
    rank_name: Callable[[int], str],
    *,
    thai: bool,
    promoted: str | None = None,
) -> str:
    dest = files[move.to_square & 7] + rank_name(move.to_square >> 3)
    if move.drop:  # Sittuyin's deployment, as Fairy-Stockfish writes it: K@e2, ร@ก๑
        letter = THAI_LETTERS[DROP_KINDS[move.drop]] if thai else move.drop
        return f"{letter}@{dest}" + _check_suffix(board, move)
    piece = board.piece_at(move.from_square)
    if piece is None:
        raise IllegalMoveError(f"no piece on {SQUARE_NAMES[move.from_square]}", code="no_piece")
    capture = board.piece_at(move.to_square) is not None and move.to_square != move.from_square
    if piece.kind == PieceType.BIA:
        text = (files[move.from_square & 7] + "x" + dest) if capture else dest
        if move.promotion == "f":  # Sittuyin's promotion in place (d5=F) or by a step (d5c6=F)
            origin = files[move.from_square & 7] + rank_name(move.from_square >> 3)
            text = dest if move.from_square == move.to_square else origin + dest
        if move.promotion:
            # Fairy-Stockfish writes the new piece's SAN letter in Thai too (=M, =F, =Q).
            text += "=" + (promoted or board.san_letters[board.promotion_kinds[move.promotion]])
    else:
        text = letters[piece.kind] + _disambiguation(board, move, files, rank_name,
                                                     letters if promoted else board.san_letters)
        if thai:
            text += "x" if capture else "-"
        elif capture:
            text += "x"
        text += dest
    return text + _check_suffix(board, move)


def _disambiguation(board: Board, move: Move, files: str, rank_name: Callable[[int], str],
                    letters: dict[PieceType, str]) -> str:
    # Rivals are pieces with the same SAN letter, in Thai too: Fairy-Stockfish's Bia Ngai is a
    # Met, so it disambiguates ม็ and ง against each other although their Thai letters differ.
    # PlayOK's letters tell the two apart (Q and P), so there they are no rivals.
    letter = letters[_kind(board, move.from_square)]
    rivals = [
        m.from_square
        for m in board.legal_moves()
        if m.to_square == move.to_square
        and m.from_square != move.from_square
        and not m.drop
        and letters[_kind(board, m.from_square)] == letter
    ]
    if not rivals:
        return ""
    file, rank = move.from_square & 7, move.from_square >> 3
    if all(sq & 7 != file for sq in rivals):
        return files[file]
    if all(sq >> 3 != rank for sq in rivals):
        return rank_name(rank)
    return files[file] + rank_name(rank)


def _kind(board: Board, sq: int) -> PieceType:
    """The kind of the piece on ``sq``, which is not empty."""
    return piece_from_code(board.piece_codes[sq]).kind


def _check_suffix(board: Board, move: Move) -> str:
    board.push(move)
    try:
        if not board.is_check():
            return ""
        return "#" if not board.legal_moves() else "+"
    finally:
        board.pop()


# --- squares and digits -------------------------------------------------------------------

def read_square(text: str) -> Square | None:
    """The square named in Latin (``e3``) or Thai (``จ3``, ``จ๓``) coordinates; surrounding
    spaces and case are ignored. None when the text names no square.

    >>> read_square("e3"), read_square(" E3 "), read_square("จ3"), read_square("จ๓")
    (20, 20, 20, 20)
    >>> read_square("e9"), read_square("e"), read_square("Nd2")
    (None, None, None)
    """
    text = to_arabic_digits(text.strip().lower())
    if len(text) != 2 or text[1] not in RANK_NAMES:
        return None
    files = FILE_NAMES if text[0] in FILE_NAMES else THAI_FILES
    if text[0] not in files:
        return None
    return files.index(text[0]) + 8 * (int(text[1]) - 1)


def to_arabic_digits(text: str) -> str:
    """``text`` with Thai digits written as Arabic ones; nothing else changes.

    >>> to_arabic_digits("จ๓ 10m ๑๒")
    'จ3 10m 12'
    """
    return text.translate(_TO_ARABIC)


# --- reading ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Pattern:
    """What a piece of text says about a move; None means 'not said'."""

    kinds: frozenset[PieceType] | None
    from_file: int | None
    from_rank: int | None
    to_square: int
    promotion: bool | None


def parse_move(board: Board, text: str) -> Move:
    """The legal move ``text`` denotes, in UCI, SAN or Thai notation.

    Raises InvalidMoveError (not a move), IllegalMoveError (with a code saying why),
    or AmbiguousMoveError (with the candidates).
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidMoveError("empty move")
    if len(text) > MAX_MOVE_TEXT:
        raise InvalidMoveError(f"not a move: text of {len(text)} characters")
    cleaned = _clean(text)
    exact = _read_drop(cleaned) or _read_uci(cleaned)
    if exact is not None:
        if board.is_legal(exact):
            return exact
        # Only these forms say exactly what they mean (a drop, a Bia promoting where it
        # stands, another variant's promotion letter): the patterns below cannot read them.
        if exact.drop or exact.from_square == exact.to_square or exact.promotion not in ("", "m"):
            raise board.why_illegal(exact)
    if board.variant != "makruk":  # the variant's own letters and moves (ASEAN's Bc2 and a8=Q, R@a1)
        written = _by_written_form(board, cleaned)
        if written is not None:
            return written
    patterns = _read_coordinates(cleaned) or _read_san(cleaned) or _read_thai(cleaned)
    # From a square to itself is no move (it would pass for the null move, "0000").
    patterns = [p for p in patterns if _from_square(p) != p.to_square]
    if not patterns:
        raise InvalidMoveError(f"not a move: {text!r}")
    return _resolve(board, text, patterns)


_THAI_DROPS = {"ข": "K", "ม็": "F", "ร": "R", "ค": "S", "ม": "N"}
_DROP = re.compile(rf"([KFRSNkfrsn]|ม็|[ขรคม])\s*@\s*([a-hA-H{THAI_FILES}][1-8])")


def _read_uci(text: str) -> Move | None:
    try:
        move = Move.from_uci(text)
    except InvalidMoveError:
        return None
    return move if move else None


def _read_drop(text: str) -> Move | None:
    """A drop from the hand written ``R@a1`` or ``ร@ก1`` (Sittuyin's deployment)."""
    m = _DROP.fullmatch(text)
    if m is None:
        return None
    letter, where = m.groups()
    sq = read_square(where)
    if sq is None:
        return None
    return Move(sq, sq, drop=_THAI_DROPS.get(letter, letter.upper()))


def _by_written_form(board: Board, text: str) -> Move | None:
    """The one legal move whose UCI, SAN or Thai SAN is ``text`` (as written, else ignoring case)."""
    spaced = text.replace(" ", "")
    forms: dict[str, list[Move]] = {}
    for move in board.legal_moves():
        for form in (move.uci(), san(board, move), thai_san(board, move)):
            forms.setdefault(to_arabic_digits(form.rstrip("+#")), []).append(move)
    found = forms.get(spaced)
    if found is None:
        folded = [m for form, moves in forms.items() if form.casefold() == spaced.casefold() for m in moves]
        found = folded if folded else None
    if found is None:
        return None
    unique = list(dict.fromkeys(found))
    if len(unique) > 1:
        raise AmbiguousMoveError(f"{text!r} could be any of {', '.join(san(board, m) for m in unique)}", unique)
    return unique[0]


def _clean(text: str) -> str:
    text = to_arabic_digits(text.strip())
    text = re.sub(r"[+#!?]+$", "", text).strip()
    return text


_UCI = re.compile(r"([a-h])([1-8])\s*[-x:\s]?\s*([a-h])([1-8])\s*(=?m)?", re.IGNORECASE)
# The project's and Fairy-Stockfish's letters (K R N S M, M~ for the Bia Ngai, =M), in either case,
# and PlayOK's (B Khon, Q Met, P Bia Ngai, =P). Makruk has no Bishop, Queen or Pawn letter of its
# own, so those are never misread; only the upper-case B is a Khon, since b is a file.
_SAN = re.compile(r"(M~|[KMSNRBQPkmsnrqp])?([a-h])?([1-8])?[x:-]?([a-h][1-8])(?:=?(M~|[MmPpQq]))?")
_MET_OR_NGAI = frozenset({PieceType.MET, PieceType.BIA_NGAI})
_SAN_KINDS = {
    "k": frozenset({PieceType.KHUN}),
    "m": _MET_OR_NGAI,
    "q": _MET_OR_NGAI,
    "s": frozenset({PieceType.KHON}),
    "b": frozenset({PieceType.KHON}),
    "n": frozenset({PieceType.MA}),
    "r": frozenset({PieceType.RUA}),
    "p": frozenset({PieceType.BIA_NGAI}),
    "m~": frozenset({PieceType.BIA_NGAI}),
}


def _read_coordinates(text: str) -> list[_Pattern]:
    m = _UCI.fullmatch(text)
    if not m:
        return []
    f1, r1, f2, r2, promo = m.groups()
    frm = SQUARE_NAMES.index(f1.lower() + r1)
    to = SQUARE_NAMES.index(f2.lower() + r2)
    if frm == to:
        return []
    return [_Pattern(None, frm & 7, frm >> 3, to, True if promo else None)]


def _read_san(text: str) -> list[_Pattern]:
    # Piece letters other than B are never file letters (a-h), so their case does not matter.
    compact = text.replace(" ", "")
    m = _SAN.fullmatch(compact[:1] + compact[1:].lower()) or _SAN.fullmatch(compact.lower())
    if not m:
        return []
    letter, file, rank, dest, promo = m.groups()
    kinds = _SAN_KINDS[letter.lower()] if letter else frozenset({PieceType.BIA})
    return [
        _Pattern(
            kinds,
            FILE_NAMES.index(file) if file else None,
            int(rank) - 1 if rank else None,
            SQUARE_NAMES.index(dest),
            True if promo else None,
        )
    ]


_THAI_PIECES = {
    "ม็": frozenset({PieceType.MET}),
    "ข": frozenset({PieceType.KHUN}),
    "ร": frozenset({PieceType.RUA}),
    "ม": frozenset({PieceType.MA}),
    "ค": frozenset({PieceType.KHON}),
    "ง": frozenset({PieceType.BIA_NGAI}),
    "บ": frozenset({PieceType.BIA}),
}
_F = f"[{THAI_FILES}]"
_PROMO = r"(?:=?(?:m|M|ง|ม็))?"
_THAI_WITH_PIECE = re.compile(rf"(ม็|[ขรมคงบ])\s*({_F})?([1-8])?\s*[-x:]?\s*({_F})([1-8])\s*({_PROMO})")
_THAI_BIA = re.compile(rf"(?:({_F})\s*[x:]\s*)?({_F})([1-8])\s*({_PROMO})")
_THAI_COORDS = re.compile(rf"({_F})([1-8])\s*[-x:\s]?\s*({_F})([1-8])\s*({_PROMO})")


def _read_thai(text: str) -> list[_Pattern]:
    """Thai letters for files and pieces overlap (ข, ค, ง), so every reading is kept."""
    patterns = []
    m = _THAI_WITH_PIECE.fullmatch(text)
    if m:
        piece, file, rank, to_file, to_rank, promo = m.groups()
        patterns.append(
            _Pattern(
                _THAI_PIECES[piece],
                THAI_FILES.index(file) if file else None,
                int(rank) - 1 if rank else None,
                THAI_FILES.index(to_file) + 8 * (int(to_rank) - 1),
                True if promo else None,
            )
        )
    m = _THAI_BIA.fullmatch(text)
    if m:
        file, to_file, to_rank, promo = m.groups()
        patterns.append(
            _Pattern(
                frozenset({PieceType.BIA}),
                THAI_FILES.index(file) if file else None,
                None,
                THAI_FILES.index(to_file) + 8 * (int(to_rank) - 1),
                True if promo else None,
            )
        )
    m = _THAI_COORDS.fullmatch(text)
    if m:
        f1, r1, f2, r2, promo = m.groups()
        patterns.append(
            _Pattern(
                None,
                THAI_FILES.index(f1),
                int(r1) - 1,
                THAI_FILES.index(f2) + 8 * (int(r2) - 1),
                True if promo else None,
            )
        )
    return patterns


def _from_square(p: _Pattern) -> int | None:
    if p.from_file is None or p.from_rank is None:
        return None
    return p.from_file + 8 * p.from_rank


def _matches(board: Board, move: Move, p: _Pattern) -> bool:
    if move.to_square != p.to_square:
        return False
    if p.from_file is not None and move.from_square & 7 != p.from_file:
        return False
    if p.from_rank is not None and move.from_square >> 3 != p.from_rank:
        return False
    if p.kinds is not None and _kind(board, move.from_square) not in p.kinds:
        return False
    return p.promotion is None or bool(move.promotion) == p.promotion


def _resolve(board: Board, text: str, patterns: list[_Pattern]) -> Move:
    legal = board.legal_moves()
    found = _select(board, legal, patterns)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        names = ", ".join(san(board, m) for m in found)
        raise AmbiguousMoveError(f"{text!r} could be any of {names}", found)
    raise _explain(board, text, patterns)


def _select(board: Board, moves: list[Move], patterns: list[_Pattern]) -> list[Move]:
    found: list[Move] = []
    for p in patterns:
        for m in moves:
            if m not in found and _matches(board, m, p):
                found.append(m)
    # Without an explicit promotion, the plain move is meant; a forced promotion is implied.
    if any(not m.promotion for m in found):
        plain_pairs = {(m.from_square, m.to_square) for m in found if not m.promotion}
        found = [m for m in found if not (m.promotion and (m.from_square, m.to_square) in plain_pairs)]
    return found


def _explain(board: Board, text: str, patterns: list[_Pattern]) -> IllegalMoveError:
    """Why nothing legal matched: reuse the board's reasons when one move was clearly meant."""
    if len(patterns) == 1:
        frm = _from_square(patterns[0])
        if frm is not None:  # a move written with both squares
            return board.why_illegal(Move(frm, patterns[0].to_square, "m" if patterns[0].promotion else ""))
    # A Rua move that is blocked, or a move onto an own piece, is not even pseudo-legal: look
    # at how the pieces move on an empty board, so that "Ra4" says the way is blocked.
    near = _select(board, board._pseudo_legal_all(), patterns) or _select(board, _by_movement(board), patterns)
    if len(near) == 1:
        error = board.why_illegal(near[0])
        if error.code != "perpetual_check" or near[0] in board.generate_moves():
            return error
    return IllegalMoveError(f"no legal move matches {text!r}", code="no_such_move")


def _by_movement(board: Board) -> list[Move]:
    """Every move of the side to move as its pieces move on an empty board."""
    moves: list[Move] = []
    for frm, piece in board.piece_map().items():
        if piece.color == board.turn:
            reach = _REACH[piece.kind](frm, piece.color)
            moves.extend(Move(frm, to) for to in A.squares(reach))
    return moves


_REACH = {
    PieceType.KHUN: lambda sq, color: A.KHUN[sq],
    PieceType.RUA: lambda sq, color: A.RUA_RAYS[sq],
    PieceType.MA: lambda sq, color: A.MA[sq],
    PieceType.KHON: lambda sq, color: A.KHON[color][sq],
    PieceType.MET: lambda sq, color: A.MET[sq],
    PieceType.BIA_NGAI: lambda sq, color: A.MET[sq],
    PieceType.BIA: lambda sq, color: A.BIA_PUSH[color][sq] | A.BIA_CAPTURES[color][sq],
}
