"""RULES.md, section by section: board and setup, how each piece moves, check, promotion,
checkmate and stalemate, FEN."""

from __future__ import annotations

import pytest

from makruk import (
    BLACK,
    STARTING_FEN,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidFenError,
    Move,
    Piece,
    PieceType,
    parse_square,
    square_name,
)

from .support import ended


def dests(fen: str, square: str, **options) -> set[str]:
    """Squares the piece on ``square`` may legally move to (promotion marked with m)."""
    board = Board(fen, **options)
    frm = parse_square(square)
    return {m.uci()[2:] for m in board.legal_moves() if m.from_square == frm}


def play(board: Board, *ucis: str) -> Board:
    for uci in ucis:
        board.play(Move.from_uci(uci))
    return board


# --- board, sides, setup ----------------------------------------------------------------

def test_start_position_matches_the_spec():
    board = Board()
    assert board.fen() == STARTING_FEN == "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
    expected = {
        "a1": "R", "b1": "N", "c1": "S", "d1": "K", "e1": "M", "f1": "S", "g1": "N", "h1": "R",
        "a8": "r", "b8": "n", "c8": "s", "d8": "m", "e8": "k", "f8": "s", "g8": "n", "h8": "r",
    }
    expected |= {f"{f}3": "P" for f in "abcdefgh"} | {f"{f}6": "p" for f in "abcdefgh"}
    assert {square_name(sq): p.symbol() for sq, p in board.piece_map().items()} == expected
    assert board.turn == WHITE
    # Each Khun faces the enemy Met.
    assert board.piece_at(parse_square("d8")) == Piece(PieceType.MET, BLACK)
    assert board.piece_at(parse_square("e8")) == Piece(PieceType.KHUN, BLACK)


def test_sides_alternate_and_captured_pieces_leave_the_game():
    board = play(Board(), "e3e4", "d6d5", "e4d5")
    assert board.turn == BLACK
    assert len(board.piece_map()) == 31
    assert board.piece_at(parse_square("d5")) == Piece(PieceType.BIA, WHITE)


def test_there_is_no_null_move_and_no_pass():
    assert Move.from_uci("0000") not in Board().legal_moves()
    with pytest.raises(IllegalMoveError):
        Board().play(Move.from_uci("0000"))


# --- how the pieces move --------------------------------------------------------------------

K = "7k/8/8/8/8/8/8/K7"  # placement filler: both Khuns in far corners


def with_piece(symbol: str, square: str, turn: str = "w", extra: dict[str, str] | None = None) -> str:
    board = Board(f"{K} w - - 0 1").piece_map()
    cells = {square_name(sq): p.symbol() for sq, p in board.items()}
    cells[square] = symbol
    cells |= extra or {}
    rows = []
    for rank in "87654321":
        row, empty = "", 0
        for file in "abcdefgh":
            piece = cells.get(file + rank)
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {turn} - - 0 1"


def test_khun_moves_one_square_in_eight_directions():
    assert dests(with_piece("K", "d4").replace("K7", "8"), "d4") == {"c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"}


def test_rua_moves_orthogonally_any_distance_without_jumping():
    assert dests(with_piece("R", "d4"), "d4") == {
        "d1", "d2", "d3", "d5", "d6", "d7", "d8", "a4", "b4", "c4", "e4", "f4", "g4", "h4"
    }
    # Blocked by its own Bia on d6, captures the enemy Ma on f4 but does not jump it.
    fen = with_piece("R", "d4", extra={"d6": "P", "f4": "n"})
    assert dests(fen, "d4") == {"d1", "d2", "d3", "d5", "a4", "b4", "c4", "e4", "f4"}


def test_khon_moves_one_diagonal_or_one_straight_forward():
    assert dests(with_piece("S", "d4"), "d4") == {"c5", "d5", "e5", "c3", "e3"}
    assert dests(with_piece("s", "d5", turn="b"), "d5") == {"c4", "d4", "e4", "c6", "e6"}


def test_ma_leaps_like_a_knight_over_pieces():
    assert dests(with_piece("N", "d4"), "d4") == {"b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"}
    crowded = with_piece("N", "d4", extra=dict.fromkeys(("c4", "e4", "d5", "c5", "e5"), "P") | {"d3": "p"})
    assert dests(crowded, "d4") == {"b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"}


@pytest.mark.parametrize("symbol", ["M", "M~"])
def test_met_and_bia_ngai_move_one_square_diagonally(symbol):
    assert dests(with_piece(symbol, "d4"), "d4") == {"c3", "c5", "e3", "e5"}
    black = symbol.lower()
    assert dests(with_piece(black, "d4", turn="b"), "d4") == {"c3", "c5", "e3", "e5"}


def test_bia_moves_one_square_forward_and_never_two():
    assert dests(with_piece("P", "d3"), "d3") == {"d4"}
    assert dests(with_piece("p", "d6", turn="b"), "d6") == {"d5"}
    start = {m.uci() for m in Board().legal_moves()}
    assert "e3e4" in start and "e3e5" not in start
    with pytest.raises(IllegalMoveError) as error:
        Board().play(Move.from_uci("e3e5"))
    assert error.value.code == "cannot_move_there"


def test_bia_captures_one_square_diagonally_forward_only():
    fen = with_piece("P", "d4", extra={"c5": "n", "e5": "r", "d5": "p", "c3": "n", "e3": "n"})
    assert dests(fen, "d4") == {"c5", "e5"}  # not straight ahead, not backwards
    fen = with_piece("p", "d5", turn="b", extra={"c4": "N", "e4": "R", "d4": "P", "c6": "N"})
    assert dests(fen, "d5") == {"c4", "e4"}


def test_bia_does_not_capture_en_passant():
    board = play(Board("4k3/8/4p3/3P4/8/8/8/4K3 b - - 0 1"), "e6e5")
    assert "d5e6" not in {m.uci() for m in board.legal_moves()}


def test_a_bia_blocked_by_any_piece_cannot_move():
    assert dests(with_piece("P", "d4", extra={"d5": "P"}), "d4") == set()
    assert dests(with_piece("P", "d4", extra={"d5": "p"}), "d4") == set()


def test_there_is_no_castling():
    board = Board("r3k2r/8/8/8/8/8/8/R2K3R w - - 0 1")
    assert {m.uci() for m in board.legal_moves() if m.from_square == parse_square("d1")} == {
        "d1c1", "d1c2", "d1d2", "d1e1", "d1e2"
    }
    with pytest.raises(InvalidFenError):
        Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")


# --- check -------------------------------------------------------------------------------------

def test_a_move_may_not_leave_the_own_khun_attacked():
    # The Rua on d2 is pinned against its Khun by the black Rua on d8.
    fen = "3r3k/8/8/8/8/8/3R4/3K4 w - - 0 1"
    assert dests(fen, "d2") == {"d3", "d4", "d5", "d6", "d7", "d8"}
    with pytest.raises(IllegalMoveError) as error:
        play(Board(fen), "d2e2")
    assert error.value.code == "leaves_khun_in_check"


def test_the_khun_may_not_step_into_check_nor_along_the_checking_line():
    board = Board("3rk3/8/8/8/8/8/8/3K4 w - - 0 1")
    assert board.is_check()
    assert dests(board.fen(), "d1") == {"c1", "c2", "e1", "e2"}  # d2 stays on the Rua's file
    with pytest.raises(IllegalMoveError) as error:
        play(board, "d1d2")
    assert error.value.code == "leaves_khun_in_check"


def test_in_check_only_moves_that_end_the_check_are_legal():
    board = Board("4k3/8/8/8/8/8/1N6/R2Kr3 w - - 0 1")  # the Rua on e1 checks along rank 1
    assert board.is_check() and board.checkers() == [parse_square("e1")]
    # The Khun takes the Rua or steps off its lines (not to c1: the Rua sees through d1);
    # the Ma and the other Rua can neither take it nor block.
    assert {m.uci() for m in board.legal_moves()} == {"d1e1", "d1c2", "d1d2"}


def test_a_check_by_a_rua_may_be_blocked():
    board = Board("3rk3/8/8/8/8/8/5N2/3K4 w - - 0 1")
    assert {m.uci() for m in board.legal_moves() if m.from_square == parse_square("f2")} == {"f2d3"}


def test_double_check_allows_only_khun_moves():
    board = Board("4k3/8/8/8/8/4n3/8/RN1K2r1 w - - 0 1")  # Ma e3 and Rua g1 both check
    assert board.checkers() == [parse_square("g1"), parse_square("e3")]
    assert {m.from_square for m in board.legal_moves()} == {parse_square("d1")}


def test_khon_attacks_forward_for_its_own_colour():
    # Forward is down the board for Black: a black Khon on d2 attacks d1, not d3.
    assert Board("4k3/8/8/8/8/8/3s4/3K4 w - - 0 1").checkers() == [parse_square("d2")]
    assert not Board("4k3/8/8/8/8/3K4/3s4/8 w - - 0 1").is_check()
    assert Board("4k3/8/8/8/8/8/2s5/3K4 w - - 0 1").is_attacked_by(BLACK, parse_square("d1"))


# --- promotion ---------------------------------------------------------------------------------

WHITE_BIA = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1"
BLACK_BIA = "4k3/8/8/8/3p4/8/8/4K3 b - - 0 1"


def test_forced_promotion_on_the_third_rank_of_the_opponent_both_colours():
    assert dests(WHITE_BIA, "d5") == {"d6m"}
    assert dests(BLACK_BIA, "d4") == {"d3m"}
    board = play(Board(WHITE_BIA), "d5d6m")
    assert board.piece_at(parse_square("d6")) == Piece(PieceType.BIA_NGAI, WHITE)
    assert board.fen() == "4k3/8/3M~4/8/8/8/8/4K3 b - - 0 1"
    board = play(Board(BLACK_BIA), "d4d3m")
    assert board.piece_at(parse_square("d3")) == Piece(PieceType.BIA_NGAI, BLACK)
    assert board.fen() == "4k3/8/8/8/8/3m~4/8/4K3 w - - 0 2"


def test_forced_promotion_by_capture():
    fen = "4k3/8/2n5/3P4/8/8/8/4K3 w - - 0 1"
    assert dests(fen, "d5") == {"d6m", "c6m"}


def test_forced_promotion_refuses_the_plain_move_with_a_reason():
    with pytest.raises(IllegalMoveError) as error:
        play(Board(WHITE_BIA), "d5d6")
    assert error.value.code == "promotion_required"
    assert "d5d6m" in str(error.value)
    with pytest.raises(IllegalMoveError) as error:
        play(Board(BLACK_BIA), "d4d3")
    assert error.value.code == "promotion_required"


def test_only_a_bia_reaching_the_zone_may_promote():
    with pytest.raises(IllegalMoveError) as error:
        play(Board("4k3/8/8/8/3P4/8/8/4K3 w - - 0 1"), "d4d5m")
    assert error.value.code == "promotion_not_allowed"
    with pytest.raises(IllegalMoveError) as error:
        play(Board(), "b1d2m")
    assert error.value.code == "promotion_not_allowed"


def test_optional_promotion_white():
    assert dests(WHITE_BIA, "d5", promotion="optional") == {"d6", "d6m"}
    board = play(Board(WHITE_BIA, promotion="optional"), "d5d6", "e8f8")
    assert board.piece_at(parse_square("d6")) == Piece(PieceType.BIA, WHITE)
    assert board.fen().startswith("5k2/8/3P4/")
    assert dests(board.fen(), "d6", promotion="optional") == {"d7", "d7m"}
    play(board, "d6d7", "f8g8")
    assert dests(board.fen(), "d7", promotion="optional") == {"d8m"}  # rank 8: must promote
    with pytest.raises(IllegalMoveError) as error:
        play(board, "d7d8")
    assert error.value.code == "promotion_required"


def test_optional_promotion_black():
    assert dests(BLACK_BIA, "d4", promotion="optional") == {"d3", "d3m"}
    board = play(Board(BLACK_BIA, promotion="optional"), "d4d3", "e1f1")
    assert dests(board.fen(), "d3", promotion="optional") == {"d2", "d2m"}
    play(board, "d3d2", "f1g1")
    assert dests(board.fen(), "d2", promotion="optional") == {"d1m"}


def test_optional_promotion_a_declined_bia_may_promote_later():
    board = play(Board(WHITE_BIA, promotion="optional"), "d5d6", "e8f8", "d6d7m")
    assert board.piece_at(parse_square("d7")) == Piece(PieceType.BIA_NGAI, WHITE)
    board = play(Board(BLACK_BIA, promotion="optional"), "d4d3", "e1f1", "d3d2m")
    assert board.piece_at(parse_square("d2")) == Piece(PieceType.BIA_NGAI, BLACK)


def test_optional_promotion_by_capture_and_the_plain_move_is_a_bia_move():
    fen = "4k3/8/2n5/3P4/8/8/8/4K3 w - - 0 1"
    assert dests(fen, "d5", promotion="optional") == {"d6", "d6m", "c6", "c6m"}


def test_a_bia_ngai_moves_like_a_met_and_never_promotes_again():
    board = play(Board(WHITE_BIA), "d5d6m", "e8f8")
    assert {m.uci() for m in board.legal_moves() if m.from_square == parse_square("d6")} == {
        "d6c5", "d6c7", "d6e5", "d6e7"
    }


def test_an_unpromoted_bia_from_a_fen_in_the_zone_still_promotes_when_forced():
    assert dests("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "d6") == {"d7m"}


def test_bad_rule_options_are_refused():
    with pytest.raises(ValueError):
        Board(promotion="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Board(perpetual="allow")  # type: ignore[arg-type]


# --- checkmate and stalemate -------------------------------------------------------------------

def test_checkmate_wins():
    board = play(Board("4k3/8/4K3/8/8/8/8/R7 w - - 0 1"), "a1a8")
    assert board.is_checkmate() and board.is_game_over()
    outcome = ended(board)
    assert (outcome.result, outcome.reason, outcome.winner) == ("1-0", "checkmate", WHITE)
    board = play(Board("4K3/8/4k3/8/8/8/8/r7 b - - 0 1"), "a1a8")
    assert (ended(board).result, ended(board).winner) == ("0-1", BLACK)


def test_checkmate_by_a_ma_smothered_in_the_corner():
    board = play(Board("6rk/6sp/8/4N3/8/8/8/K7 w - - 0 1"), "e5f7")
    assert board.is_checkmate() and ended(board).reason == "checkmate"


def test_stalemate_draws():
    board = Board("k1N5/2K5/8/8/8/8/8/8 b - - 0 1")
    assert board.is_stalemate() and not board.is_check()
    assert ended(board).result == "1/2-1/2" and ended(board).reason == "stalemate"
    assert ended(board).winner is None


def test_a_finished_game_accepts_no_further_move():
    board = play(Board("4k3/8/4K3/8/8/8/8/R7 w - - 0 1"), "a1a8")
    with pytest.raises(IllegalMoveError) as error:
        board.play(Move.from_uci("e8d8"))
    assert error.value.code == "game_over"


# --- FEN ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "fen",
    [
        STARTING_FEN,
        "rnsmksnr/8/1pM~1pppp/p7/8/PPPP1PPP/8/RNSKMSNR b - - 0 3",
        "8/8/3k4/8/8/2M~M~4/3SNN2/3K4 b - - 0 1",
        "m~m~m~m~m~m~m~k/8/8/8/8/8/8/KM~M~M~M~M~M~M~ w - - 17 42",
        "8/8/8/8/8/3KmN2/4R3/5k1s w - - 0 1",
    ],
)
def test_fen_round_trip(fen):
    assert Board(fen).fen() == fen


def test_bia_ngai_round_trip_and_is_told_from_the_met():
    board = Board("4k3/8/8/8/8/8/8/3KMM~2 w - - 0 1")
    assert _piece(board, parse_square("e1")).kind == PieceType.MET
    assert _piece(board, parse_square("f1")).kind == PieceType.BIA_NGAI
    assert "M~" in board.fen() and Piece.from_symbol("m~") == Piece(PieceType.BIA_NGAI, BLACK)
    assert Piece(PieceType.BIA_NGAI, WHITE).symbol() == "M~"


def test_short_fens_take_defaults():
    assert Board("4k3/8/8/8/8/8/8/4K3").fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert Board("4k3/8/8/8/8/8/8/4K3 b").fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1"


@pytest.mark.parametrize(
    "fsf_fen, ours",
    [
        ("8/8/8/8/8/3k4/8/1K1R4 b - 32 6 1", "8/8/8/8/8/3k4/8/1K1R4 b - - 0 1"),
        ("8/8/3k4/8/8/2M~M~4/3SNN2/3K4 b - 74 10 30", "8/8/3k4/8/8/2M~M~4/3SNN2/3K4 b - - 0 30"),
    ],
)
def test_fairy_stockfish_counting_fields_are_accepted_and_ignored(fsf_fen, ours):
    board = Board(fsf_fen)
    assert board.fen() == ours
    assert board.count is None  # counting here is declared by the players, never inherited


def test_move_numbers_advance_after_black():
    board = play(Board(), "e3e4")
    assert board.fen().endswith(" b - - 0 1")
    play(board, "e6e5")
    assert board.fen().endswith(" w - - 0 2")
    play(board, "b1d2")
    assert board.fen().endswith(" b - - 1 2")


INVALID = [
    ("", "empty"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKKSNR w - - 0 1", "exactly one Khun, found 2"),
    ("rnsm1snr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", "exactly one Khun, found 0"),
    ("3Pk3/8/8/8/8/8/8/4K3 w - - 0 1", "white Bia cannot stand on rank 8"),
    ("4k3/8/8/8/8/8/8/3pK3 w - - 0 1", "black Bia cannot stand on rank 1"),
    ("4k3/8/8/8/8/8/8/3BK3 w - - 0 1", "bad character 'B'"),
    ("4k3/8/8/8/8/8/8/3K~4 w - - 0 1", "bad character 'K~'"),
    ("4k3/8/8/8/8/8/8/~3K4 w - - 0 1", "bad character '~'"),
    ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", "covers 9 squares"),
    ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", "covers 7 squares"),
    ("4k3/8/8/8/8/8/8/4K12 w - - 0 1", "bad empty-square count"),
    ("4k3/8/8/8/8/8/8/04K3 w - - 0 1", "bad empty-square count"),
    ("4k3/8/8/8/8/8/4K3 w - - 0 1", "expected 8 rows"),
    ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", "expected 8 rows"),
    ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "capture the enemy Khun"),
    ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
    ("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", "no castling"),
    ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "no en passant"),
    ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "half-move clock"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 -1", "move number"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 7", "too many fields"),
]


@pytest.mark.parametrize("fen, says", INVALID)
def test_invalid_fens_name_the_problem(fen, says):
    with pytest.raises(InvalidFenError) as error:
        Board(fen)
    assert says in str(error.value)
    # The reasons a position cannot happen have codes of their own (a chat answers each in its language).
    expected = {"exactly one Khun": "fen_khuns", "Bia cannot stand": "fen_bia_rank",
                "capture the enemy Khun": "fen_check"}
    assert error.value.code == next((code for text, code in expected.items() if text in says), "invalid_fen")


def test_a_fen_must_be_text():
    with pytest.raises(InvalidFenError):
        Board(42)  # type: ignore[arg-type]



def _piece(board: Board, sq: int) -> Piece:
    """The piece on an occupied square."""
    piece = board.piece_at(sq)
    assert piece is not None, (board.fen(), sq)
    return piece
