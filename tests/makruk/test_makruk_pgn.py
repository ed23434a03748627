"""Reading PGN (makruk/pgn.py and ``python -m makruk pgn``): PlayOK's and pychess-variants' games,
several games a file, comments, variations and NAGs, a bad move reported while the other games
are read, moves written after the rules ended a game."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from makruk import Board
from makruk.pgn import read_games, read_moves

PLAYOK = """[Event "Makruk"]
[Site "PlayOK"]
[Date "2025.03.02"]
[White "somchai"]
[Black "ann"]
[Result "*"]

1. Bg2 Bd7 2. Bb2 Bf7 3. Bf1 Bc8 4. Qf2 Bd7 5. Bg2 Bc8 6. Bf1 g5 7. Be2 Bg6 8. Qe1 Bh5
9. Qd2 Qe7 10. Qc1 Bh4 11. gxh4 gxh4 12. Qd2 Bc7 13. Qe1 Qf8 14. Qf2 Qe7 15. Qg3 hxg3=P
16. Bf1 Pf4 17. exf4 Bd8 18. Bf2 Qf8 19. Bg3 Qe7 20. Bh2 Bc7 21. Bg3 Bd8 22. Bh2 Bc7
23. Bc1 Qd8 24. Bb2 Qe7 *
"""

# The same game as pychess-variants writes it (Fairy-Stockfish's letters, the Bia Ngai as M~).
PYCHESS = """[Event "Weekly Makruk Arena"]
[Site "https://www.pychess.org/abcd1234"]
[Variant "makruk"]
[White "tanawat"]
[Black "chaiya"]
[Result "*"]

1. Sg2 Sd7 2. Sb2 Sf7 3. Sf1 Sc8 4. Mf2 Sd7 5. Sg2 Sc8 6. Sf1 g5 7. Se2 Sg6 8. Me1 Sh5
9. Md2 Me7 10. Mc1 Sh4 11. gxh4 gxh4 12. Md2 Sc7 13. Me1 Mf8 14. Mf2 Me7 15. Mg3 hxg3=M
16. Sf1 M~f4 17. exf4 Sd8 18. Sf2 Mf8 19. Sg3 Me7 20. Sh2 Sc7 21. Sg3 Sd8 22. Sh2 Sc7
23. Sc1 Md8 24. Sb2 Me7 *
"""
FINAL = "rn2k1nr/2s1m3/pppppp1p/8/5P2/PPPP1P1P/1S5S/RN1K2NR w - - 15 25"

WITH_EVERYTHING = """[White "a"]
[Black "b"]
[Result "*"]
% an escaped line the reader skips
1. e4! {the usual} ; and a rest-of-line comment
1... g5?! (1... d5 2. exd5 (2. Nd2) Nd7) 2. Nd2 $14 $1 2... Nd7 3.Ne2 *
"""

DEAD_DRAW_THEN_MORE = """[FEN "4k3/s7/R7/8/8/8/8/3KSN2 b - - 0 1"]
[Result "1/2-1/2"]

1... Sxa6 2. Ke2 Ke7 3. Nd2 1/2-1/2
"""


def test_a_playok_game_with_playok_letters():
    [game] = read_games(PLAYOK)
    assert game.error is None and game.variant == "makruk" and game.result == "*"
    assert [m.uci() for m in game.moves[:4]] == ["f1g2", "c8d7", "c1b2", "f8f7"]
    assert game.moves[29].uci() == "h4g3m" and game.moves[31].uci() == "g3f4"  # hxg3=P, then the P moves
    assert len(game.moves) == 48 and game.fen == FINAL
    assert game.outcome is not None and game.outcome.reason == "repetition"  # the last move repeats thrice
    assert game.tags["White"] == "somchai" and game.tags["Site"] == "PlayOK"


def test_a_pychess_game_with_fairy_stockfish_letters_reads_the_same():
    [game] = read_games(PYCHESS)
    [playok] = read_games(PLAYOK)
    assert game.error is None and game.moves == playok.moves and game.fen == FINAL


def test_comments_variations_nags_and_numbers_are_skipped():
    [game] = read_games(WITH_EVERYTHING)
    assert [m.uci() for m in game.moves] == ["e3e4", "g6g5", "b1d2", "b8d7", "g1e2"] and game.error is None


def test_several_games_a_bad_move_stops_its_game_only():
    text = PLAYOK.replace("5. Bg2", "5. Qz9") + "\n" + PYCHESS
    first, second = read_games(text)
    assert first.error is not None and first.error.ply == 9 and first.error.text == "Qz9"
    assert first.error.code == "not_a_move" and len(first.moves) == 8
    assert second.error is None and len(second.moves) == 48 and second.number == 2


def test_an_illegal_move_is_reported_with_the_rules_reason():
    [game] = read_games("1. e4 e5 2. Ra4 *")
    assert game.error is not None and (game.error.ply, game.error.text) == (3, "Ra4")
    assert game.error.code == "blocked"


def test_moves_after_the_rules_ended_the_game_are_kept_aside():
    [game] = read_games(DEAD_DRAW_THEN_MORE)
    assert [m.uci() for m in game.moves] == ["a7a6"]
    assert game.outcome is not None and game.outcome.reason == "material"
    assert game.after_end == ["Ke2", "Ke7", "Nd2"] and game.error is None


def test_variant_and_fen_tags_choose_the_game():
    [game] = read_games('[Variant "Sittuyin"]\n\n1. R@a1 R@h8 2. K@e2 *')
    assert game.variant == "sittuyin" and game.board is not None and game.board.in_deployment()
    [bad] = read_games('[Variant "chess"]\n\n1. e4 *')
    assert bad.error is not None and bad.error.code == "unknown_variant" and bad.moves == []
    [bad_fen] = read_games('[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n1. e4 *')
    assert bad_fen.error is not None and bad_fen.error.code == "fen_khuns"


def test_a_pasted_move_list_in_any_notation():
    moves = read_moves("1. จ๔ g5 2. Nd2 ม-ง๗ 3. d4", Board())
    assert [m.uci() for m in moves] == ["e3e4", "g6g5", "b1d2", "b8d7", "d3d4"]
    with pytest.raises(ValueError, match="ply 2 'Zz9'"):
        read_moves("e4 Zz9", Board())


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "makruk", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, check=False)


def test_the_command_line_prints_each_game_and_says_whether_all_were_read(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(PLAYOK + "\n" + DEAD_DRAW_THEN_MORE, encoding="utf-8")
    done = run("pgn", str(path))
    assert done.returncode == 0, done.stderr
    assert "game 1" in done.stdout and "game 2" in done.stdout and "outcome: 1/2-1/2 material" in done.stdout
    assert "3 more moves were not played" in done.stdout
    as_json = run("pgn", str(path), "--json")
    games = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert [g["game"] for g in games] == [1, 2] and games[0]["moves"][0] == "f1g2"
    assert set(games[0]) >= {"moves", "fen", "result", "outcome", "tags"}
    assert games[1]["outcome"]["reason"] == "material"
    broken = run("pgn", "-", "--json", stdin="1. e4 Zz9 *")
    assert broken.returncode == 1 and json.loads(broken.stdout)["error"]["ply"] == 2
    missing = run("pgn", str(tmp_path / "none.pgn"))
    assert missing.returncode == 2 and missing.stdout == "" and missing.stderr.startswith("error: cannot read")
