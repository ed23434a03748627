"""RULES.md, Counting and Insufficient material: both counts and the dead-draw table."""

from __future__ import annotations

import pytest

from makruk import BLACK, WHITE, Board, IllegalMoveError, Move

from .support import ended, running_count

COUNT_37 = "8/8/3k4/8/8/2M~M~4/3SNN2/3K4 b - - 0 1"  # Khon, 2 Ma, 2 Bia Ngai vs bare Khun


def play(board: Board, *ucis: str) -> Board:
    for uci in ucis:
        board.play(Move.from_uci(uci))
    return board


def position(white: dict[str, str], black: dict[str, str], turn: str = "w") -> str:
    """A FEN from {square: letter} for each side (letters in upper case, Khuns included)."""
    cells = dict(white) | {sq: p.lower() for sq, p in black.items()}
    rows = []
    for rank in "87654321":
        row, empty = "", 0
        for file in "abcdefgh":
            piece = cells.get(file + rank)
            if piece is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + piece
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {turn} - - 0 1"


# --- pieces' honour ------------------------------------------------------------------------

@pytest.mark.parametrize(
    "pieces, base",
    [
        ("RR", 8), ("R", 16), ("RSN", 16), ("RRSSNN", 8),
        ("SS", 22), ("SSNN", 22), ("S", 44), ("SNN", 44), ("SM", 44),
        ("NN", 32), ("NNM", 32), ("N", 64), ("NMM~", 64),
        ("M", 64), ("M~", 64), ("MM~M~", 64),
    ],
)
def test_pieces_honour_limit_for_each_row(pieces, base):
    squares = ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]
    white = {"a3": "K"} | dict(zip(squares, _split(pieces), strict=False))
    board = Board(position(white, {"h8": "K"}, turn="b"))
    count = board.declare_count()
    on_board = len(white) + 1
    assert (count.kind, count.side, count.limit, count.done) == ("pieces", BLACK, base - on_board, 0)


def _split(pieces: str) -> list[str]:
    out: list[str] = []
    for ch in pieces:
        if ch == "~":
            out[-1] += "~"
        else:
            out.append(ch)
    return out


def test_pieces_honour_limit_is_counted_for_the_stronger_side_of_either_colour():
    board = Board(position({"h1": "K"}, {"a8": "K", "a1": "R"}, turn="w"))
    count = board.declare_count()
    assert (count.kind, count.side, count.limit) == ("pieces", WHITE, 16 - 3)


def test_the_37_move_example_draws_after_the_37th_move_without_mate():
    board = Board(COUNT_37)
    assert board.declare_count().limit == 44 - 7 == 37
    # The stronger side shuffles a Ma, the bare Khun shuffles; counting state keeps positions new.
    for n in range(1, 38):
        black = "d6e6" if n % 2 else "e6d6"
        white = "e2g3" if n % 2 else "g3e2"
        play(board, black)
        assert board.outcome() is None
        play(board, white)
        assert running_count(board).done == n
        if n < 37:
            assert board.outcome() is None, n
    assert ended(board).result == "1/2-1/2" and ended(board).reason == "counting"
    with pytest.raises(IllegalMoveError) as error:
        play(board, "d6d7")
    assert error.value.code == "game_over"


def test_the_37_move_example_mate_on_the_37th_move_wins():
    # Same material; the bare Khun shuttles g8-h8 and Khon f6-g7 mates when it stands on h8.
    board = Board("6k1/8/5S1K/8/M~M~6/8/8/N2N4 b - - 0 1")
    assert board.declare_count().limit == 37
    for n in range(1, 37):
        play(board, "g8h8" if n % 2 else "h8g8", "a1b3" if n % 2 else "b3a1")
    assert running_count(board).done == 36 and board.outcome() is None
    play(board, "g8h8", "f6g7")
    assert running_count(board).done == 37
    assert ended(board).result == "1-0" and ended(board).reason == "checkmate"


def test_the_limit_is_fixed_at_declaration_and_captures_do_not_change_it():
    board = Board(position({"a1": "K", "d1": "R", "c5": "M~"}, {"d6": "K"}, turn="b"))
    assert board.declare_count().limit == 16 - 4
    play(board, "d6c5")  # the bare Khun takes the Bia Ngai: 3 pieces now, the limit stays 12
    assert running_count(board).limit == 12 and running_count(board).done == 0
    play(board, "d1d2")
    assert running_count(board).done == 1 and running_count(board).limit == 12


@pytest.mark.parametrize(
    "white, limit",
    [
        ({"a1": "K", "b1": "R", "c1": "R", "d1": "S", "e1": "N", "f1": "N", "g1": "M"}, 0),
        ({"a1": "K", "b1": "R", "c1": "R", "d1": "S", "e1": "N", "f1": "N", "g1": "M", "a2": "M~"}, -1),
    ],
)
def test_a_limit_of_zero_or_less_draws_as_soon_as_the_count_is_declared(white, limit):
    board = Board(position(white, {"h8": "K"}, turn="b"))
    on_board = len(white) + 1
    assert board.outcome() is None
    count = board.declare_count()
    assert count.limit == 8 - on_board == limit
    assert ended(board).reason == "counting" and ended(board).result == "1/2-1/2"


def test_only_the_bare_side_may_declare_the_pieces_honour():
    board = Board(COUNT_37.replace(" b ", " w "))
    assert board.can_declare_count() is None
    with pytest.raises(IllegalMoveError) as error:
        board.declare_count()
    assert error.value.code == "count_not_allowed"


def test_no_count_while_an_unpromoted_bia_stands():
    # Either colour's Bia blocks both counts.
    assert Board(position({"a1": "K", "b1": "R", "c3": "P"}, {"h8": "K"}, turn="b")).can_declare_count() is None
    assert Board(position({"a1": "K", "b1": "R"}, {"h8": "K", "c6": "P"}, turn="b")).can_declare_count() is None
    assert Board(position({"a1": "K", "b1": "R", "c3": "P"}, {"h8": "K", "a8": "N"})).can_declare_count() is None
    # Once it has promoted, counting applies.
    board = Board(position({"a1": "K", "b1": "R", "c5": "P"}, {"h8": "K"}))
    play(board, "c5c6m")
    assert board.can_declare_count() == "pieces"


def test_a_count_cannot_be_declared_twice():
    board = Board(COUNT_37)
    board.declare_count()
    with pytest.raises(IllegalMoveError) as error:
        board.declare_count()
    assert error.value.code == "count_not_allowed"


# --- board's honour ------------------------------------------------------------------------

BOTH_ARMED = position({"a1": "K", "h1": "N"}, {"h8": "K", "a8": "N"})


def test_boards_honour_gives_the_opponent_64_moves():
    board = Board(BOTH_ARMED)
    assert board.can_declare_count() == "board"
    count = board.declare_count()
    assert (count.kind, count.side, count.limit, count.done) == ("board", WHITE, 64, 0)
    for n in range(1, 65):
        play(board, "a1a2" if n % 2 else "a2a1")
        assert running_count(board).done == n - 1  # the declaring side's own moves are not counted
        play(board, "a8b6" if n % 2 else "b6a8")
        assert running_count(board).done == n
        assert (board.outcome() is None) == (n < 64), n
    assert ended(board).reason == "counting"


def test_boards_honour_a_checkmate_wins_whoever_counts():
    # White declares and then mates: the declaring side's mate wins too.
    board = Board(position({"b6": "K", "h1": "R", "e2": "N"}, {"a8": "K", "e5": "N"}))
    board.declare_count()
    play(board, "h1h8")
    assert ended(board).reason == "checkmate" and ended(board).result == "1-0"


def test_boards_honour_ends_when_a_side_is_bare_and_the_bare_side_may_then_declare():
    board = Board(position({"a1": "K", "d1": "R"}, {"h8": "K", "d5": "N"}, turn="b"))
    assert board.declare_count().kind == "board"
    play(board, "h8g8", "d1d5")  # White takes the last black piece
    assert board.count is None
    assert board.can_declare_count() == "pieces"
    count = board.declare_count()
    assert (count.kind, count.side, count.limit) == ("pieces", BLACK, 16 - 3)


def test_boards_honour_ends_when_the_declaring_side_takes_the_last_enemy_piece():
    board = Board(position({"a1": "K", "d1": "R"}, {"h8": "K", "d5": "N"}))
    assert board.declare_count().side == WHITE
    play(board, "d1d5")
    assert board.count is None
    assert board.declare_count().side == BLACK


# --- stopping the count -----------------------------------------------------------------------

def test_only_the_declaring_side_may_stop_its_count_on_its_turn():
    board = Board(COUNT_37)
    assert not board.can_stop_count()
    board.declare_count()
    assert board.can_stop_count()
    play(board, "d6e6")
    assert not board.can_stop_count()  # White's turn: White never declared
    with pytest.raises(IllegalMoveError) as error:
        board.stop_count()
    assert error.value.code == "no_count"
    play(board, "d1e1")
    board.stop_count()
    assert board.count is None


def test_a_later_declaration_starts_from_zero():
    board = Board(COUNT_37)
    board.declare_count()
    play(board, "d6e6", "e2g3", "e6d6", "g3e2")
    assert running_count(board).done == 2
    board.stop_count()
    count = board.declare_count()
    assert (count.done, count.limit) == (0, 37)


def test_taking_a_move_back_restores_the_count():
    board = Board(COUNT_37)
    board.declare_count()
    play(board, "d6e6", "e2g3")
    assert running_count(board).done == 1
    board.pop()
    assert running_count(board).done == 0


# --- insufficient material ---------------------------------------------------------------------

# Each row of the table: stronger side's pieces, weaker side's pieces, drawn?
# "Bia" is Bia Ngai (M~); squares are chosen so that "connected"/"separate" mean what they say.
MATERIAL = [
    # 2 connected Bia + 1 separate Bia vs 1 Bia
    ({"c3": "M~", "d4": "M~", "g6": "M~"}, {"a7": "M~"}, True),
    ({"c3": "M~", "d4": "M~", "e5": "M~"}, {"a7": "M~"}, False),  # 3 connected
    ({"b2": "M~", "d4": "M~", "f2": "M~"}, {"a7": "M~"}, False),  # 3 separate
    ({"c3": "M~", "d4": "M~", "g6": "M~"}, {"a7": "M~", "b6": "M~"}, False),  # vs 2 Bia
    ({"c3": "M~", "d4": "M~"}, {"a7": "M~"}, False),  # 2 Bia are not in the table
    # Ma + Khon + Bia vs 2 Bia
    ({"c3": "N", "d3": "S", "e3": "M~"}, {"a7": "M~", "b6": "M~"}, True),
    ({"c3": "N", "d3": "S", "e3": "M~"}, {"a7": "M~"}, False),
    ({"c3": "N", "d3": "S", "e3": "M~", "f3": "M~"}, {"a7": "M~", "b6": "M~"}, False),
    # 1 Rua vs 3 Bia, or (Ma or Khon) + 1 Bia
    ({"c3": "R"}, {"a7": "M~", "b6": "M~", "c5": "M~"}, True),
    ({"c3": "R"}, {"a7": "N", "b6": "M~"}, True),
    ({"c3": "R"}, {"a7": "S", "b6": "M~"}, True),
    ({"c3": "R"}, {"a7": "M~", "b6": "M~"}, False),
    ({"c3": "R"}, {"a7": "N", "b6": "S"}, False),
    ({"c3": "R"}, {"a7": "N", "b6": "S", "c5": "M~"}, False),
    # Khon + Ma vs 1 Khon, or 1 Ma
    ({"c3": "S", "d3": "N"}, {"a7": "S"}, True),
    ({"c3": "S", "d3": "N"}, {"a7": "N"}, True),
    ({"c3": "S", "d3": "N"}, {}, False),
    ({"c3": "S", "d3": "S"}, {"a7": "N"}, False),
    # Rua + Bia vs 1 Rua
    ({"c3": "R", "d3": "M~"}, {"a7": "R"}, True),
    ({"c3": "R", "d3": "M~", "e3": "M~"}, {"a7": "R"}, False),
    ({"c3": "R", "d3": "M~"}, {"a7": "R", "b7": "M~"}, False),
    # (Khon or Ma) + 2 Bia vs 1 Rua
    ({"c3": "S", "d3": "M~", "e3": "M~"}, {"a7": "R"}, True),
    ({"c3": "N", "d3": "M~", "e3": "M~"}, {"a7": "R"}, True),
    ({"c3": "S", "d3": "M~", "e4": "M~", "f3": "M~"}, {"a7": "R"}, False),
    ({"c3": "S", "d3": "N", "e3": "M~"}, {"a7": "R"}, False),
    # (Khon or Ma) + 3 Bia vs Rua + Bia
    ({"c3": "S", "d3": "M~", "e3": "M~", "f3": "M~"}, {"a7": "R", "b7": "M~"}, True),
    ({"c3": "N", "d3": "M~", "e3": "M~", "f3": "M~"}, {"a7": "R", "b7": "M~"}, True),
    ({"c3": "N", "d3": "M~", "e3": "M~", "f3": "M~"}, {"a7": "R", "b7": "M~", "c7": "M~"}, False),
    ({"c3": "N", "d3": "M~", "e3": "M~", "f3": "M~"}, {"a7": "R"}, False),
    # Rua + (Khon or Ma) vs 1 Rua
    ({"c3": "R", "d3": "S"}, {"a7": "R"}, True),
    ({"c3": "R", "d3": "N"}, {"a7": "R"}, True),
    ({"c3": "R", "d3": "N", "e3": "S"}, {"a7": "R"}, False),
    ({"c3": "R", "d3": "N"}, {"a7": "R", "b7": "M~"}, False),
    # 4 connected Bia vs Rua + Bia
    ({"c3": "M~", "d4": "M~", "e3": "M~", "f4": "M~"}, {"a7": "R", "b7": "M~"}, True),
    ({"c3": "M~", "d3": "M~", "c4": "M~", "d4": "M~"}, {"a7": "R", "b7": "M~"}, True),
    ({"c3": "M~", "d4": "M~", "g3": "M~", "h4": "M~"}, {"a7": "R", "b7": "M~"}, False),  # 2 groups
    ({"b2": "M~", "d4": "M~", "f6": "M~", "h2": "M~"}, {"a7": "R", "b7": "M~"}, False),  # none touch
    ({"c3": "M~", "d4": "M~", "e3": "M~", "f4": "M~"}, {"a7": "R"}, False),
    # 2 Rua vs Rua + (Khon or Ma)
    ({"c3": "R", "d3": "R"}, {"a7": "R", "b7": "S"}, True),
    ({"c3": "R", "d3": "R"}, {"a7": "R", "b7": "N"}, True),
    ({"c3": "R", "d3": "R"}, {"a7": "R"}, False),
    ({"c3": "R", "d3": "R"}, {"a7": "R", "b7": "M~"}, False),
    ({"c3": "R", "d3": "R", "e3": "M~"}, {"a7": "R", "b7": "N"}, False),
]


@pytest.mark.parametrize("strong, weak, drawn", MATERIAL)
@pytest.mark.parametrize("strong_colour", ["w", "b"])
def test_material_table(strong, weak, drawn, strong_colour):
    white, black = ({"h1": "K"} | strong, {"h8": "K"} | weak)
    if strong_colour == "b":  # mirror the board so that Black is the stronger side
        white, black = (
            {_mirror(sq): p for sq, p in black.items()},
            {_mirror(sq): p for sq, p in white.items()},
        )
    board = Board(position(white, black))
    outcome = board.outcome()
    if drawn:
        assert outcome is not None and (outcome.result, outcome.reason) == ("1/2-1/2", "material")
    else:
        assert outcome is None or outcome.reason != "material"


def _mirror(sq: str) -> str:
    return sq[0] + str(9 - int(sq[1]))


def test_bare_khun_against_bare_khun_is_always_a_draw():
    for fen in ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "k7/8/8/8/8/8/8/7K b - - 0 1"):
        assert ended(Board(fen)).reason == "material"


def test_a_capture_that_leaves_bare_khuns_ends_the_game():
    board = play(Board("4k3/8/8/8/8/8/3r4/3K4 w - - 0 1"), "d1d2")
    assert ended(board).reason == "material"
    with pytest.raises(IllegalMoveError) as error:
        play(board, "e8e7")
    assert error.value.code == "game_over"


def test_the_material_table_ignores_positions_with_an_unpromoted_bia():
    # Rua vs Ma + Bia would be a dead draw with a Bia Ngai; with a plain Bia it is not.
    assert ended(Board(position({"h1": "K", "c3": "R"}, {"h8": "K", "a7": "N", "b7": "M~"}))).reason == "material"
    assert Board(position({"h1": "K", "c3": "R"}, {"h8": "K", "a7": "N", "b7": "P"})).outcome() is None


def test_the_material_draw_still_lists_legal_moves():
    # Legal moves never depend on draws (RULES.md): only the outcome ends the game.
    board = Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert len(board.legal_moves()) == 5 and board.is_game_over()
