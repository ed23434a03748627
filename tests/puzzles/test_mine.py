"""``puzzles mine``: puzzles from real games written as PGN, accepted and proved as self-play's,
each game mined once (docs/puzzles.md, "Real games")."""

from __future__ import annotations

from pathlib import Path

from bot.puzzles.acceptance import check_record
from bot.puzzles.bank import load_bank, load_runs, load_verification
from bot.puzzles.mine import game_key, mine
from bot.puzzles.selfplay import puzzle_fen
from bot.puzzles.verify import verify_puzzle
from makruk import Board
from makruk.pgn import read_games

from .test_cli import run

ENGINE = "/usr/games/fairy-stockfish"
# A game of the generator's self-play (Fairy-Stockfish at mixed levels, seed 2291), written as
# the bot's PGN export writes a game: at move 47 White has one way to win, a Ma's fork.
GAME = Path(__file__).with_name("fixtures") / "selfplay-game.pgn"


def test_a_game_gives_its_puzzle_and_is_mined_once(tmp_path: Path) -> None:
    state_path = tmp_path / "state.json"
    first = mine([GAME], directory=tmp_path, state_path=state_path, targets={"makruk": 50}, engine_path=ENGINE)
    assert first["games"] == {"makruk": 1} and first["cpu_seconds"]["makruk"] > 0
    puzzles = load_bank(tmp_path / "bank.jsonl")
    assert puzzles, first["rejected"]
    assert sum(first["rejected"].get("makruk", {}).values()) + len(puzzles) == first["candidates"]["makruk"]
    [game] = read_games(GAME.read_text(encoding="utf-8"))
    board = Board(game.start_fen)
    positions = {puzzle_fen(board)}
    for move in game.moves:
        board.push(move)
        positions.add(puzzle_fen(board))
    records = load_verification(tmp_path / "verification.jsonl")
    for p in puzzles:
        assert p.fen in positions  # a position of the game itself
        assert verify_puzzle(p).ok
        assert check_record(p.moves, p.kind, p.mate_in, p.variant, records[p.id]) == []
    assert any(p.fen.endswith(" w - - 0 47") and "forkMa" in p.themes for p in puzzles)
    assert load_runs(tmp_path / "bank.jsonl")[0]["source"] == [GAME.name]
    assert first["mined"] == [game_key(game)]
    # The same file again: its game was mined, nothing is searched or kept twice.
    again = mine([GAME], directory=tmp_path, state_path=state_path, targets={"makruk": 50}, engine_path=ENGINE)
    assert again["games"] == {"makruk": 1} and again["candidates"] == first["candidates"]
    assert load_bank(tmp_path / "bank.jsonl") == puzzles


def test_games_of_other_variants_or_not_read_are_passed_over(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    pgn.write_text('[Variant "shogi"]\n\n1. P7f *\n\n[Variant "makruk"]\n\n1. e4 e5 *\n', encoding="utf-8")
    state = mine([pgn], directory=tmp_path, state_path=tmp_path / "state.json", targets={"cambodian": 10},
                 engine_path=ENGINE)
    assert state["games"] == {} and state["mined"] == []
    assert not (tmp_path / "bank-cambodian.jsonl").exists()


def test_the_command_refuses_a_missing_file_without_a_traceback(tmp_path: Path) -> None:
    done = run("mine", str(tmp_path / "nope.pgn"), "--dir", str(tmp_path))
    assert done.returncode == 2
    assert "no such file" in done.stderr and "Traceback" not in done.stderr
