"""What the variant tests share: pyffish (the oracle) behind a guard, the parts of a FEN both
sides write alike, random positions of each variant, and a seeded random player.

pyffish is a current Fairy-Stockfish built as a Python extension. Two facts shape this module:

- it ends the whole process (no exception) when given a variant name it does not know, so every
  call goes through ``_variant``, which lets only the five family names through;
- every call costs one to two milliseconds (it sets up its piece tables anew each time), so
  the tests ask it only what they must: one ``legal_moves`` per ply, the SAN of a whole game in
  one ``get_san_moves`` (a ``+``/``#`` there is check/mate after that move), a FEN now and then.

It is a test tool only (GPL): nothing in makruk/ or bot/ imports it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import pyffish

from makruk import Board, InvalidFenError, Move, PieceType

FAMILY = ("makruk", "makpong", "cambodian", "asean", "sittuyin", "karouk")  # the only names pyffish may ever see
VARIANTS = ("makpong", "cambodian", "asean", "sittuyin")  # the variants these tests are about
# Fairy-Stockfish marks a promoted piece with ``~`` when asked; the project writes Makruk's Bia
# Ngai ``M~`` and ASEAN's and Sittuyin's promoted pieces as plain pieces.
SHOW_PROMOTED = {"makruk": True, "makpong": True, "cambodian": True, "asean": False, "sittuyin": False,
                 "karouk": True}
MATE = 32000  # pyffish.game_result of a checkmated side to move is -MATE


def _variant(variant: str) -> str:
    if variant not in FAMILY:  # pyffish would kill the test process
        raise AssertionError(f"refusing to pass the unknown variant {variant!r} to pyffish")
    return variant


def fsf_legal(variant: str, fen: str, moves: Sequence[str] = ()) -> set[str]:
    return set(pyffish.legal_moves(_variant(variant), fen, list(moves)))


def fsf_fen(variant: str, fen: str, moves: Sequence[str] = ()) -> str:
    return str(pyffish.get_fen(_variant(variant), fen, list(moves), False, False, SHOW_PROMOTED[variant]))


def fsf_in_check(variant: str, fen: str, moves: Sequence[str] = ()) -> bool:
    """Whether the side to move is in check after ``moves``."""
    return bool(pyffish.gives_check(_variant(variant), fen, list(moves)))


def fsf_sans(variant: str, fen: str, moves: Sequence[str], thai: bool = False) -> list[str]:
    notation = pyffish.NOTATION_THAI_SAN if thai else pyffish.NOTATION_SAN
    return list(pyffish.get_san_moves(_variant(variant), fen, list(moves), False, notation))


def fsf_san(variant: str, fen: str, move: str, thai: bool = False) -> str:
    notation = pyffish.NOTATION_THAI_SAN if thai else pyffish.NOTATION_SAN
    return str(pyffish.get_san(_variant(variant), fen, move, False, notation))


def fsf_claimable(variant: str, fen: str, moves: Sequence[str] = ()) -> bool:
    """pyffish's optional game end: a draw a player may claim (repetition, count, 50 moves)."""
    return bool(pyffish.is_optional_game_end(_variant(variant), fen, list(moves))[0])


def fsf_ends_now(variant: str, fen: str, moves: Sequence[str] = ()) -> bool:
    return bool(pyffish.is_immediate_game_end(_variant(variant), fen, list(moves))[0])


def fsf_insufficient(variant: str, fen: str, moves: Sequence[str] = ()) -> tuple[bool, bool]:
    """Whether White and Black lack mating material, as pyffish sees it."""
    white, black = pyffish.has_insufficient_material(_variant(variant), fen, list(moves))
    return bool(white), bool(black)


def fsf_result(variant: str, fen: str, moves: Sequence[str] = ()) -> int:
    """Only for a position without legal moves: -MATE checkmated, 0 stalemate (side to move's view)."""
    return int(pyffish.game_result(_variant(variant), fen, list(moves)))


# --- the FEN both write alike ----------------------------------------------------------------

@dataclass(frozen=True)
class SharedFen:
    """What our FEN and Fairy-Stockfish's must agree on.

    The halfmove field is compared only where pyffish writes a plain halfmove clock: while one
    of its counts runs (which start by themselves, also Makruk's board's honour) it writes the
    count's limit and ply there instead, and our counts are declared (RULES.md).
    """

    placement: str  # the board and the pocket, the pocket's letters sorted
    turn: str
    flags: str  # Ouk Chatrang's DEde; "-" elsewhere
    halfmove: int | None  # None: pyffish writes a count there
    fullmove: int


def shared(fen: str) -> SharedFen:
    fields = fen.split()
    placement = fields[0]
    if "[" in placement:
        board, pocket = placement.split("[")
        placement = f"{board}[{''.join(sorted(pocket.rstrip(']')))}]"
    halfmove = int(fields[4]) if len(fields) == 6 and fields[3] == "-" else None
    return SharedFen(placement, fields[1], fields[2], halfmove, int(fields[-1]))


def assert_same_fen(ours: str, theirs: str, where: str) -> None:
    a, b = shared(ours), shared(theirs)
    assert (a.placement, a.turn, a.flags, a.fullmove) == (b.placement, b.turn, b.flags, b.fullmove), (
        f"{where}: FEN ours {ours!r}, pyffish {theirs!r}"
    )
    if b.halfmove is not None:
        assert a.halfmove == b.halfmove, f"{where}: halfmove clock ours {ours!r}, pyffish {theirs!r}"


def fsf_count(fen: str) -> tuple[int, int] | None:
    """The (limit, ply) of the count pyffish writes in its FEN, both in plies; None if none runs."""
    fields = fen.split()
    if len(fields) == 6 and fields[3] != "-":
        return int(fields[3]), int(fields[4])
    return None



def agree(variant: str, fen: str, moves: tuple[str, ...] | list[str] = ()) -> Board:
    """Our board after ``moves`` (each one played, so legal), checked against pyffish."""
    board = Board(fen, variant=variant, perpetual="draw")
    for uci in moves:
        board.play(Move.from_uci(uci))
    where = f"{variant}: {fen!r} moves {' '.join(moves) or '(none)'}"
    ours, theirs = {m.uci() for m in board.legal_moves()}, fsf_legal(variant, fen, moves)
    assert ours == theirs, f"{where}: only ours {sorted(ours - theirs)}, only pyffish {sorted(theirs - ours)}"
    assert board.is_check() == fsf_in_check(variant, fen, moves), where
    assert_same_fen(board.fen(), fsf_fen(variant, fen, moves), where)
    return board


def legal(board: Board) -> list[str]:
    return sorted(m.uci() for m in board.legal_moves())

# --- random positions ------------------------------------------------------------------------

# The pieces a random position draws from (the FEN letters of each variant), weighted by repetition.
EXTRAS = {
    "makpong": ["R", "R", "S", "N", "N", "M", "P", "P", "P", "M~"],
    "cambodian": ["R", "R", "R", "S", "N", "N", "M", "P", "P", "M~"],
    "asean": ["R", "R", "B", "N", "N", "Q", "P", "P", "P", "P"],
    "sittuyin": ["R", "R", "S", "N", "N", "F", "P", "P", "P", "P"],
}
# The ranks (0-7, White's view) a Bia may stand on in a random position, by colour.
BIA_RANKS = {
    "makpong": {"w": range(2, 5), "b": range(3, 6)},
    "cambodian": {"w": range(2, 5), "b": range(3, 6)},
    "asean": {"w": range(2, 7), "b": range(1, 6)},
    "sittuyin": {"w": range(2, 8), "b": range(6)},
}


def write_placement(pieces: dict[int, str]) -> str:
    rows = []
    for rank in range(7, -1, -1):
        row = "".join(pieces.get(rank * 8 + f, "1") for f in range(8))
        rows.append(re.sub("1+", lambda m: str(len(m.group())), row))
    return "/".join(rows)


def is_valid(variant: str, fen: str) -> bool:
    """Both accept the FEN (ours refuses, among others, a side to move that could take a Khun)."""
    try:
        Board(fen, variant=variant)
    except InvalidFenError:
        return False
    return bool(pyffish.validate_fen(fen, _variant(variant)) == pyffish.FEN_OK)


def random_endgame(rng: random.Random, variant: str) -> str:
    """Two Khuns, one to four pieces for a stronger side and up to two for the other."""
    while True:
        pieces: dict[int, str] = {}
        strong = rng.choice("wb")
        weak = "b" if strong == "w" else "w"
        for color, count in ((strong, rng.randint(1, 4)), (weak, rng.randint(0, 2))):
            drawn = ["K"] + [rng.choice(EXTRAS[variant]) for _ in range(count)]
            if variant == "sittuyin" and drawn.count("F") > 1:
                continue  # one Sit-ke a side
            for symbol in drawn:
                _place(rng, variant, pieces, symbol, color)
        if variant == "cambodian" and rng.random() < 0.6:
            fen = _with_gates(rng, pieces)
        else:
            pocket = "[]" if variant == "sittuyin" else ""
            fen = f"{write_placement(pieces)}{pocket} {rng.choice('wb')} - - 0 1"
        if is_valid(variant, fen):
            return fen


def random_mating_net(rng: random.Random, variant: str) -> str:
    """A Khun on the edge, the enemy Khun close by with a Rua and another piece or two: checkmates
    (and stalemates) within a few moves."""
    extras = {"asean": "RBNQ", "sittuyin": "RSNF", "makpong": "RSNM", "cambodian": "RSNM"}[variant]
    while True:
        pieces: dict[int, str] = {}
        strong, weak = rng.choice([("w", "b"), ("b", "w")])
        edge = [sq for sq in range(64) if sq % 8 in (0, 7) or sq // 8 in (0, 7)]
        khun = rng.choice(edge)
        pieces[khun] = "K" if weak == "w" else "k"
        near = [sq for sq in range(64) if sq not in pieces and 2 <= _distance(sq, khun) <= 3]
        pieces[rng.choice(near)] = "K" if strong == "w" else "k"
        for symbol in ["R"] + [rng.choice(extras) for _ in range(rng.randint(1, 2))]:
            _place(rng, variant, pieces, symbol, strong)
        if rng.random() < 0.4:
            _place(rng, variant, pieces, rng.choice(extras + "P"), weak)
        if variant == "sittuyin" and (list(pieces.values()).count("F") > 1 or list(pieces.values()).count("f") > 1):
            continue
        pocket = "[]" if variant == "sittuyin" else ""
        fen = f"{write_placement(pieces)}{pocket} {strong} - - 0 1"
        if is_valid(variant, fen):
            return fen


def random_mate_in_one(rng: random.Random, variant: str) -> str:
    """A mating net (``random_mating_net``) where the side to move can end the game at once, by
    checkmate or (now and then) stalemate."""
    while True:
        fen = random_mating_net(rng, variant)
        board = Board(fen, variant=variant)
        for move in board.legal_moves():
            board.push(move)
            ends = not board.legal_moves()
            board.pop()
            if ends:
                return fen


def _distance(a: int, b: int) -> int:
    """The Khun's distance between two squares."""
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


def _place(rng: random.Random, variant: str, pieces: dict[int, str], symbol: str, color: str) -> None:
    ranks = BIA_RANKS[variant][color] if symbol == "P" else range(8)
    free = [r * 8 + f for r in ranks for f in range(8) if r * 8 + f not in pieces]
    pieces[rng.choice(free)] = symbol if color == "w" else symbol.lower()


def _with_gates(rng: random.Random, pieces: dict[int, str]) -> str:
    """Puts some Khuns and Neangs back on their start squares with their flags (D1 E1 d8 e8)."""
    flags = ""
    for flag, sq, symbol in (("D", 3, "K"), ("E", 4, "M"), ("d", 59, "m"), ("e", 60, "k")):
        if rng.random() < 0.6:
            khun = symbol.upper() == "K"
            if khun:  # the Khun moves home
                for s, p in list(pieces.items()):
                    if p == symbol:
                        del pieces[s]
            if sq not in pieces or khun:
                pieces[sq] = symbol
                flags += flag
    return f"{write_placement(pieces)} {rng.choice('wb')} {flags or '-'} - 0 1"


def random_deployment(rng: random.Random) -> str:
    """Sittuyin in deployment: the Bia as at the start, some pieces already placed in their camp
    (a Rua on the back rank), the rest in hand; the hands may be unequal or one of them empty."""
    start = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8"
    while True:
        pieces = {sq: p for sq, p in enumerate(squares(start)) if p != "."}
        pocket = []
        for color in "wb":
            camp = range(24) if color == "w" else range(40, 64)
            back = range(8) if color == "w" else range(56, 64)
            placed_share = rng.choice([0.0, 0.3, 0.6, 0.9, 1.0])
            for symbol in "KFRRSSNN":
                letter = symbol if color == "w" else symbol.lower()
                if rng.random() < placed_share:
                    region = back if symbol == "R" else camp
                    free = [s for s in region if s not in pieces]
                    pieces[rng.choice(free)] = letter
                else:
                    pocket.append(letter)
        fen = f"{write_placement(pieces)}[{''.join(pocket)}] {rng.choice('wb')} - - 0 1"
        if is_valid("sittuyin", fen):
            return fen


def random_promotion_race(rng: random.Random) -> str:
    """Sittuyin after deployment with Bia on and near their promotion squares, sometimes a
    side's last Bia, sometimes a Sit-ke already on the board."""
    white_squares = [56, 49, 42, 35, 36, 45, 54, 63]
    while True:
        pieces: dict[int, str] = {}
        for color in "wb":
            _place(rng, "sittuyin", pieces, "K", color)
            for _ in range(rng.choice([1, 1, 2, 3])):
                sq = rng.choice(white_squares) if rng.random() < 0.6 else rng.randrange(16, 48)
                if color == "b":
                    sq = 63 - sq
                if sq not in pieces:
                    pieces[sq] = "P" if color == "w" else "p"
            for _ in range(rng.randint(0, 2)):
                _place(rng, "sittuyin", pieces, rng.choice(["R", "S", "N", "F"]), color)
        symbols = list(pieces.values())
        fen = f"{write_placement(pieces)}[] {rng.choice('wb')} - - 0 1"
        if symbols.count("F") < 2 and symbols.count("f") < 2 and is_valid("sittuyin", fen):
            return fen


def random_bare_khun(rng: random.Random, variant: str) -> str:
    """No Bia, one side bare: the counting endgames (the count starts after the first move)."""
    options = {"asean": "RBNQ", "sittuyin": "RSNF", "makpong": "RSNM", "cambodian": "RSNM"}[variant]
    while True:
        pieces: dict[int, str] = {}
        strong = rng.choice("wb")
        _place(rng, variant, pieces, "K", "w")
        _place(rng, variant, pieces, "K", "b")
        for _ in range(rng.randint(1, 3)):
            _place(rng, variant, pieces, rng.choice(options), strong)
        pocket = "[]" if variant == "sittuyin" else ""
        fen = f"{write_placement(pieces)}{pocket} {rng.choice('wb')} - - 0 1"
        if is_valid(variant, fen):
            return fen


def squares(fen: str) -> list[str]:
    """The 64 squares of a FEN's placement, a1 first ('.' for empty, a Bia Ngai as 'M')."""
    rows = []
    for row in fen.split()[0].split("[")[0].replace("~", "").split("/"):
        cells: list[str] = []
        for ch in row:
            cells.extend("." * int(ch) if ch.isdigit() else ch)
        rows.append(cells)
    return [cell for row in reversed(rows) for cell in row]


def random_middlegame(rng: random.Random, variant: str, plies: int) -> str:
    """The FEN after ``plies`` random moves from the start (made by our board, not checked)."""
    board = Board(variant=variant, perpetual="draw")
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves or board.outcome() is not None:
            break
        board.push(rng.choice(moves))
    return board.fen()


# --- a seeded random player ----------------------------------------------------------------

VALUES = {
    PieceType.BIA: 1.0, PieceType.BIA_NGAI: 2.0, PieceType.MET: 2.0, PieceType.KHON: 2.5, PieceType.MA: 3.0,
    PieceType.RUA: 5.0,
}


def pick(rng: random.Random, board: Board, moves: list[Move], strong: bool) -> Move:
    """The strong side looks one ply ahead (mate, captures, promotions, checks); the other
    plays at random, taking a piece now and then. Both are cheap: no reply is generated except
    after a check (to see a mate)."""
    if not strong or rng.random() < 0.1:
        captures = [m for m in moves if m.from_square != m.to_square and board.piece_at(m.to_square) is not None]
        return rng.choice(captures if captures and rng.random() < 0.3 else moves)
    best: tuple[float, Move] | None = None
    for move in moves:
        target = None if move.drop else board.piece_at(move.to_square)
        score = VALUES.get(target.kind, 0.0) if target is not None and move.from_square != move.to_square else 0.0
        score += 0.6 if move.promotion else 0.0
        board.push(move)
        if board.is_check():
            score += 1000.0 if not board.legal_moves() else 0.4
        score += 0.1 * _squeeze(board)
        board.pop()
        score += rng.random() * 0.15
        if best is None or score > best[0]:
            best = (score, move)
    assert best is not None
    return best[1]


def _squeeze(board: Board) -> int:
    """How many squares around the Khun of the side to move are taken or attacked."""
    khun = board.king(board.turn)
    if khun < 0:
        return 0
    around = [sq for sq in range(64) if _distance(sq, khun) == 1]
    return sum(1 for sq in around if board.piece_at(sq) is not None or board.is_attacked_by(not board.turn, sq))


@dataclass
class Ply:
    """Our board's view of one position of a game."""

    legal: set[str]
    check: bool
    fen: str
    gates: int
    deploying: bool  # Sittuyin: pieces are still in hand


@dataclass
class Game:
    variant: str
    start: str
    moves: list[str] = field(default_factory=list)
    sans: list[str] = field(default_factory=list)
    thai: list[str] = field(default_factory=list)
    plies: list[Ply] = field(default_factory=list)  # one per position: len(moves) + 1
    board: Board | None = None  # the board after the last move


def play(rng: random.Random, variant: str, start: str, max_plies: int) -> Game:
    """A seeded random game on our board, recorded position by position; it stops at the end of
    the game (our outcome) or after ``max_plies``."""
    board = Board(start, variant=variant, perpetual="draw")
    game = Game(variant, start, board=board)
    # Mostly the side with more material plays the one-ply lookahead, the other at random.
    material = [sum(VALUES.get(p.kind, 0.0) for p in board.piece_map().values() if p.color == c) for c in (False, True)]
    strong_side = material[True] >= material[False] if rng.random() < 0.8 else rng.random() < 0.5
    while True:
        moves = board.legal_moves()
        game.plies.append(
            Ply({m.uci() for m in moves}, board.is_check(), board.fen(), board.gates, board.in_deployment())
        )
        if not moves or board.outcome() is not None or len(game.moves) >= max_plies:
            return game
        move = pick(rng, board, moves, board.turn == strong_side)
        game.sans.append(board.san(move))
        game.thai.append(board.thai_san(move))
        game.moves.append(move.uci())
        board.push(move)
