"""Reading PGN: the games players bring from PlayOK, pychess-variants and the bot's own export.

A PGN file holds games one after another, each its tag pairs (``[White "Somchai"]``) and its
movetext. Moves may be in any notation the rules core reads (SAN with the project's, Fairy-
Stockfish's or PlayOK's letters, Thai, UCI); move numbers, comments (``{...}``, ``; ...``),
variations (``(...)``, skipped), NAGs (``$1``) and annotations (``!?``) are allowed. ``[Variant]``
and ``[FEN]`` choose the game and its start; Fairy-Stockfish's names are read, and a few others.

Each game is read on its own: a move that cannot be read stops that game with an error naming
its ply and text, and the next game is still read. A game that goes on after the rules ended it
(PlayOK records moves after a dead draw) is read up to the end, and the moves after it are kept
as ``after_end``.

>>> [game] = read_games('[White "A"]\\n[Black "B"]\\n[Result "1-0"]\\n\\n1. e4 {book} g5 2. Nd2 $1 1-0')
>>> [m.uci() for m in game.moves], game.result, game.outcome
(['e3e4', 'g6g5', 'b1d2'], '1-0', None)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .board import Board, Outcome, Perpetual, Promotion
from .errors import MakrukError
from .types import Move
from .variants import starting_fen

# [Variant] values as Fairy-Stockfish, pychess-variants, PlayOK and people write them.
VARIANT_NAMES = {
    "makruk": "makruk", "thai": "makruk", "thai chess": "makruk", "makruk (thai chess)": "makruk",
    "makpong": "makpong",
    "cambodian": "cambodian", "ouk": "cambodian", "ouk chatrang": "cambodian", "ouk chaktrang": "cambodian",
    "karouk": "karouk", "kar ouk": "karouk",
    "asean": "asean", "asean chess": "asean",
    "sittuyin": "sittuyin", "burmese": "sittuyin", "burmese chess": "sittuyin", "myanmar": "sittuyin",
}
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
MAX_PLIES = 2000  # a longer game is not a game anyone played


@dataclass(frozen=True)
class PgnError:
    """Why a game's moves stopped being read: the ply (1 = White's first move) and the text."""

    ply: int
    text: str
    reason: str
    code: str

    def __str__(self) -> str:
        return f"ply {self.ply} {self.text!r}: {self.reason}"


@dataclass
class PgnGame:
    """One game of a PGN file, read as far as its moves could be."""

    number: int  # 1 for the file's first game
    tags: dict[str, str]
    variant: str = "makruk"
    start_fen: str = ""
    moves: list[Move] = field(default_factory=list)
    board: Board | None = None  # the position after ``moves``; None when the start could not be set up
    error: PgnError | None = None
    after_end: list[str] = field(default_factory=list)  # moves written after the rules ended the game

    @property
    def result(self) -> str | None:
        """The ``[Result]`` tag, or the result written after the moves."""
        return self.tags.get("Result")

    @property
    def outcome(self) -> Outcome | None:
        """How the rules say the game ended, if they did."""
        return self.board.outcome() if self.board is not None else None

    @property
    def fen(self) -> str | None:
        return self.board.fen() if self.board is not None else None

    def as_dict(self) -> dict[str, Any]:
        outcome = self.outcome
        return {
            "game": self.number,
            "tags": self.tags,
            "variant": self.variant,
            "moves": [m.uci() for m in self.moves],
            "fen": self.fen,
            "result": self.result,
            "outcome": outcome.as_dict() if outcome else None,
            "error": None if self.error is None else {"ply": self.error.ply, "text": self.error.text,
                                                      "reason": self.error.reason, "code": self.error.code},
            "after_end": self.after_end,
        }


def read_games(text: str, *, promotion: Promotion = "forced", perpetual: Perpetual = "draw") -> list[PgnGame]:
    """Every game in ``text``. ``perpetual`` defaults to ``"draw"``: the games come from sites
    that play Fairy-Stockfish's rules, where perpetual check is allowed."""
    games = []
    for number, (tags, tokens) in enumerate(_split_games(text), start=1):
        games.append(_read_game(number, tags, tokens, promotion, perpetual))
    return games


class PgnMoveError(MakrukError):
    """A move of a pasted game that cannot be read or played: its ``ply`` and ``text``; ``code``
    is the rules' reason (``not_a_move``, ``blocked``, ...)."""

    def __init__(self, message: str, *, ply: int, text: str, code: str) -> None:
        super().__init__(message, code=code)
        self.ply = ply
        self.text = text


def read_moves(text: str, board: Board) -> list[Move]:
    """The moves of a pasted move list (``1. e4 g5 2. Nd2``, any notation) played on ``board``.

    Raises PgnMoveError at the first that cannot be read.
    """
    moves = []
    for token in _movetext_tokens(text):
        if token in RESULTS:
            break
        try:
            moves.append(board.play(board.parse_move(token)))
        except MakrukError as error:
            ply = board.ply + 1
            raise PgnMoveError(f"ply {ply} {token!r}: {error}", ply=ply, text=token, code=error.code) from None
    return moves


# --- reading one game ---------------------------------------------------------------------

def _read_game(number: int, tags: dict[str, str], tokens: list[str], promotion: Promotion,
               perpetual: Perpetual) -> PgnGame:
    game = PgnGame(number, tags)
    written = tags.get("Variant", "makruk").strip().casefold()
    variant = VARIANT_NAMES.get(written)
    if variant is None:
        game.error = PgnError(0, tags["Variant"], f"unknown variant {tags['Variant']!r}", "unknown_variant")
        return game
    game.variant = variant
    game.start_fen = tags.get("FEN") or starting_fen(variant)
    try:
        board = Board(game.start_fen, variant=variant, promotion=promotion, perpetual=perpetual)
    except MakrukError as error:
        game.error = PgnError(0, game.start_fen, str(error), error.code)
        return game
    game.board = board
    for i, token in enumerate(tokens):
        if token in RESULTS:
            game.tags.setdefault("Result", token)
            break
        if board.outcome() is not None:
            game.after_end = [t for t in tokens[i:] if t not in RESULTS]
            break
        if board.ply >= MAX_PLIES:
            game.error = PgnError(board.ply + 1, token, f"more than {MAX_PLIES} plies", "too_long")
            break
        try:
            game.moves.append(board.play(board.parse_move(token)))
        except MakrukError as error:
            game.error = PgnError(board.ply + 1, token, str(error), error.code)
            break
    return game


# --- splitting the text -------------------------------------------------------------------

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_MOVE_NUMBER = re.compile(r"\d+\.+")  # 12. or 12...
_NAG = re.compile(r"\$\d+")


def _split_games(text: str) -> Iterator[tuple[dict[str, str], list[str]]]:
    """Each game's tags and movetext tokens. A game ends at its result or where the next
    game's tags begin."""
    tags: dict[str, str] = {}
    tokens: list[str] = []
    pos, n = 0, len(text)
    in_moves = False
    while pos < n:
        ch = text[pos]
        if ch.isspace():
            pos += 1
        elif ch == "[" and (m := _TAG.match(text, pos)):
            if in_moves or tokens:
                yield tags, tokens
                tags, tokens, in_moves = {}, [], False
            tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
            pos = m.end()
        elif ch == "%" and (pos == 0 or text[pos - 1] == "\n"):
            pos = _line_end(text, pos)  # an escaped line
        else:
            in_moves = True
            end = _movetext_end(text, pos)
            tokens += _movetext_tokens(text[pos:end])
            pos = end
            if tokens and tokens[-1] in RESULTS:
                yield tags, tokens
                tags, tokens, in_moves = {}, [], False
    if tags or tokens:
        yield tags, tokens


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end + 1


def _movetext_end(text: str, pos: int) -> int:
    """Where this stretch of movetext ends: at a tag line, or at the text's end."""
    for m in re.finditer(r"\n\s*\[", text[pos:]):
        start = pos + m.start() + len(m.group()) - 1
        if _TAG.match(text, start) and not _inside_braces(text, pos, start):
            return start
    return len(text)


def _inside_braces(text: str, start: int, end: int) -> bool:
    depth = 0
    for ch in text[start:end]:
        if ch == "{":
            depth = 1
        elif ch == "}":
            depth = 0
    return depth > 0


def _movetext_tokens(text: str) -> list[str]:
    """The moves and the result of a movetext, without numbers, comments, variations and NAGs."""
    tokens: list[str] = []
    depth = 0  # of variations
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "{":
            close = text.find("}", i)
            i = n if close < 0 else close + 1
        elif ch == ";":
            i = _line_end(text, i)
        elif ch == "(":
            depth += 1
            i += 1
        elif ch == ")":
            depth = max(0, depth - 1)
            i += 1
        elif ch.isspace():
            i += 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "{;()":
                j += 1
            word = text[i:j]
            i = j
            if depth == 0:
                tokens += _words(word)
    return tokens


def _words(word: str) -> list[str]:
    """The move or result in one whitespace-free word: ``12.e4!?`` is ``e4``."""
    if word in RESULTS:
        return [word]
    m = _MOVE_NUMBER.match(word)
    if m:
        word = word[m.end():]
    word = word.rstrip("!?")
    if not word or _NAG.fullmatch(word) or _MOVE_NUMBER.fullmatch(word):
        return []
    return [word]
