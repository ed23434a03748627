"""``review`` of a pasted game (a PGN or a move list, longer than an ordinary message) or of a
game of the archive by its number, and ``analyse`` of any position."""

from __future__ import annotations

from bot.messages import MAX_MESSAGE_LENGTH

PGN = """[Event "Makruk"]
[Site "PlayOK"]
[Date "2025.03.02"]
[Round "-"]
[TimeControl "600"]
[Annotator "a friend who writes long notes"]
[White "somchai"]
[Black "ann"]
[Result "*"]

1. Bg2 Bd7 2. Bb2 Bf7 3. Bf1 Bc8 4. Qf2 Bd7 5. Bg2 Bc8 6. Bf1 g5 {a long comment that makes
this paste longer than an ordinary chat message, as real games with their clocks and notes are;
PlayOK writes the Khon as B and the Met as Q} 7. Be2 Bg6 8. Qe1 Bh5 9. Qd2 Qe7 10. Qc1 Bh4
11. gxh4 gxh4 12. Qd2 Bc7 13. Qe1 Qf8 14. Qf2 Qe7 15. Qg3 hxg3=P 16. Bf1 Pf4 17. exf4 Bd8 *
"""


async def test_review_of_a_pasted_pgn_longer_than_a_message(chat):
    text = "review\n" + PGN
    assert len(text) > MAX_MESSAGE_LENGTH
    [reply] = await chat.ok("alice", text)
    assert reply.kind == "review" and reply.image is not None and reply.image.startswith(b"\x89PNG")
    assert reply.text.startswith("Review of somchai vs ann (*).")


async def test_review_of_a_pasted_move_list_and_its_refusals(chat):
    [reply] = await chat.ok("alice", "review 1. e4 g5 2. Nd2 ม-ง๗ 3. d4")
    assert reply.kind == "review" and "White vs Black" in reply.text
    refusal = await chat.refused("alice", "review 1. e4 g5 2. Zz9", "bad_pgn")
    assert "3" in refusal.text and "Zz9" in refusal.text
    await chat.refused("alice", "review " + PGN.replace("9. Qd2", "9. Qd9"), "bad_pgn")


async def test_other_long_messages_are_still_refused(chat):
    await chat.refused("alice", "history " + "x" * MAX_MESSAGE_LENGTH, "too_long")
    await chat.refused("alice", "review " + "1. e4 " * 1000, "too_long")  # beyond LINE's 5,000 too


async def test_review_of_an_archived_game_by_its_number(chat):
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    await chat.ok("alice", "e3e4")
    await chat.ok("bob", "resign")
    [reply] = await chat.ok("carol", "review 1")
    assert reply.kind == "review" and "alice vs bob (1-0)" in reply.text
    await chat.refused("carol", "review 7", "no_such_game")


async def test_analyse_a_fen_a_variant_s_fen_and_a_pasted_game(chat):
    [reply] = await chat.ok("alice", "analyse 4k3/8/8/8/8/8/3R4/4K3 w - - 0 1")
    assert reply.kind == "analysis" and reply.board is not None and len(reply.board.arrows) == 1
    assert reply.text.startswith("Evaluation: ")
    [ouk] = await chat.ok("alice", "analyse ouk rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1")
    assert ouk.board is not None and ouk.board.variant == "cambodian"
    [game] = await chat.ok("alice", "analyse 1. e4 g5 2. Nd2")
    assert game.board is not None and game.board.fen.startswith("rnsmksnr/8/pppppp1p/6p1/4P3/PPPP1PPP/3N4/")
    await chat.refused("alice", "analyse", "analyse_missing")
    await chat.refused("alice", "analyse 4k3/8/8/8/8/8/8/4K2K w - - 0 1", "fen.fen_khuns")
    await chat.refused("alice", "analyse k7/2K5/2N5/8/8/8/8/8 b - - 0 1", "fen.fen_game_over")
