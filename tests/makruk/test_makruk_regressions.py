"""Bugs found in makruk/ while proving it; each test failed before its fix."""

import pytest

from makruk import Board, IllegalMoveError, InvalidFenError, InvalidMoveError, Move


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/3K\u00b2 w - - 0 1",  # superscript two: str.isdigit() but not int()-able
        "4k3/8/8/8/8/8/8/3K\u0664 w - - 0 1",  # Arabic-Indic four: int() reads it as 4
        "4k3/8/8/8/8/8/8/4K3 w - - \u00b2 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 \u0663",
    ],
)
def test_fen_numbers_are_ascii_digits_only(fen):
    with pytest.raises(InvalidFenError):
        Board(fen)


@pytest.mark.parametrize(
    "uci, thai",
    [("g5f6", "ม็ช-ฉ๖"), ("e7f6", "งจ-ฉ๖"), ("e7f8", "ง-ฉ๘"), ("g5h6", "ม็-ญ๖")],
)
def test_thai_san_disambiguates_met_and_bia_ngai_like_fairy_stockfish(uci, thai):
    # Fairy-Stockfish's Bia Ngai is a Met: the two are rivals for a square even though the
    # Thai letters (ม็, ง) differ. Expected strings are pyffish.get_san(..., NOTATION_THAI_SAN).
    board = Board("8/4M~K2/8/6M1/8/8/2k5/8 w - - 8 79")
    move = board.parse_move(uci)
    assert board.thai_san(move) == thai
    assert board.parse_move(thai) == move


@pytest.mark.parametrize("uci, code", [("e4e5", "no_piece"), ("e6e5", "not_your_piece")])
def test_every_illegal_move_message_names_the_move(uci, code):
    # In a list of moves (CLI `legal FEN e3e4 e4e5 ...`) "no piece on e4" did not say which move.
    with pytest.raises(IllegalMoveError) as error:
        Board().play(Move.from_uci(uci))
    assert error.value.code == code
    assert str(error.value).startswith(f"{uci}: ")


@pytest.mark.parametrize("text", ["e3e3", "Ne3e3", "จ๓จ๓", "ม จ๓-จ๓"])
def test_a_move_from_a_square_to_itself_is_not_a_move(text):
    # It read as the null move and failed as "0000: you cannot capture your own piece".
    with pytest.raises(InvalidMoveError):
        Board().parse_move(text)


@pytest.mark.parametrize(
    "text, code",
    [("Ra4", "blocked"), ("ร-ก๔", "blocked"), ("Ra3", "own_piece"), ("Nc3", "own_piece")],
)
def test_san_errors_name_the_blocked_way_or_own_piece(text, code):
    # Blocked moves and moves onto own pieces are not pseudo-legal, so SAN input only got
    # "no legal move matches", while the same move in coordinates got the reason.
    with pytest.raises(IllegalMoveError) as error:
        Board().parse_move(text)
    assert error.value.code == code
