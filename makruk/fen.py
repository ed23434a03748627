"""FEN in and out, compatible with Fairy-Stockfish's ``makruk`` variant and its family.

Each variant writes its FEN in a dialect of its own (``FenDialect``): its piece letters
(ASEAN's Khon is ``b``), the flags of field 3 (Ouk Chatrang's unmoved Khun and Neang, ``DEde``)
and a pocket of pieces in hand (Sittuyin, ``[KSSFRRNNkssfrrnn]``).

>>> placement = parse_fen(STARTING_FEN).placement
>>> placement[3]   # d1: the white Khun
7
>>> write_fen(parse_fen(STARTING_FEN)) == STARTING_FEN
True
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .errors import InvalidFenError
from .types import BLACK, WHITE, Color, Piece, PieceType

STARTING_FEN = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"


@dataclass(frozen=True)
class FenFields:
    placement: tuple[int, ...]  # 64 piece codes (0 = empty), a1 first
    turn: Color
    halfmove_clock: int
    fullmove_number: int
    flags: str = "-"  # field 3: Ouk Chatrang's first-move flags; "-" elsewhere
    pocket: tuple[int, ...] = ()  # piece codes in hand, in the order the FEN writes them


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one value per variant
class FenDialect:
    """How a variant writes its FEN: piece letters by code, field 3's flags, a pocket."""

    symbols: tuple[tuple[int, str], ...]  # (piece code, symbol)
    flags: str = ""  # the letters field 3 may hold, in the order they are written
    pocket: bool = False
    bia_on_last_rank: bool = False  # whether a Bia may stand on its last rank (Sittuyin)
    check_counts: bool = False  # Kar Ouk: Fairy-Stockfish writes the checks left ("1+1") after field 4

    @functools.cached_property
    def symbol_of(self) -> dict[int, str]:
        return dict(self.symbols)

    @functools.cached_property
    def code_of(self) -> dict[str, int]:
        """Each symbol's piece code, with the ``~`` Fairy-Stockfish may write after a promoted piece.

        ``X~`` is the Bia Ngai where the dialect writes the Bia Ngai ``X`` (ASEAN's ``Q~``,
        Sittuyin's ``F~``), else an ``X`` (ASEAN's ``R~``: a Rua that was a Bia).

        >>> from makruk.variants.asean import DIALECT as ASEAN
        >>> [PieceType(ASEAN.code_of[s] & 7).name for s in ("Q", "Q~", "R~", "r~")]
        ['MET', 'BIA_NGAI', 'RUA', 'RUA']
        """
        # A symbol two kinds share (ASEAN's promoted Met is written Q like a Met) reads as the first.
        found: dict[str, int] = {}
        for code, symbol in self.symbols:
            found.setdefault(symbol, code)
        for code, symbol in self.symbols:
            if code & 7 == PieceType.BIA_NGAI and not symbol.endswith("~"):
                found.setdefault(symbol + "~", code)
        for symbol, code in list(found.items()):
            # No piece is promoted into a Khun or a Bia: 'K~' and 'P~' stay bad characters.
            if not symbol.endswith("~") and code & 7 not in (PieceType.KHUN, PieceType.BIA):
                found.setdefault(symbol + "~", code)
        return found


def parse_fen(fen: str, dialect: FenDialect | None = None) -> FenFields:
    """Reads the fields of a FEN; checks syntax and piece placement, not whose turn can capture.

    Fairy-Stockfish writes its automatic counting (limit, ply) in place of the en-passant
    and half-move fields; those numbers are accepted and ignored, because this project's
    counting is declared by the players (RULES.md) and starts from the declaration.
    """
    if not isinstance(fen, str):
        raise InvalidFenError(f"FEN must be text, got {type(fen).__name__}")
    return _parse_fen(fen, dialect or MAKRUK)


@functools.lru_cache(maxsize=256)  # games mostly start from a few FENs; the fields are immutable
def _parse_fen(fen: str, dialect: FenDialect) -> FenFields:
    fields = fen.split()
    if not fields:
        raise InvalidFenError("empty FEN")
    if dialect.check_counts and len(fields) == 7 and _CHECKS.fullmatch(fields[4]):
        del fields[4]  # the board knows the checks given from the position itself
    if len(fields) > 6:
        raise InvalidFenError(f"too many fields in FEN ({len(fields)}, at most 6): {fen!r}")
    board_text, pocket = _split_pocket(fields[0], dialect, fen)
    placement = _parse_placement(board_text, fen, dialect)
    turn = _parse_turn(fields[1] if len(fields) > 1 else "w", fen)
    flags = _parse_flags(fields[2] if len(fields) > 2 else "-", dialect)
    if len(fields) > 3 and fields[3] != "-" and not _is_number(fields[3]):
        raise InvalidFenError(f"Makruk has no en passant; field 4 must be '-', got {fields[3]!r}")
    halfmove = _parse_number(fields[4], "half-move clock", fen) if len(fields) > 4 else 0
    fullmove = _parse_number(fields[5], "move number", fen) if len(fields) > 5 else 1
    if fields[3:4] and _is_number(fields[3]):
        halfmove = 0  # that field held Fairy-Stockfish's counting ply, not a clock
    _check_pieces(placement, pocket, dialect)
    return FenFields(tuple(placement), turn, halfmove, max(fullmove, 1), flags, pocket)


def write_fen(fields: FenFields, dialect: FenDialect | None = None) -> str:
    dialect = dialect or MAKRUK
    symbols = dialect.symbol_of
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            code = fields.placement[rank * 8 + file]
            if not code:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += symbols[code]
        rows.append(row + (str(empty) if empty else ""))
    placement = "/".join(rows)
    if dialect.pocket:
        placement += "[" + "".join(symbols[code] for code in fields.pocket) + "]"
    turn = "w" if fields.turn else "b"
    return f"{placement} {turn} {fields.flags or '-'} - {fields.halfmove_clock} {fields.fullmove_number}"


def make_dialect(symbols: dict[PieceType, str], **options: str | bool) -> FenDialect:
    """A dialect from the lower-case letter of each kind (White's are upper case)."""
    pairs = tuple(
        (Piece(kind, color).code, letter.upper() if color else letter)
        for kind, letter in symbols.items()
        for color in (WHITE, BLACK)
    )
    return FenDialect(pairs, **options)  # type: ignore[arg-type]


MAKRUK = make_dialect({kind: kind.letter for kind in PieceType})


def _split_pocket(text: str, dialect: FenDialect, fen: str) -> tuple[str, tuple[int, ...]]:
    """The placement without its pocket, and the pocket's piece codes (Sittuyin's ``[...]``)."""
    if "[" not in text:
        return text, ()
    if not dialect.pocket:
        raise InvalidFenError(f"this variant has no pieces in hand: {fen!r}")
    if not text.endswith("]") or text.count("[") != 1:
        raise InvalidFenError(f"a pocket is written [...] after the placement: {fen!r}")
    board_text, _, inside = text[:-1].partition("[")
    pocket = []
    for ch in inside:
        code = dialect.code_of.get(ch)
        if code is None or code & 7 == PieceType.BIA_NGAI:
            raise InvalidFenError(f"bad piece {ch!r} in the pocket: {fen!r}")
        pocket.append(code)
    return board_text, tuple(sort_pocket(pocket))


# Fairy-Stockfish writes a pocket White first, Khun, Khon, Met, Rua, Ma, then Bia.
_POCKET_ORDER = [PieceType.KHUN, PieceType.KHON, PieceType.MET, PieceType.RUA, PieceType.MA, PieceType.BIA]


def sort_pocket(codes: list[int]) -> list[int]:
    return sorted(codes, key=lambda code: (code >= 8, _POCKET_ORDER.index(PieceType(code & 7))))


def _parse_flags(text: str, dialect: FenDialect) -> str:
    if text == "-":
        return "-"
    if not dialect.flags:
        raise InvalidFenError(f"Makruk has no castling; field 3 must be '-', got {text!r}")
    if any(ch not in dialect.flags for ch in text) or len(set(text)) != len(text):
        raise InvalidFenError(f"field 3 must be '-' or some of {dialect.flags!r}, got {text!r}")
    return "".join(ch for ch in dialect.flags if ch in text)


def _parse_placement(text: str, fen: str, dialect: FenDialect) -> list[int]:
    codes = dialect.code_of
    rows = text.split("/")
    if len(rows) != 8:
        raise InvalidFenError(f"expected 8 rows in the placement, got {len(rows)}: {fen!r}")
    placement = [0] * 64
    for row_index, row in enumerate(rows):
        rank = 7 - row_index
        file = 0
        i = 0
        while i < len(row):
            ch = row[i]
            if ch in _DIGITS:
                if ch == "0" or (i + 1 < len(row) and row[i + 1] in _DIGITS):
                    raise InvalidFenError(f"bad empty-square count in row {row_index + 1} {row!r}")
                file += int(ch)
                i += 1
                continue
            symbol = ch
            if i + 1 < len(row) and row[i + 1] == "~":
                symbol += "~"
            code = codes.get(symbol)
            if code is None:
                raise InvalidFenError(f"bad character {symbol!r} in row {row_index + 1} {row!r}")
            if file < 8:
                placement[rank * 8 + file] = code
            file += 1
            i += len(symbol)
        if file != 8:
            raise InvalidFenError(f"row {row_index + 1} {row!r} covers {file} squares, not 8")
    return placement


def _parse_turn(text: str, fen: str) -> Color:
    if text == "w":
        return WHITE
    if text == "b":
        return BLACK
    raise InvalidFenError(f"side to move must be 'w' or 'b', got {text!r}")


def _parse_number(text: str, what: str, fen: str) -> int:
    if text == "-":
        return 0
    if not _is_number(text):
        raise InvalidFenError(f"{what} must be a number, got {text!r}")
    return int(text)


_DIGITS = "0123456789"
_CHECKS = re.compile(r"[0-9]\+[0-9]")


def _is_number(text: str) -> bool:
    # str.isdigit() also accepts digits like "²" (which int() refuses) and "٣" (which it reads).
    return text.isascii() and text.isdigit()


def _check_pieces(placement: list[int], pocket: tuple[int, ...], dialect: FenDialect) -> None:
    for khun, name in ((_WHITE_KHUN, "White"), (_BLACK_KHUN, "Black")):
        n = placement.count(khun) + pocket.count(khun)
        if n != 1:
            raise InvalidFenError(f"{name} must have exactly one Khun, found {n}", code="fen_khuns")
    if dialect.bia_on_last_rank:
        return
    for sq in range(56, 64):
        if placement[sq] == _WHITE_BIA:
            raise InvalidFenError(f"a white Bia cannot stand on rank 8 (on {_name(sq)})", code="fen_bia_rank")
    for sq in range(8):
        if placement[sq] == _BLACK_BIA:
            raise InvalidFenError(f"a black Bia cannot stand on rank 1 (on {_name(sq)})", code="fen_bia_rank")


_WHITE_KHUN, _BLACK_KHUN = Piece(PieceType.KHUN, WHITE).code, Piece(PieceType.KHUN, BLACK).code
_WHITE_BIA, _BLACK_BIA = Piece(PieceType.BIA, WHITE).code, Piece(PieceType.BIA, BLACK).code


def _name(sq: int) -> str:
    return "abcdefgh"[sq & 7] + str((sq >> 3) + 1)
