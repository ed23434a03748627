"""The rules core's public fast path (what engines use) and the helpers around it: the board's
tables and masks against slow recomputations, the two generators against ``legal_moves()``,
push/pop, the transposition key and repetition, replaying stored games with count events,
reading squares, and the notation methods."""

from __future__ import annotations

import ast
import json
import random
from collections.abc import Iterable
from pathlib import Path

import pytest

import makruk
from makruk import (
    BLACK,
    WHITE,
    Board,
    CountEvent,
    IllegalMoveError,
    Move,
    Piece,
    PieceType,
    Square,
    parse_square,
    read_square,
    to_arabic_digits,
)
from makruk.board import Promotion

ROOT = Path(__file__).resolve().parents[2]
STARTS = [
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "3r3k/8/8/8/8/8/3R4/3K4 w - - 0 1",  # a pin
    "4k3/8/8/8/8/4n3/8/RN1K2r1 w - - 0 1",  # double check
    "r3k3/8/8/8/3N4/8/2P5/R2K3r w - - 0 1",
    "4k3/2P5/8/3P4/8/8/5p2/4K3 w - - 0 1",  # promotions both ways
    "2k5/8/1p1P4/2P5/8/3p1p2/4P3/4K3 w - - 0 1",  # Bia about to promote, with captures
]
PERPETUAL = "8/8/8/8/8/3KmN2/4R3/5k1s w - - 0 1"
PERPETUAL_MOVES = ["f3h2", "f1g1", "h2f3", "g1f1", "f3h2", "f1g1", "h2f3", "g1f1"]


def _random_boards(promotion: Promotion, plies: int = 60, seed: str = "") -> list[Board]:
    """Copies of the positions of random games from every start (captures preferred)."""
    rng = random.Random(f"{promotion}{seed}")
    boards = []
    for start in STARTS:
        board = Board(start, promotion=promotion)
        for _ in range(plies):
            boards.append(board.copy())
            moves = board.legal_moves()
            if not moves:
                break
            captures = [m for m in moves if board.piece_at(m.to_square)]
            board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
    return boards


# --- the tables and masks ---------------------------------------------------------------

def _mask(squares: Iterable[Square]) -> int:
    return sum(1 << sq for sq in squares)


@pytest.mark.parametrize("promotion", ["forced", "optional"])
def test_the_tables_agree_with_the_pieces(promotion: Promotion) -> None:
    for board in _random_boards(promotion):
        pieces = board.piece_map()
        assert board.piece_codes == [pieces[sq].code if sq in pieces else 0 for sq in range(64)]
        for code in range(16):
            assert board.bitboards[code] == _mask(sq for sq, p in pieces.items() if p.code == code)
        for color in (WHITE, BLACK):
            assert board.occupied_co[color] == _mask(sq for sq, p in pieces.items() if p.color == color)
            for kind in PieceType:
                expected = _mask(sq for sq, p in pieces.items() if p == Piece(kind, color))
                assert board.pieces_mask(kind, color) == expected
        assert board.occupied == _mask(pieces)
        assert board.checkers_mask == _mask(board.checkers())
        assert bool(board.checkers_mask) == board.is_check()


# Movement written again, plainly, to check the attack tables against.
STEPS = {
    PieceType.KHUN: [(1, 1), (-1, 1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1)],
    PieceType.MET: [(1, 1), (-1, 1), (1, -1), (-1, -1)],
    PieceType.BIA_NGAI: [(1, 1), (-1, 1), (1, -1), (-1, -1)],
    PieceType.MA: [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
}


def _attacks(board: Board, sq: Square, piece: Piece, target: Square) -> bool:
    df, dr = (target & 7) - (sq & 7), (target >> 3) - (sq >> 3)
    forward = 1 if piece.color == WHITE else -1
    if piece.kind in STEPS:
        return (df, dr) in STEPS[piece.kind]
    if piece.kind == PieceType.KHON:
        return (df, dr) in STEPS[PieceType.MET] + [(0, forward)]
    if piece.kind == PieceType.BIA:
        return (df, dr) in [(1, forward), (-1, forward)]
    if (df == 0) == (dr == 0):  # the Rua: one line, some distance
        return False
    step = (df > 0) - (df < 0) + 8 * ((dr > 0) - (dr < 0))
    return all(board.piece_codes[s] == 0 for s in range(sq + step, target, step))


def test_attackers_mask_agrees_with_the_pieces_movement() -> None:
    for board in _random_boards("forced", plies=30):
        pieces = board.piece_map()
        for target in range(64):
            for color in (WHITE, BLACK):
                expected = _mask(sq for sq, p in pieces.items() if p.color == color and _attacks(board, sq, p, target))
                assert board.attackers_mask(color, target) == expected, (board.fen(), target, color)
                assert board.is_attacked_by(color, target) == bool(expected)
        king = board.king(board.turn)
        assert board.checkers_mask == board.attackers_mask(not board.turn, king)


def test_attackers_mask_sees_through_the_squares_left_out_of_occupied() -> None:
    board = Board("4k3/8/8/8/8/8/R3P3/3K4 w - - 0 1")
    e2, h2 = parse_square("e2"), parse_square("h2")
    assert board.attackers_mask(WHITE, h2) == 0  # the Bia on e2 blocks the Rua
    assert board.attackers_mask(WHITE, h2, board.occupied ^ 1 << e2) == 1 << parse_square("a2")


@pytest.mark.parametrize("promotion", ["forced", "optional"])
def test_promotion_zone_is_the_far_three_ranks(promotion: Promotion) -> None:
    board = Board(promotion=promotion)
    assert board.promotion_zone(WHITE) == _mask(sq for sq in range(64) if sq >> 3 >= 5)
    assert board.promotion_zone(BLACK) == _mask(sq for sq in range(64) if sq >> 3 <= 2)


# --- the generators -----------------------------------------------------------------------

@pytest.mark.parametrize("promotion", ["forced", "optional"])
def test_generate_moves_is_legal_moves_without_the_perpetual_rule(promotion: Promotion) -> None:
    for board in _random_boards(promotion):
        generated = board.generate_moves()
        assert len(set(generated)) == len(generated)
        assert set(generated) == set(board.legal_moves())  # no perpetual check in these games
        drawing = Board(board.fen(), promotion=board.promotion, perpetual="draw")
        assert set(drawing.generate_moves()) == set(drawing.legal_moves())


def test_generate_moves_ignores_the_perpetual_check_rule() -> None:
    board = Board(PERPETUAL)
    board.replay(PERPETUAL_MOVES)
    forbidden = Move.from_uci("f3h2")
    assert forbidden in board.generate_moves() and forbidden not in board.legal_moves()
    assert set(board.legal_moves()) < set(board.generate_moves())


@pytest.mark.parametrize("promotion", ["forced", "optional"])
def test_generate_tactical_moves_are_the_captures_and_promotions(promotion: Promotion) -> None:
    in_check = promoting = 0
    for board in _random_boards(promotion, seed="tactical"):
        tactical = board.generate_tactical_moves()
        assert len(set(tactical)) == len(tactical)
        expected = {m for m in board.generate_moves() if m.promotion or board.piece_at(m.to_square)}
        assert set(tactical) == expected, board.fen()
        in_check += board.is_check()
        promoting += any(m.promotion for m in tactical)
    assert in_check and promoting


def test_optional_promotion_offers_the_unpromoted_capture_only() -> None:
    board = Board("4k3/8/2p5/3P4/8/8/8/4K3 w - - 0 1", promotion="optional")
    assert sorted(m.uci() for m in board.generate_tactical_moves()) == ["d5c6", "d5c6m", "d5d6m"]


# --- push and pop -------------------------------------------------------------------------

def _state(board: Board) -> tuple[object, ...]:
    return (board.fen(), board.piece_codes[:], board.bitboards[:], board.occupied_co[:], board.checkers_mask,
            board.transposition_key(), board.count, board.ply, sorted(board.generate_moves(), key=Move.uci))


@pytest.mark.parametrize("promotion", ["forced", "optional"])
def test_pop_restores_what_push_changed(promotion: Promotion) -> None:
    for board in _random_boards(promotion, plies=20, seed="pop"):
        before = _state(board)
        for move in board.generate_moves():
            board.push(move)
            assert board.move_stack[-1] == move
            assert board.pop() == move
            assert _state(board) == before


# --- the transposition key and repetition -------------------------------------------------

def test_transposition_key_tells_positions_apart_as_repetition_does() -> None:
    one, other = Board(), Board()
    one.replay(["b1d2", "b8d7", "g1e2"])
    other.replay(["g1e2", "b8d7", "b1d2"])
    assert one.transposition_key() == other.transposition_key()  # the same position by another order
    assert one.transposition_key() == Board(one.fen()).transposition_key()
    assert Board().transposition_key() != Board(Board().fen().replace(" w ", " b ")).transposition_key()
    promoted = Board("4k3/8/8/8/8/2P5/8/4K3 w - - 0 1")
    assert promoted.transposition_key() != Board("4k3/8/8/8/8/2M~5/8/4K3 w - - 0 1").transposition_key()


def test_transposition_key_includes_the_count() -> None:
    board = Board("8/8/8/4k3/8/8/8/R2K4 b - - 0 1")
    plain = board.transposition_key()
    board.declare_count()
    assert board.transposition_key() != plain and board.count is not None
    board.stop_count()
    assert board.transposition_key() == plain


def test_is_repetition_counts_the_occurrences() -> None:
    board = Board("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1")
    shuffle = ["a1b1", "e8d8", "b1a1", "d8e8"]
    assert not board.is_repetition(2)
    board.replay(shuffle)
    assert board.is_repetition(2) and not board.is_repetition(3) and not board.is_repetition()
    board.replay(shuffle)
    assert board.is_repetition(3) and board.is_repetition() and not board.is_repetition(4)
    # The repetition drew the game; pushed on, a Bia's step makes every position new.
    board.replay(["a2a3"], trusted=True)
    assert not board.is_repetition(2)
    board.replay(["e8d8", "a1b1", "d8e8", "b1a1"], trusted=True)
    assert board.is_repetition(2) and not board.is_repetition(3)


# --- replaying stored games ----------------------------------------------------------------

COUNT_START = "8/8/8/4k3/8/8/8/R2K4 b - - 0 1"


def test_replay_applies_each_event_before_the_move_of_its_ply() -> None:
    board = Board(COUNT_START)
    board.replay(["e5e4", "a1a2", "e4e5"], [CountEvent(0, "count")])
    assert board.count is not None and board.count.done == 1 and board.count.limit == 13
    stopped = Board(COUNT_START)
    stopped.replay(["e5e4", "a1a2", "e4e5"], [CountEvent(0, "count"), CountEvent(2, "stopcount")])
    assert stopped.count is None
    again = Board(COUNT_START)
    again.replay(["e5e4", "a1a2"], [CountEvent(0, "count"), CountEvent(2, "stopcount"), CountEvent(2, "count")])
    assert again.count is not None and again.count.done == 0 and again.turn == BLACK  # after the last move


def test_trusted_replay_pushes_and_reaches_the_same_board() -> None:
    moves = ["e3e4", "d6d5", "e4d5", "e6e5"]
    checked, trusted = Board(), Board()
    checked.replay(moves)
    trusted.replay((Move.from_uci(uci) for uci in moves), trusted=True)
    assert _state(checked) == _state(trusted)
    with pytest.raises(IllegalMoveError):
        Board().replay(["e3e5"])
    unchecked = Board()
    unchecked.replay(["e3e5"], trusted=True)  # the caller vouched for it
    assert unchecked.piece_at(parse_square("e5")) == Piece(PieceType.BIA, WHITE)


def test_replay_checks_the_count_events() -> None:
    with pytest.raises(IllegalMoveError):
        Board().replay(["e3e4"], [CountEvent(1, "count")], trusted=True)  # Bia on the board


def test_count_events_are_stored_as_before() -> None:
    events = [CountEvent(3, "count"), CountEvent(8, "stopcount")]
    text = CountEvent.dump_all(events)
    assert text == json.dumps({"events": [[3, "count"], [8, "stopcount"]]})
    assert CountEvent.load_all(text) == events
    assert CountEvent.dump_all(iter(events)) == text
    assert CountEvent.load_all(None) == [] and CountEvent.load_all("") == [] and CountEvent.dump_all(()) is None
    with pytest.raises(ValueError):
        CountEvent.load_all('{"events": [[3, "resign"]]}')


# --- squares, digits, notation --------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "square"),
    [("e3", "e3"), ("E3", "e3"), (" a1 ", "a1"), ("h8", "h8"), ("จ3", "e3"), ("จ๓", "e3"), ("ก๑", "a1"),
     ("ญ8", "h8"), ("e๓", "e3"), ("e9", None), ("i3", None), ("ฎ3", None), ("e", None), ("e33", None),
     ("", None), ("3e", None), ("Nd2", None), ("e 3", None)],
)
def test_read_square(text: str, square: str | None) -> None:
    assert read_square(text) == (None if square is None else parse_square(square))


def test_to_arabic_digits_changes_digits_only() -> None:
    assert to_arabic_digits("๐๑๒๓๔๕๖๗๘๙") == "0123456789"
    assert to_arabic_digits("ม-ง๒ e3e4 ๑๐ นาที") == "ม-ง2 e3e4 10 นาที"


def test_notation_methods_are_the_boards_own() -> None:
    for name in ("parse_move", "san", "thai_san"):
        assert name in vars(Board), name
    board = Board()
    move = board.parse_move("Nd2")
    assert move == makruk.parse_move(board, "Nd2")
    assert board.san(move) == makruk.san(board, move) == "Nd2"
    assert board.thai_san(move) == makruk.thai_san(board, move)


# --- the boundary ---------------------------------------------------------------------------

def _private_names() -> set[str]:
    board = Board()
    names = set(vars(board)) | {name for cls in Board.__mro__ for name in vars(cls)}
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def test_nothing_outside_the_rules_core_touches_private_board_attributes() -> None:
    private = _private_names()
    found = []
    for folder in ("bot", "renderers", "storage", "bench", "scripts", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr in private
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert not found, "private Board attributes used outside makruk/: " + ", ".join(found)
