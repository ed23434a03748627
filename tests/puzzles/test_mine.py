"""``puzzles mine``: puzzles from real games written as PGN or played with the bot, accepted and
proved as self-play's, each game mined once (docs/puzzles.md, "Real games")."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.puzzles.acceptance import check_record
from bot.puzzles.bank import load_bank, load_runs, load_verification
from bot.puzzles.mine import game_key, mine
from bot.puzzles.selfplay import puzzle_fen
from bot.puzzles.verify import verify_puzzle
from makruk import Board, starting_fen
from makruk.pgn import read_games
from storage import GameChanges, NewGame, NewMove, Seat, open_storage
from storage.records import GameStatus, Promotion

from .test_cli import run

ENGINE = "/usr/games/fairy-stockfish"
# A game of the generator's self-play (Fairy-Stockfish at mixed levels, seed 2291), written as
# the bot's PGN export writes a game: at move 47 White has one way to win, a Ma's fork.
GAME = Path(__file__).with_name("fixtures") / "selfplay-game.pgn"
MAKRUK = {"makruk": 50}


def _sources(*paths: Path) -> list[tuple[str, str]]:
    return [(path.name, path.read_text(encoding="utf-8")) for path in paths]


def test_a_game_gives_its_puzzle_and_is_mined_once(tmp_path: Path) -> None:
    state_path = tmp_path / "state.json"
    first = mine(_sources(GAME), directory=tmp_path, state_path=state_path, targets=MAKRUK, engine_path=ENGINE)
    assert first["games"] == {"makruk": 1} and first["cpu_seconds"]["makruk"] > 0
    # One candidate: the later positions where White wins again were already won before Black's
    # move (screened without that, one more is offered and refused at the first search).
    assert first["candidates"] == {"makruk": 1}
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
    again = mine(_sources(GAME), directory=tmp_path, state_path=state_path, targets=MAKRUK, engine_path=ENGINE)
    assert again["games"] == {"makruk": 1} and again["candidates"] == first["candidates"]
    assert load_bank(tmp_path / "bank.jsonl") == puzzles


async def test_the_games_played_with_the_bot_are_mined_from_its_database(tmp_path: Path) -> None:
    [game] = read_games(GAME.read_text(encoding="utf-8"))
    db = tmp_path / "bot.db"
    async with await open_storage(db) as storage:
        alice = await storage.get_or_create_player("discord", "1", "Alice")
        bob = await storage.get_or_create_player("discord", "2", "Bob")
        def new(channel: str, black: Seat | None, status: GameStatus, promotion: Promotion = "forced") -> NewGame:
            return NewGame(platform="discord", channel=channel, white=Seat.human(alice.id), black=black,
                           start_fen=starting_fen("makruk"), promotion=promotion, perpetual="draw",
                           move_seconds=86400, status=status)

        modes: list[tuple[str, Promotion]] = [("chan", "forced"), ("optional", "optional")]
        for channel, promotion in modes:
            stored = await storage.create_game(new(channel, Seat.human(bob.id), "active", promotion))
            for ply, move in enumerate(game.moves[:20] if promotion == "optional" else game.moves):
                stored = await storage.append_move(stored.id, stored.version,
                                                   NewMove(move.uci(), move.uci(), "b" if ply % 2 else "w"))
            await storage.update_game(stored.id, stored.version,
                                      GameChanges(status="finished", result="1-0", reason="resign"))
        await storage.create_game(new("other", None, "challenge"))  # not a game to mine
    state = tmp_path / "state.json"
    done = run("mine", "--db", str(db), "--variant", "makruk", "--target", "50", "--dir", str(tmp_path),
               "--state", str(state))
    assert done.returncode == 0, done.stderr
    assert "games {'makruk': 1}" in done.stdout  # the optional-promotion game is passed over
    assert any("forkMa" in p.themes for p in load_bank(tmp_path / "bank.jsonl"))
    # The same game from a PGN file has the same key: it is not mined again.
    again = await asyncio.to_thread(mine, _sources(GAME), directory=tmp_path, state_path=state, targets=MAKRUK,
                                    engine_path=ENGINE)  # the engine's own loop runs off this test's
    assert again["games"] == {"makruk": 1}


def test_a_game_from_a_set_up_position_is_replayed_from_it(tmp_path: Path) -> None:
    [game] = read_games(GAME.read_text(encoding="utf-8"))
    board = Board(game.start_fen)
    for move in game.moves[:88]:
        board.push(move)
    tail = " ".join(m.uci() for m in game.moves[88:94])
    pgn = tmp_path / "setup.pgn"
    pgn.write_text(f'[Variant "makruk"]\n[SetUp "1"]\n[FEN "{board.fen()}"]\n\n{tail} *\n', encoding="utf-8")
    state = mine(_sources(pgn), directory=tmp_path, state_path=tmp_path / "state.json", targets=MAKRUK,
                 engine_path=ENGINE)
    assert state["games"] == {"makruk": 1}
    assert [p.fen.endswith(" w - - 0 47") for p in load_bank(tmp_path / "bank.jsonl")] == [True]


def test_games_of_other_variants_or_not_read_are_passed_over(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    pgn.write_text('[Variant "shogi"]\n\n1. P7f *\n\n[Variant "makruk"]\n\n1. e4 e5 *\n', encoding="utf-8")
    state = mine(_sources(pgn), directory=tmp_path, state_path=tmp_path / "state.json", targets={"cambodian": 10},
                 engine_path=ENGINE)
    assert state["games"] == {} and state["mined"] == []
    assert not (tmp_path / "bank-cambodian.jsonl").exists()


def test_the_command_refuses_what_is_missing_without_a_traceback(tmp_path: Path) -> None:
    for args in (["mine", str(tmp_path / "nope.pgn")], ["mine", "--db", str(tmp_path / "nope.db")], ["mine"],
                 ["mine", str(GAME), "--engine", str(tmp_path / "no-engine")],
                 ["mine", str(GAME), "--dir", str(tmp_path / "no-dir")]):
        done = run(*args, "--dir", str(tmp_path)) if "--dir" not in args else run(*args)
        assert done.returncode == 2, args
        assert done.stderr.strip() and "Traceback" not in done.stderr
    assert not (tmp_path / "nope.db").exists()
