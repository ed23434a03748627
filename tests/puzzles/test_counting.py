"""Counting puzzles: a mate to give before the count runs out (bot/puzzles/counting.py).

The count travels in the FEN as Fairy-Stockfish writes it; these tests show the engine reading
it as the project does, the acceptance and the rules' proof taking a race that only the count
makes unique, the themes, and the card saying it in every language.
"""

from __future__ import annotations

import pytest

from bot.engines import EnginePosition, InfoLine, SyncUciEngine
from bot.puzzles.bank import BankPuzzle
from bot.puzzles.counting import PuzzleCount, count_themes, counted, puzzle_count
from bot.puzzles.engine_check import EngineCheck, Rejected
from bot.puzzles.selfplay import _counting_race
from bot.puzzles.shelf import line_keys
from bot.puzzles.themes import tags
from bot.puzzles.verify import verify_puzzle
from makruk import Board
from makruk.counting import count_moves_left, fen_count, with_count
from storage.records import Puzzle

from .support import Chat

ENGINE = "/usr/games/fairy-stockfish"
# Rua and Khun against a bare Khun: 1. Kg6 Kg8 2. Ra8# (1. Kf7 Kh7 2. Rh1# mates in 2 as well).
RUA_MATE = "7k/8/5K2/8/8/8/8/R7 w - - 0 1"
# Black's Khon and two Met against a bare Khun, from the generator's self-play: with two moves
# left of the pieces' honour only Sf3 mates in time (1... Sf3 2. Kg1 Sg2#); without the count a
# slower mate would win too.
RACE = "8/8/8/8/6s1/6k1/1m~1m4/5K2 b - 78 76 1"  # 1 Khon: 44 moves less the 5 pieces
RACE_LINE = ("g4f3", "f1g1", "f3g2")
# Both sides keep pieces, no Bia: the board's honour.
BOARD_HONOUR = "7k/8/5K2/8/8/8/6s1/R7 w - - 0 1"


def test_a_count_is_written_and_read_as_fairy_stockfish_writes_it():
    fen = with_count(RUA_MATE, 26, 2)
    assert fen == "7k/8/5K2/8/8/8/8/R7 w - 26 24 1"
    assert fen_count(fen) == (26, 24) and count_moves_left(26, 24) == 2
    assert fen_count(RUA_MATE) is None
    assert Board(fen).fen() == Board(RUA_MATE).fen()  # the rules core reads past it
    with pytest.raises(ValueError):
        with_count(RUA_MATE, 4, 4)


# A mate in 2 against a bare Khun in each member of the family (in Makpong a Khun in check may
# not move, so there any check by the Rua would mate at once: its Rua is shut in first).
MATES_IN_2 = {
    "makruk": RUA_MATE,
    "cambodian": RUA_MATE,
    "asean": RUA_MATE,
    "sittuyin": "7k/8/5K2/8/8/8/8/R7[] w - - 0 1",
    "makpong": "7k/8/8/8/8/8/K7/RM6 w - - 0 1",
}


@pytest.mark.parametrize("variant", sorted(MATES_IN_2))
def test_fairy_stockfish_gives_the_side_to_move_the_moves_the_count_leaves(variant):
    with SyncUciEngine(ENGINE) as engine:
        engine.start()

        def best(fen: str) -> InfoLine:
            engine.new_game()
            return engine.go(EnginePosition(fen, (), variant=variant), depth=10, timeout=30).lines[0]

        race = counted(Board(MATES_IN_2[variant], variant=variant), 2)
        assert race is not None and best(race).mate == 2
        limit, _ = fen_count(race) or (0, 0)
        short = with_count(race, limit, 1)  # the count ends first: a draw
        assert best(short).mate is None and best(short).score_cp == 0
        if variant in ("makruk", "cambodian"):  # the board's honour (Makpong's is Makruk's)
            board_race = counted(Board(BOARD_HONOUR, variant=variant), 2)
            assert board_race is not None and best(board_race).mate == 2
            board_limit, _ = fen_count(board_race) or (0, 0)
            assert board_limit == 2 * Board(BOARD_HONOUR, variant=variant).board_honour_limit  # Ouk's is 63
            assert best(with_count(board_race, board_limit, 1)).score_cp == 0


def test_the_count_a_position_is_set_under():
    race = counted(Board(RUA_MATE), 2)
    assert race == "7k/8/5K2/8/8/8/8/R7 w - 26 24 1"  # 1 Rua: 16 moves less the 3 pieces
    assert puzzle_count(race) == PuzzleCount("pieces", 2)
    board_race = counted(Board(BOARD_HONOUR), 3)
    assert board_race is not None and fen_count(board_race) == (128, 124)
    assert puzzle_count(board_race) == PuzzleCount("board", 3)
    assert counted(Board("7k/8/5K2/8/8/4p3/8/R7 w - - 0 1"), 2) is None  # an unpromoted Bia
    assert counted(Board("R6k/8/5K2/8/8/8/8/8 b - - 0 1"), 2) is None  # the side to move is bare
    assert puzzle_count(RUA_MATE) is None
    # Each variant's own rules say which count runs and how long it is at most.
    two_ruas = Board("7k/8/5K2/8/8/8/8/RR6 w - - 0 1")  # 8 moves less the 4 pieces
    assert counted(two_ruas, 4) is not None and counted(two_ruas, 5) is None
    assert puzzle_count(counted(Board(RUA_MATE, variant="cambodian"), 2) or "", "cambodian") == PuzzleCount("pieces", 2)
    assert puzzle_count(counted(Board(RUA_MATE, variant="asean"), 2) or "", "asean") == PuzzleCount("pieces", 2)
    assert counted(Board("7k/8/5K2/8/8/8/6b1/R7 w - - 0 1", variant="asean"), 2) is None  # only against a bare Khun
    assert counted(Board("7k/8/5K2/8/8/8/8/Q7 w - - 0 1", variant="asean"), 2) is None  # a Met alone: no count
    crowded = "5snk/6sm/5K2/8/8/8/8/R7 w - - 0 1"  # Ouk Chatrang's board's honour: at most 3 pieces declare it
    assert counted(Board(crowded), 2) is not None and counted(Board(crowded, variant="cambodian"), 2) is None


def test_selfplay_sets_a_short_mate_under_its_count():
    board = Board(RUA_MATE)
    assert _counting_race(board, InfoLine(None, 2, ("f6g6",))) == counted(board, 2)
    assert _counting_race(board, InfoLine(None, 1, ("a1a8",))) is None  # a mate in 1 is no race
    assert _counting_race(board, InfoLine(None, 6, ("a1a7",))) is None  # too long
    assert _counting_race(board, InfoLine(900, None, ("a1a7",))) is None


def test_the_count_makes_the_race_an_only_move_puzzle():
    with SyncUciEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        check = EngineCheck(engine)
        with pytest.raises(Rejected, match="count: an endgame count could matter"):
            check.build(" ".join(RACE.split()[:3]) + " - 0 1", "makruk")  # without its count
        built = check.build(RACE, "makruk")
        assert built.moves == RACE_LINE and built.kind == "mate" and built.mate_in == 2
        with pytest.raises(Rejected, match="count: a mate in 2 under a count of 3 moves"):
            check.build(with_count(RACE, 78, 3), "makruk")  # a slower mate is in time too


def test_the_rules_prove_a_race_and_refuse_a_count_that_does_not_match():
    themes = tags(RACE, RACE_LINE, "mate", 2)
    assert "countingRace" in themes and "piecesHonour" in themes
    race = BankPuzzle("mkrace", RACE, RACE_LINE, "mate", 2, 1000, themes)
    assert verify_puzzle(race).ok, verify_puzzle(race).problems
    loose = BankPuzzle("mkloose", with_count(RACE, 78, 3), RACE_LINE, "mate", 2, 1000, themes)
    assert "a count of 3 moves set on a mate puzzle in 2" in verify_puzzle(loose).problems
    # A count the rules never give here: another limit, or with a Bia on the board.
    for fen in (with_count(RACE, 4, 2), RACE.replace("8/8/8/8/6s1", "8/8/p7/8/6s1")):
        fake = BankPuzzle("mkfake", fen, RACE_LINE, "mate", 2, 1000, themes)
        assert "the count is not one the rules can have running here" in verify_puzzle(fake).problems, fen
    # Three pieces a side: no count could matter, so none is set.
    crowded = counted(Board("7k/5smm/5K2/8/8/8/4SMM1/R7 w - - 0 1"), 2)
    assert crowded is not None
    far = BankPuzzle("mkfar", crowded, ("f6g6", "h8g8", "a1a8"), "mate", 2, 1000, themes)
    assert "a count set where none could matter" in verify_puzzle(far).problems
    uncounted = BankPuzzle("mkbare", " ".join(RACE.split()[:3]) + " - 0 1", RACE_LINE, "mate", 2, 1000, ("mate",))
    assert any("count could matter" in p for p in verify_puzzle(uncounted).problems)


def test_count_themes_name_the_count():
    assert count_themes(counted(Board(RUA_MATE), 2) or "") == ("countingRace", "piecesHonour")
    assert count_themes(counted(Board(BOARD_HONOUR), 2) or "") == ("countingRace", "boardHonour")
    assert count_themes(RUA_MATE) == ()


def test_a_kept_line_is_not_kept_again_from_its_tail():
    keys = line_keys(BankPuzzle("mkrace", RACE, RACE_LINE, "mate", 2, 1000, ("mate",)))
    assert keys == {"8/8/8/8/6s1/6k1/1m~1m4/5K2 b", "8/8/8/8/8/5sk1/1m~1m4/5K2 w", "8/8/8/8/8/5sk1/1m~1m4/6K1 b"}


RACE_PUZZLE = Puzzle("t-race", RACE, RACE_LINE, 1000, ("mate", "mateIn2", "countingRace", "piecesHonour"), "test")
CAPTIONS = {
    "en": "Black to move, mate in 2 before the count (pieces' honour) runs out",
    "th": "ดำเดิน รุกจนใน 2 ตา ก่อนหมดการนับศักดิ์หมาก",
    "ja": "黒番・駒の数えが尽きる前に2手でメイト",
    "km": "ខាងខ្មៅដើរ អុកស្លាប់ក្នុង 2 ជំហាន មុនពេលការរាប់តាមកូនអុកអស់",
}


@pytest.mark.parametrize("language", sorted(CAPTIONS))
async def test_the_card_says_the_count_in_every_language(storage, clock, language):
    from .support import make_services

    await storage.upsert_puzzles([RACE_PUZZLE])
    games, _ = make_services(storage, clock, language=language)
    posed = await Chat(games, "me", "console").ok("alice", "puzzle countingRace")
    assert posed[0].board.caption == CAPTIONS[language]
    answered = await Chat(games, "me", "console").ok("alice", "g4f3")
    assert answered[0].board.caption == CAPTIONS[language].replace("2", "1")


def test_a_variant_with_enough_races_gets_no_more():
    import random

    from bot.puzzles.selfplay import PlaySettings, candidates

    with SyncUciEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        for seed in (1, 2, 3):
            found = list(candidates(engine, "makruk", random.Random(seed), PlaySettings(blunders=1), races=False))
            assert all(fen_count(fen) is None for fen in found)
