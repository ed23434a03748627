"""Writing and reading moves: SAN and Thai SAN against pyffish, round trips, Thai forms, errors."""

from __future__ import annotations

import random

import pyffish
import pytest

from makruk import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move, PieceType, parse_move

GAMES = 24
SEED = 7
SAN_GROUP = {PieceType.MET: "M", PieceType.BIA_NGAI: "M"}  # Fairy-Stockfish's Bia Ngai is a Met


def _games():
    """Seeded random games that capture, check and promote often (the SAN corner cases).

    Yields (board, legal moves) before every ply and the finished game's start and moves.
    """
    rng = random.Random(SEED)
    for _ in range(GAMES):
        board = Board()
        for _ in range(160):
            moves = board.legal_moves()
            yield board, moves
            if not moves:
                break
            captures = [m for m in moves if board.piece_at(m.to_square) or m.promotion]
            board.push(rng.choice(captures if captures and rng.random() < 0.6 else moves))
        yield Board().fen(), [m.uci() for m in board.move_stack]


def _interesting(board: Board, moves: list[Move]) -> list[Move]:
    """Moves whose SAN is easy to get wrong: captures, promotions, checks, rivals for a square.

    Found from the position, not from our SAN, so that a missing disambiguation cannot hide.
    """
    def group(move: Move) -> tuple[int, str]:
        piece = board.piece_at(move.from_square)
        assert piece is not None
        return move.to_square, SAN_GROUP.get(piece.kind, piece.kind.name)

    rivals: dict[tuple[int, str], set[int]] = {}
    for move in moves:
        rivals.setdefault(group(move), set()).add(move.from_square)
    out = []
    for move in moves:
        board.push(move)
        check = board.is_check()
        board.pop()
        if check or move.promotion or board.piece_at(move.to_square) or len(rivals[group(move)]) > 1:
            out.append(move)
    return out


def test_san_and_thai_san_match_pyffish():
    # pyffish takes about 2 ms a call, so it checks every move of every game line (in one call
    # per game) and, at every other ply, each capture, promotion, check and disambiguated move.
    compared = disambiguated = 0
    for ply, (board, moves) in enumerate(_games()):
        if isinstance(board, str):
            start, line = board, moves
            replay = Board(start)
            ours_san, ours_thai = [], []
            for uci in line:
                move = Move.from_uci(uci)
                ours_san.append(replay.san(move))
                ours_thai.append(replay.thai_san(move))
                replay.push(move)
            assert ours_san == pyffish.get_san_moves("makruk", start, line, False, pyffish.NOTATION_SAN)
            assert ours_thai == pyffish.get_san_moves("makruk", start, line, False, pyffish.NOTATION_THAI_SAN)
            continue
        if ply % 2:
            continue  # every other position is enough next to the game lines
        fen = board.fen()
        for move in _interesting(board, moves):
            uci = move.uci()
            san = board.san(move)
            assert san == pyffish.get_san("makruk", fen, uci, False, pyffish.NOTATION_SAN), (fen, uci)
            thai = pyffish.get_san("makruk", fen, uci, False, pyffish.NOTATION_THAI_SAN)
            assert board.thai_san(move) == thai, (fen, uci)
            compared += 1
            disambiguated += len(san.rstrip("+#").replace("x", "").replace("=M", "")) > 3
    assert compared > 1500 and disambiguated > 20, (compared, disambiguated)


def test_every_legal_move_round_trips_through_san_thai_and_uci():
    moves_seen = promotions = captures = checks = thai_collisions = 0
    for board, moves in _games():
        if isinstance(board, str):
            continue
        for move in moves:
            san, thai, uci = board.san(move), board.thai_san(move), move.uci()
            for text in (san, uci, uci.upper(), san.rstrip("+#")):
                assert parse_move(board, text) == move, (board.fen(), text)
            try:
                assert parse_move(board, thai) == move, (board.fen(), thai)
            except AmbiguousMoveError as error:
                # Thai letters ข ค ง name files b, c, d and also Khun, Khon and Bia Ngai, so a
                # few of Fairy-Stockfish's Thai SAN strings read two ways: "ขxค๕" is the Khun or
                # the b-file Bia taking on c5; "ง๔-ค๓" is the Bia Ngai from rank 4 or the move
                # d4-c3 in Thai coordinates. Both readings are offered; no other ambiguity.
                assert thai[0] in "ขคง" and len(error.candidates) == 2 and move in error.candidates, thai
                thai_collisions += 1
            moves_seen += 1
            promotions += bool(move.promotion)
            captures += "x" in san
            checks += san.endswith(("+", "#"))
    assert moves_seen > 50000 and promotions > 50 and captures > 1000 and checks > 300
    assert thai_collisions < moves_seen / 1000, thai_collisions


@pytest.mark.parametrize(
    "fen, text, uci",
    [
        ("start", "จ๔", "e3e4"),
        ("start", "จ4", "e3e4"),
        ("start", "ม-ง๒", "b1d2"),
        ("start", "ม-ง2", "b1d2"),
        ("start", "มง๒", "b1d2"),
        ("start", "บ จ๓-จ๔", "e3e4"),
        ("start", "บ จ3-จ4", "e3e4"),
        ("start", "บจ๓จ๔", "e3e4"),
        ("start", "จ๓-จ๔", "e3e4"),
        ("start", "จ๓ จ๔", "e3e4"),
        ("start", "ม็-ฉ๒", "e1f2"),
        ("start", "ค-ข๒", "c1b2"),
        ("start", "ข-ง๒", "d1d2"),
        ("start", "ร-ก๒", "a1a2"),
        ("start", "  จ๔  ", "e3e4"),
        ("rnsmksnr/8/ppp1pppp/8/3p4/PPPPPPPP/8/RNSKMSNR w - - 0 3", "คxง๔", "c3d4"),
        ("rnsmksnr/8/ppp1pppp/8/3p4/PPPPPPPP/8/RNSKMSNR w - - 0 3", "จxง๔", "e3d4"),
        ("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "ง๖", "d5d6m"),
        ("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "ง๖=ง", "d5d6m"),
        ("4k3/8/8/8/8/2M~1M3/8/4K3 w - - 0 1", "ง-ง๔", "c3d4"),
        ("4k3/8/8/8/8/2M~1M3/8/4K3 w - - 0 1", "ม็-ง๔", "e3d4"),
    ],
)
def test_thai_forms_parse(fen, text, uci):
    board = Board() if fen == "start" else Board(fen)
    assert parse_move(board, text).uci() == uci


@pytest.mark.parametrize(
    "text, uci",
    [
        ("e4", "e3e4"), ("Nd2", "b1d2"), ("nd2", "b1d2"), ("Nbd2", "b1d2"), ("N1d2", "b1d2"), ("Nb1d2", "b1d2"),
        ("Mf2", "e1f2"), ("Sc2", "c1c2"), ("Kd2", "d1d2"), ("Ra2", "a1a2"), ("e3e4", "e3e4"),
        ("e3-e4", "e3e4"), ("e3 e4", "e3e4"), ("E3E4", "e3e4"), ("E3-E4", "e3e4"), ("e4+", "e3e4"),
        ("e4!?", "e3e4"), ("Nd2#", "b1d2"),
    ],
)
def test_western_forms_parse(text, uci):
    assert parse_move(Board(), text).uci() == uci


def test_promotion_is_implied_when_forced_and_explicit_when_optional():
    fen = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1"
    assert parse_move(Board(fen), "d6").uci() == "d5d6m"
    assert parse_move(Board(fen), "d5d6").uci() == "d5d6m"
    assert parse_move(Board(fen), "d6=M").uci() == "d5d6m"
    optional = Board(fen, promotion="optional")
    assert parse_move(optional, "d6").uci() == "d5d6"
    assert parse_move(optional, "d5d6").uci() == "d5d6"
    assert parse_move(optional, "d6=M").uci() == "d5d6m"
    assert parse_move(optional, "d5d6m").uci() == "d5d6m"
    assert optional.san(Move.from_uci("d5d6")) == "d6" and optional.san(Move.from_uci("d5d6m")) == "d6=M"
    last_rank = Board("k7/3P4/8/8/8/8/8/4K3 w - - 0 1", promotion="optional")
    assert parse_move(last_rank, "d8").uci() == "d7d8m"


@pytest.mark.parametrize(
    "fen, text, candidates",
    [
        ("4k3/8/8/8/8/8/1N3N2/3K4 w - - 0 1", "Nd3", {"b2d3", "f2d3"}),
        ("4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1", "Nd2", {"b1d2", "f1d2"}),
        ("4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1", "ม-ง๒", {"b1d2", "f1d2"}),
        ("4k3/8/8/8/8/2M~1M3/8/4K3 w - - 0 1", "Md4", {"c3d4", "e3d4"}),
        ("4k3/8/8/8/8/8/3K4/R6R w - - 0 1", "Re1", {"a1e1", "h1e1"}),
    ],
)
def test_ambiguous_input_raises_with_the_candidates(fen, text, candidates):
    with pytest.raises(AmbiguousMoveError) as error:
        parse_move(Board(fen), text)
    assert {m.uci() for m in error.value.candidates} == candidates
    assert error.value.code == "ambiguous"


@pytest.mark.parametrize(
    "text",
    ["", "   ", "hello", "z9", "e9", "i3i4", "e3e4e5", "Zd2", "xx", "e3e3", "ญ๙", "x" * 100, "Nd2 Nf3", "O-O"],
)
def test_garbage_raises_invalid_move_error(text):
    with pytest.raises(InvalidMoveError) as error:
        parse_move(Board(), text)
    assert error.value.code == "not_a_move"


def test_not_a_string_is_not_a_move():
    with pytest.raises(InvalidMoveError):
        parse_move(Board(), None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "fen, text, code",
    [
        ("start", "e4e5", "no_piece"),
        ("start", "e6e5", "not_your_piece"),
        ("start", "a1b1", "own_piece"),
        ("start", "b1b4", "cannot_move_there"),
        ("start", "Nd3", "no_such_move"),
        ("start", "a1a4", "blocked"),
        ("start", "Ra4", "blocked"),
        ("start", "Nc3", "own_piece"),
        ("3r3k/8/8/8/8/8/3R4/3K4 w - - 0 1", "d2e2", "leaves_khun_in_check"),
        ("3r3k/8/8/8/8/8/3R4/3K4 w - - 0 1", "Re2", "leaves_khun_in_check"),
        ("3rk3/8/8/8/8/8/8/3K4 w - - 0 1", "Kd2", "leaves_khun_in_check"),
    ],
)
def test_illegal_input_raises_with_the_reason(fen, text, code):
    board = Board() if fen == "start" else Board(fen)
    with pytest.raises(IllegalMoveError) as error:
        parse_move(board, text)
    assert error.value.code == code, str(error.value)


@pytest.mark.parametrize(
    "fen, uci, code",
    [
        ("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "d5d6", "promotion_required"),
        ("start", "b1d2m", "promotion_not_allowed"),
        ("start", "e3e5", "cannot_move_there"),
    ],
)
def test_play_of_an_exact_move_explains_promotion_errors(fen, uci, code):
    board = Board() if fen == "start" else Board(fen)
    with pytest.raises(IllegalMoveError) as error:
        board.play(Move.from_uci(uci))
    assert error.value.code == code


def test_the_errors_are_value_errors_with_a_message_naming_the_input():
    with pytest.raises(ValueError, match="Nd3"):
        parse_move(Board(), "Nd3")
    with pytest.raises(ValueError, match="hello"):
        parse_move(Board(), "hello")


def test_move_from_uci_is_strict():
    assert Move.from_uci("e3e4") == Move(20, 28) and Move.from_uci("d5c6m").promotion
    assert not Move.from_uci("0000")
    # The letters of the whole family read (ASEAN's a7a8q, Sittuyin's R@a1 and f5f5f); the
    # board says whether its variant has them.
    assert Move.from_uci("e3e4q").promotion == "q" and Move.from_uci("R@a1").drop == "R"
    assert Move.from_uci("f5f5f") and Move.from_uci("f5f5f").uci() == "f5f5f"
    for text in ("e3-e4", "E3E4", "e3e4x", "e3e4M", "e3e", "e3e3", "i1a1", "r@a1", "R@a9", "R@"):
        with pytest.raises(InvalidMoveError):
            Move.from_uci(text)


@pytest.mark.parametrize(("fen", "text", "uci"), [
    # PlayOK: B is the Khon, Q the Met, P the Bia Ngai, =P a promotion.
    (None, "Bf2", "f1f2"), (None, "Be2", "f1e2"), (None, "Qd2", "e1d2"), (None, "Bf3", None),
    ("4k3/8/8/8/2M~5/8/8/4K3 w - - 0 1", "Pd5", "c4d5"), ("4k3/8/8/8/2M~5/8/8/4K3 w - - 0 1", "Pcd5", "c4d5"),
    ("4k3/8/8/1P6/8/8/8/4K3 w - - 0 1", "b6=P", "b5b6m"),
    ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1", "bxb3", None),
    # pychess-variants and Fairy-Stockfish: S, M, M~ and =M.
    (None, "Sf2", "f1f2"), ("4k3/8/8/8/2M~5/8/8/4K3 w - - 0 1", "M~d5", "c4d5"),
    ("4k3/8/8/1P6/8/8/8/4K3 w - - 0 1", "b6=M", "b5b6m"),
    # b is a file, so a lower-case b is a Bia's move, never a Khon's.
    ("4k3/8/8/8/8/2p5/1P6/4K3 w - - 0 1", "bxc3", "b2c3"),
])
def test_playok_and_pychess_letters_are_read(fen, text, uci):
    board = Board(fen)
    if uci is None:
        with pytest.raises(IllegalMoveError):
            parse_move(board, text)
    else:
        assert parse_move(board, text).uci() == uci


def test_playok_san_is_written_with_playok_letters():
    board = Board("4k3/8/8/8/2M~5/1P6/8/3KM3 w - - 0 1")
    assert board.playok_san(board.parse_move("c4d5")) == "Pd5"
    assert board.playok_san(board.parse_move("e1d2")) == "Qd2"
    board = Board("4k3/8/8/1P6/8/8/8/4K3 w - - 0 1")
    assert board.playok_san(board.parse_move("b5b6m")) == "b6=P"
