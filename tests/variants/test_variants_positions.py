"""The rules random games seldom reach, position by position (FSF_FINDINGS: what pyffish 0.0.90
does, probed). In every case our board must agree with pyffish (legal moves, check, the shared
FEN fields) and with the rule as written here; the written expectation keeps the case honest
should pyffish ever change.

Where our rules deliberately differ (RULES.md), only what is shared is compared: our counts in
makpong and cambodian are declared and, like ASEAN's and Sittuyin's automatic ones, end the game
when the stronger side's last move is not mate, one ply before pyffish lets the draw be claimed.
"""

from __future__ import annotations

import random

import pyffish
import pytest

from makruk import VARIANTS, AmbiguousMoveError, Board, Move, board_class

from .support import (
    agree,
    fsf_claimable,
    fsf_count,
    fsf_fen,
    fsf_legal,
    fsf_san,
    fsf_sans,
    legal,
)

# --- start positions ------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["makpong", "cambodian", "asean", "sittuyin"])
def test_start_position_is_pyffish_s(variant):
    board = agree(variant, pyffish.start_fen(variant))
    assert board.fen() == fsf_fen(variant, pyffish.start_fen(variant))
    assert Board(variant=variant).fen() == board.fen() and board.variant == variant


def test_every_board_class_that_names_a_variant_is_listed_and_made_by_its_name():
    def family(cls: type[Board]) -> list[type[Board]]:
        return [cls, *(member for sub in cls.__subclasses__() for member in family(sub))]

    named = {cls.variant: cls for cls in family(Board) if "variant" in vars(cls)}
    assert set(named) == set(VARIANTS)
    assert all(type(Board(variant=name)) is cls and board_class(name) is cls for name, cls in named.items())


def test_asean_start_khuns_on_e1_and_e8():
    board = agree("asean", "rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1")
    assert [board.king(True), board.king(False)] == [4, 60]


# --- Makpong: a Khun in check may only capture the checker ------------------------------------

@pytest.mark.parametrize(
    "fen, makpong, makruk",
    [
        pytest.param("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", [], ["e1d2", "e1e2", "e1f2"], id="distant-rua-mates"),
        pytest.param("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", ["e1e2"], ["e1d1", "e1e2", "e1f1"], id="take-the-rua"),
        pytest.param("4k3/8/8/8/8/8/4r3/4K2r w - - 0 1", [], ["e1e2"], id="two-ruas-check-no-capture"),
        pytest.param("4k3/8/8/8/8/3m4/4r3/4K3 w - - 0 1", [], ["e1d1", "e1f1"], id="protected-checker-mates"),
        pytest.param("4k3/8/8/8/8/8/1R6/r3K3 w - - 0 1", ["b2b1"], ["b2b1", "e1d2", "e1e2", "e1f2"], id="block"),
        pytest.param("4k3/8/8/8/8/8/R7/r3K3 w - - 0 1", ["a2a1"], ["a2a1", "e1d2", "e1e2", "e1f2"], id="other-takes"),
        pytest.param("4k3/8/8/8/8/3n4/4r3/4K3 w - - 0 1", [], ["e1d1", "e1e2", "e1f1"], id="double-check"),
        pytest.param("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1", [], ["e1d1", "e1d2", "e1e2", "e1f1"], id="ma-mates"),
        pytest.param("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", ["e1d2"], ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"],
                     id="take-the-bia"),
        pytest.param("4k3/8/8/8/8/8/3m4/4K3 w - - 0 1", ["e1d2"], ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"],
                     id="take-the-met"),
    ],
)
def test_makpong_khun_in_check(fen, makpong, makruk):
    board = agree("makpong", fen)
    assert legal(board) == makpong
    assert legal(agree("makruk", fen)) == makruk
    if not makpong:
        outcome = board.outcome()
        assert outcome is not None and outcome.reason == "checkmate" and outcome.result == "0-1"


def test_makpong_khun_not_in_check_moves_freely():
    board = agree("makpong", "4k3/8/8/8/8/8/r7/R3K3 w - - 0 1")
    assert legal(board) == ["a1a2", "a1b1", "a1c1", "a1d1", "e1d1", "e1f1"]


# --- Ouk Chatrang: the Khun's leap and the Neang's double step -----------------------------------

START_OUK = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"


def test_ouk_start_leaps_for_both_sides():
    board = agree("cambodian", START_OUK)
    assert {"d1b2", "d1f2"} <= set(legal(board)) and len(legal(board)) == 25
    assert {"e8c7", "e8g7"} <= set(legal(agree("cambodian", START_OUK, ["a3a4"])))
    assert agree("cambodian", START_OUK, ["d1b2"]).fen().split()[2] == "Ede"


@pytest.mark.parametrize(
    "fen, moves, present, absent",
    [
        pytest.param("4k3/8/8/8/8/8/8/3K4 w D - 0 1", [], ["d1b2", "d1f2"], [], id="leap"),
        pytest.param("4k3/8/8/8/8/8/8/3K4 w - - 0 1", [], [], ["d1b2", "d1f2"], id="no-flag-no-leap"),
        pytest.param("4k3/8/8/8/8/8/1p3p2/3K4 w D - 0 1", [], [], ["d1b2", "d1f2"], id="leap-never-captures"),
        pytest.param("4k3/8/8/8/8/8/1P3P2/3K4 w D - 0 1", [], [], ["d1b2", "d1f2"], id="leap-onto-own-piece"),
        pytest.param("8/8/8/8/8/1k6/8/3K4 w D - 0 1", [], ["d1f2"], ["d1b2"], id="not-into-check"),
        pytest.param("4k3/8/8/8/6n1/8/8/3K4 b D - 0 1", ["g4e3"], [], ["d1b2", "d1f2"], id="not-in-check"),
        pytest.param("4k3/8/8/8/6n1/8/4R3/3K4 b D - 0 1", ["g4e3", "e2e3", "e8d8"], ["d1b2", "d1f2"], [],
                     id="check-by-a-ma-keeps-the-flag"),
        pytest.param("4k3/8/8/8/8/8/8/3K4 b e - 0 1", [], ["e8c7", "e8g7"], [], id="black-leap"),
        pytest.param("4k3/8/8/8/8/8/4P3/3KM3 w DE - 0 1", [], ["e1e3"], [], id="neang-jumps"),
        pytest.param("4k3/8/8/8/8/4p3/8/3KM3 w DE - 0 1", [], [], ["e1e3"], id="neang-never-captures"),
        pytest.param("4k3/8/8/8/8/r6K/8/4M3 w E - 0 1", [], ["e1e3"], [], id="neang-blocks-a-check"),
        pytest.param("3m4/8/8/8/8/8/8/3K3k b d - 0 1", [], ["d8d6"], [], id="black-neang"),
        pytest.param("3rk3/8/8/8/8/8/3P4/3K4 w D - 0 1", [], ["d1b2", "d1f2"], [], id="rua-on-the-file-in-the-fen"),
        pytest.param("4k3/8/8/8/8/8/8/r1SK4 w D - 0 1", [], ["d1b2", "d1f2"], [], id="rua-on-the-rank-in-the-fen"),
    ],
)
def test_ouk_leaps(fen, moves, present, absent):
    moves_now = set(legal(agree("cambodian", fen, moves)))
    assert set(present) <= moves_now and not set(absent) & moves_now, sorted(moves_now)


def test_ouk_khun_in_check_keeps_only_ordinary_moves():
    board = agree("cambodian", "4k3/8/8/8/6n1/8/8/3K4 b D - 0 1", ["g4e3"])
    assert legal(board) == ["d1c1", "d1d2", "d1e1", "d1e2"] and board.fen().split()[2] == "D"


@pytest.mark.parametrize(
    "fen, moves, flags",
    [
        pytest.param(START_OUK, ["d1b2"], "Ede", id="khun-leaps"),
        pytest.param("4k3/8/8/8/8/8/8/3KM3 w DE - 0 1", ["e1f2", "e8e7", "f2e1", "e7e8"], "D", id="neang-comes-back"),
        pytest.param("4k3/8/8/8/8/8/8/3KM3 w DE - 0 1", ["d1c1", "e8e7", "c1d1", "e7e8"], "E", id="khun-comes-back"),
        pytest.param("4k3/8/8/8/8/8/5s2/3KM3 b DE - 0 1", ["f2e1"], "D", id="neang-captured"),
        pytest.param("r3k3/8/8/8/8/8/3P4/3K4 b D - 0 1", ["a8d8"], "-", id="rua-onto-the-file-behind-a-bia"),
        pytest.param("4k3/8/8/8/8/8/8/r1SK4 b D - 0 1", ["a1b1"], "-", id="rua-onto-the-rank-behind-a-khon"),
        pytest.param("3rk3/8/8/8/8/8/3P4/3K4 b D - 0 1", ["d8d7"], "-", id="rua-along-the-file"),
        pytest.param("3rk3/8/8/8/8/8/3P4/3K4 b D - 0 1", ["d8c8"], "D", id="rua-leaves-the-file"),
        pytest.param("4k3/8/8/8/8/8/8/3KM2r b DE - 0 1", ["h1g1"], "E", id="rua-behind-the-neang"),
        pytest.param("4k3/r7/8/8/8/8/8/3KM3 b DE - 0 1", ["a7e7"], "DE", id="rua-on-the-neang-s-file"),
        pytest.param("4k3/8/8/r2P4/8/8/8/3K4 b D - 0 1", ["a5d5"], "-", id="rua-captures-onto-the-file"),
        pytest.param("3rk3/3n4/8/8/8/8/8/3K4 b D - 0 1", ["d7b6"], "D", id="discovered-rua-keeps-it"),
        pytest.param("4k3/8/8/8/8/8/8/R2K4 w D - 0 1", ["a1a2", "e8e7", "a2d2", "e7e8"], "D", id="own-rua"),
        pytest.param("4k3/8/8/8/8/8/8/3K2n1 b D - 0 1", ["g1e2"], "D", id="enemy-ma"),
        pytest.param("4k3/8/8/8/8/8/8/3KM3 w eDdE - 0 1", [], "DEe", id="flags-written-in-order"),
        pytest.param("8/8/8/8/8/8/8/3KM2k w DEde - 0 1", [], "DE", id="flag-of-an-empty-square-dropped"),
    ],
)
def test_ouk_flags(fen, moves, flags):
    assert agree("cambodian", fen, moves).fen().split()[2] == flags


@pytest.mark.parametrize(
    "fen, uci, san, thai",
    [
        (START_OUK, "d1b2", "Kb2", "ข-ข๒"),
        (START_OUK, "d1f2", "Kf2", "ข-ฉ๒"),
        ("4k3/8/8/8/8/8/8/3KM3 w DE - 0 1", "e1e3", "Me3", "ม็-จ๓"),
    ],
)
def test_ouk_leap_notation(fen, uci, san, thai):
    board = agree("cambodian", fen)
    move = Move.from_uci(uci)
    assert (board.san(move), board.thai_san(move)) == (san, thai)
    assert (fsf_san("cambodian", fen, uci), fsf_san("cambodian", fen, uci, thai=True)) == (san, thai)
    assert board.parse_move(san) == move and board.parse_move(uci) == move


def test_ouk_san_tells_the_neang_s_double_step_from_a_met_step_unlike_fairy_stockfish():
    """A deliberate difference: Fairy-Stockfish tells apart only pieces whose ordinary move
    reaches the square, so with a Met on d2 and the unmoved Neang on e1 it writes both d2e3 and
    e1e3 ``Me3``, which no reader can tell apart. We write ``Mde3`` and ``Mee3``, and read back
    each, and Fairy-Stockfish's ``Me3`` is refused as ambiguous rather than guessed."""
    fen = "4k3/8/8/8/8/8/3M4/3KM3 w DE - 0 1"
    board = agree("cambodian", fen)
    for uci, ours in (("d2e3", "Mde3"), ("e1e3", "Mee3")):
        move = Move.from_uci(uci)
        assert fsf_san("cambodian", fen, uci) == "Me3"
        assert board.san(move) == ours and board.parse_move(ours) == move
    with pytest.raises(AmbiguousMoveError):
        board.parse_move("Me3")


# --- counting: declared (makpong, cambodian) and automatic (asean, sittuyin) ---------------------

def _bare_khun_after_a_move(variant: str, pieces: str) -> tuple[str, list[str]]:
    """White: Khun h1 and ``pieces`` on rank 4 (from a4); Black: a bare Khun e8, to move after
    White's Khun steps to h2 (pyffish's counts start after a move)."""
    row = pieces + (str(8 - len(pieces)) if len(pieces) < 8 else "")
    fen = f"4k3/8/8/8/{row}/8/8/7K{'[]' if variant == 'sittuyin' else ''} w - - 0 1"
    return fen, ["h1h2"]


def _quiet(board: Board, depth: int) -> list[Move]:
    """The moves that neither capture nor end the game and, ``depth`` plies on, leave the other
    side such a move too (so the bare Khun is never forced to take a piece)."""
    found = []
    for move in board.legal_moves():
        if board.piece_at(move.to_square) is not None and move.from_square != move.to_square:
            continue
        board.push(move)
        ok = bool(board.legal_moves()) and (depth == 0 or bool(_quiet(board, depth - 1)))
        board.pop()
        if ok:
            found.append(move)
    return found


def _shuffle(rng: random.Random, board: Board, seen: set[str]) -> Move | None:
    """A quiet move (``_quiet``), to a position not seen before if there is one (so that no
    repetition interferes); None if there is no quiet move."""
    moves = _quiet(board, 1)
    rng.shuffle(moves)
    fallback = None
    for move in moves:
        board.push(move)
        key = " ".join(board.fen().split()[:2])
        board.pop()
        if key not in seen:
            seen.add(key)
            return move
        fallback = fallback or move
    return fallback


def _play_out_the_count(variant: str, pieces: str, declare: bool, seed: int) -> tuple[Board, str, list[str]]:
    fen, moves = _bare_khun_after_a_move(variant, pieces)
    board = Board(fen, variant=variant)
    for uci in moves:
        board.play(Move.from_uci(uci))
    if declare:
        board.declare_count()
    rng, seen = random.Random(seed), set[str]()
    while board.outcome() is None:
        move = _shuffle(rng, board, seen)
        assert move is not None, f"{fen} {moves}: no quiet move"
        board.play(move)
        moves.append(move.uci())
    return board, fen, moves


@pytest.mark.parametrize(
    "variant, pieces, limit",
    [
        # Makruk's pieces' honour (RULES.md): the base less all pieces on the board (here 2 Khuns + pieces).
        ("makpong", "R", 16 - 3), ("makpong", "RR", 8 - 4), ("makpong", "SS", 22 - 4), ("makpong", "NN", 32 - 4),
        ("makpong", "S", 44 - 3),
        # Ouk Chatrang: one less than Makruk's: 15, 7, 21, 31, 43, 63.
        ("cambodian", "R", 15 - 3), ("cambodian", "RR", 7 - 4), ("cambodian", "SS", 21 - 4),
        ("cambodian", "NN", 31 - 4), ("cambodian", "S", 43 - 3), ("cambodian", "N", 63 - 3),
    ],
)
def test_declared_pieces_honour_ends_one_ply_before_pyffish_s_claim(variant, pieces, limit):
    board, fen, moves = _play_out_the_count(variant, pieces, declare=True, seed=len(pieces) + limit)
    assert board.count is not None and board.count.limit == limit
    outcome = board.outcome()
    assert outcome is not None and outcome.reason == "counting" and outcome.result == "1/2-1/2"
    theirs = fsf_count(fsf_fen(variant, fen, moves))
    assert theirs is not None and theirs[1] == theirs[0], (fen, moves, theirs)  # pyffish: at its limit
    assert not fsf_claimable(variant, fen, moves)
    one_more = sorted(fsf_legal(variant, fen, moves))[0]
    assert fsf_claimable(variant, fen, [*moves, one_more])


@pytest.mark.parametrize(
    "variant, fen, limit",
    [
        ("makpong", "4k3/8/8/8/r7/8/8/R6K b - - 0 1", 64),  # Makruk's board's honour: 64 moves
        ("cambodian", "4k3/8/8/8/r7/8/8/R6K b - - 0 1", 63),  # Ouk's: 63, for a side of 3 pieces or fewer
        ("cambodian", "4k3/8/8/8/r7/8/8/RR5K b - - 0 1", 63),
    ],
)
def test_declared_board_s_honour_ends_one_ply_before_pyffish_s_claim(variant, fen, limit):
    """pyffish runs this count by itself from the first move on (128 and 126 plies); declared at
    the same moment, ours ends the game one ply before pyffish lets the draw be claimed."""
    board = Board(fen, variant=variant)
    moves = ["e8d8"]
    board.play(Move.from_uci(moves[0]))
    assert board.can_declare_count() == "board"
    board.declare_count()
    assert board.count is not None and board.count.limit == limit
    rng, seen = random.Random(limit), set[str]()
    while board.outcome() is None:
        move = _shuffle(rng, board, seen)
        assert move is not None
        board.play(move)
        moves.append(move.uci())
    outcome = board.outcome()
    assert outcome is not None and outcome.reason == "counting" and len(moves) == 1 + 2 * limit
    assert fsf_count(fsf_fen(variant, fen, moves)) == (2 * limit, 2 * limit)
    assert not fsf_claimable(variant, fen, moves)
    assert fsf_claimable(variant, fen, [*moves, sorted(fsf_legal(variant, fen, moves))[0]])


def test_ouk_board_s_honour_only_for_a_side_of_three_pieces_or_fewer():
    board = Board("4k3/8/8/8/r7/8/8/RNS4K w - - 0 1", variant="cambodian")
    assert board.can_declare_count() is None
    assert Board("4k3/8/8/8/r7/8/8/RNS4K w - - 0 1").can_declare_count() == "board"  # Makruk: any side


@pytest.mark.parametrize(
    "variant, pieces, limit",
    [
        ("asean", "R", 16), ("asean", "RR", 16), ("asean", "RN", 16), ("asean", "B", 44), ("asean", "BQ", 44),
        ("asean", "N", 64), ("asean", "NQ", 64), ("asean", "BNN", 44),
        ("sittuyin", "R", 16), ("sittuyin", "S", 44), ("sittuyin", "N", 64), ("sittuyin", "RF", 16),
    ],
)
def test_automatic_count_ends_one_ply_before_pyffish_s_claim(variant, pieces, limit):
    fen, moves = _bare_khun_after_a_move(variant, pieces)
    board = agree(variant, fen, moves)
    assert board.count is not None and board.count.limit == limit
    assert fsf_count(fsf_fen(variant, fen, moves)) == (2 * limit, 0)
    if limit > 16:
        return  # the long counts: the limit is what matters, 16 moves are played out below
    board, fen, moves = _play_out_the_count(variant, pieces, declare=False, seed=limit)
    outcome = board.outcome()
    assert outcome is not None and outcome.reason == "counting"
    assert fsf_count(fsf_fen(variant, fen, moves)) == (2 * limit, 2 * limit)
    assert not fsf_claimable(variant, fen, moves)
    assert fsf_claimable(variant, fen, [*moves, sorted(fsf_legal(variant, fen, moves))[0]])


@pytest.mark.parametrize(
    "variant, fen",
    [
        ("asean", "4k3/8/8/8/Q7/8/8/7K w - - 0 1"),  # a Met alone: no count
        ("asean", "4k3/8/8/8/QQ6/8/8/7K w - - 0 1"),
        ("sittuyin", "4k3/8/8/8/F7/8/8/7K[] w - - 0 1"),
        ("asean", "4k3/8/8/8/R7/3P4/8/7K w - - 0 1"),  # a Bia on the board: no count
        ("asean", "4k2n/8/8/8/R7/8/8/7K w - - 0 1"),  # nobody bare: no count (no board's honour)
        ("sittuyin", "4k3/8/8/8/R7/3P4/8/7K[] w - - 0 1"),
    ],
)
def test_no_automatic_count(variant, fen):
    board = agree(variant, fen, ["h1h2"])
    assert board.count is None and fsf_count(fsf_fen(variant, fen, ["h1h2"])) is None


@pytest.mark.parametrize("variant", ["asean", "sittuyin"])
def test_nobody_declares_in_asean_and_sittuyin(variant):
    fen, moves = _bare_khun_after_a_move(variant, "N")
    board = agree(variant, fen, moves)
    assert not board.can_declare_count()
    with pytest.raises(ValueError):
        board.declare_count()


# --- the 50-move rule ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "variant, fen",
    [
        ("asean", "4k3/8/4p3/8/4P3/8/8/R3K3 w - - 99 60"),
        ("sittuyin", "4k3/8/4p3/8/4P3/8/8/R3K3[] w - - 99 60"),
    ],
)
def test_fifty_move_rule(variant, fen):
    assert agree(variant, fen).outcome() is None and not fsf_claimable(variant, fen)
    board = agree(variant, fen, ["a1a2"])
    outcome = board.outcome()
    assert outcome is not None and outcome.reason == "fifty_moves" and outcome.result == "1/2-1/2"
    assert fsf_claimable(variant, fen, ["a1a2"])
    assert agree(variant, fen, ["e4e5"]).outcome() is None  # a Bia move resets the clock


@pytest.mark.parametrize("variant", ["makpong", "cambodian"])
def test_no_fifty_move_rule(variant):
    fen = "4k3/8/4p3/8/8/4P3/8/R3K3 w - - 200 60"
    assert agree(variant, fen, ["a1a2"]).outcome() is None and not fsf_claimable(variant, fen, ["a1a2"])


def test_fifty_move_clock_runs_on_during_a_count():
    fen = "4k3/8/8/8/8/8/8/N3K3 b - - 90 1"  # ASEAN, Ma: a count of 64 moves, but 50 moves end it first
    board = Board(fen, variant="asean")
    rng, seen = random.Random(5), set[str]()
    moves: list[str] = []
    while board.outcome() is None:
        move = _shuffle(rng, board, seen)
        assert move is not None
        board.play(move)
        moves.append(move.uci())
    outcome = board.outcome()
    assert outcome is not None and outcome.reason == "fifty_moves" and len(moves) == 10
    assert fsf_claimable("asean", fen, moves)


# --- ASEAN's promotion ----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "fen, expected",
    [
        ("7k/3P4/8/8/8/8/8/K7 w - - 0 1", {"d7d8q", "d7d8r", "d7d8b", "d7d8n"}),
        ("2r4k/3P4/8/8/8/8/8/K7 w - - 0 1", {"d7d8q", "d7d8r", "d7d8b", "d7d8n", "d7c8q", "d7c8r", "d7c8b", "d7c8n"}),
        ("7k/8/3P4/8/8/8/8/K7 w - - 0 1", {"d6d7"}),
        ("7k/8/8/3P4/8/8/8/K7 w - - 0 1", {"d5d6"}),
        ("7k/8/8/8/8/8/3p4/K7 b - - 0 1", {"d2d1q", "d2d1r", "d2d1b", "d2d1n"}),
    ],
)
def test_asean_promotes_on_the_last_rank_only(fen, expected):
    board = agree("asean", fen)
    assert {m for m in legal(board) if m[:2] in {e[:2] for e in expected}} == expected


@pytest.mark.parametrize(
    "fen, uci, san",
    [
        ("7k/3P4/8/8/8/8/8/K7 w - - 0 1", "d7d8q", "d8=Q"),
        ("7k/3P4/8/8/8/8/8/K7 w - - 0 1", "d7d8r", "d8=R+"),
        ("2r4k/3P4/8/8/8/8/8/K7 w - - 0 1", "d7c8b", "dxc8=B"),
        ("2r4k/3P4/8/8/8/8/8/K7 w - - 0 1", "d7d8n", "d8=N"),
    ],
)
def test_asean_promotion_notation(fen, uci, san):
    board = agree("asean", fen)
    move = Move.from_uci(uci)
    assert board.san(move) == fsf_san("asean", fen, uci) == san
    assert board.thai_san(move) == fsf_san("asean", fen, uci, thai=True)
    assert board.parse_move(san) == move
    assert "~" not in agree("asean", fen, [uci]).fen()


@pytest.mark.parametrize(
    "variant, fen, moves",
    [
        ("asean", "7k/1P6/8/8/8/8/8/K7 w - - 0 1", ["b7b8q", "h8g7", "b8a7"]),
        ("sittuyin", "7k/8/8/3P4/8/8/P7/K7[] w - - 0 1", ["d5d5f", "h8g8", "d5c6"]),
    ],
)
def test_thai_san_of_a_promoted_met_is_the_bia_ngai_letter(variant, fen, moves):
    """Fairy-Stockfish writes a Met that was a Bia with the Bia Ngai's letter in Thai SAN (ง),
    as Makruk's: ASEAN's ``Qa7`` after b8=Q is ``ง-ก๗``, Sittuyin's ``Fc6`` ``ง-ค๖``."""
    board = agree(variant, fen, moves[:-1])
    theirs = fsf_sans(variant, fen, moves, thai=True)[-1]
    assert theirs.startswith("ง")
    assert board.thai_san(Move.from_uci(moves[-1])) == theirs
