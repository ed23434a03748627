"""Solving puzzles through GameService.handle, as console, LINE and Discord messages."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest

from storage import ChannelSettings

from .support import MATE1, MATE2, MATE2_TWO_ENDINGS, MATERIAL, Chat, daily_posts

PLATFORMS = ["console", "line", "discord"]
TODAY = date(2026, 11, 30)


async def daily_post(storage, platform, channel, puzzle, day=TODAY, zone="Asia/Bangkok"):
    sub = await storage.subscribe(platform, channel, time(0, 0), zone, "en")
    return await storage.record_post(sub.id, day, puzzle.id)


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_wrong_try_then_right_moves_solve_the_daily_puzzle(games, storage, platform):
    chat = Chat(games, "room", platform)
    post = await daily_post(storage, platform, "room", MATE2)
    wrong = await chat.ok("alice", "Rc3")
    assert [r.kind for r in wrong] == ["puzzle_wrong"] and "Tries: 1" in wrong[0].text
    right = await chat.ok("alice", "c2h2")  # UCI
    assert right[0].kind == "puzzle" and "Kg3" in right[0].text
    assert right[0].board.last_move == "h3g3"  # the opponent's reply is on the card
    assert right[0].board.caption == "Black to move, mate in 1"
    assert [a.command for a in right[0].actions] == ["hint", "giveup"]
    solved = await chat.ok("alice", "Rg1#")  # SAN with the mate sign
    assert solved[0].kind == "puzzle_solved"
    assert "alice solved it with Rg1#" in solved[0].text and "Tries: 2" in solved[0].text
    assert "Daily streak: 1 (best 1)" in solved[0].text
    attempt = await storage.get_attempt(post.id, (await storage.find_player(platform, "alice")).id)
    assert attempt.solved and attempt.tries == 2
    await chat.refused("alice", "Rg1", "puzzle_solved")


async def test_thai_notation_and_thai_replies(games, storage):
    chat = Chat(games, "room", "line")
    await storage.set_channel_settings(ChannelSettings("line", "room", language="th"))
    await daily_post(storage, "line", "room", MATE2)
    right = await chat.ok("somchai", "ร-ญ๒")
    assert "ถูกต้อง" in right[0].text
    solved = await chat.ok("somchai", "ร-ช๑")
    assert solved[0].kind == "puzzle_solved" and "ไขโจทย์สำเร็จ" in solved[0].text


async def test_two_people_solve_independently(games, storage):
    chat = Chat(games, "room", "discord")
    await daily_post(storage, "discord", "room", MATE2)
    await chat.ok("alice", "Rh2+")
    # Bob has not moved yet: he starts from the beginning; Alice's next move is her own.
    bob_wrong = await chat.ok("bob", "Rg1")
    assert bob_wrong[0].kind == "puzzle_wrong"
    bob_right = await chat.ok("bob", "Rh2")
    assert bob_right[0].kind == "puzzle"
    assert (await chat.ok("alice", "Rg1"))[0].kind == "puzzle_solved"
    solved = await chat.ok("bob", "Rg1")
    assert solved[0].kind == "puzzle_solved" and "Tries: 2" in solved[0].text


async def test_progress_survives_a_restart(games, storage, clock, database):
    from storage import open_storage

    from .support import make_services

    chat = Chat(games, "room", "line")
    await daily_post(storage, "line", "room", MATE2)
    await chat.ok("alice", "Rh2")
    async with await open_storage(database, clock=clock.now) as again:
        restarted, _ = make_services(again, clock)
        solved = await Chat(restarted, "room", "line").ok("alice", "Rg1")
        assert solved[0].kind == "puzzle_solved"


async def test_any_mate_is_accepted_on_the_last_move(games, storage):
    chat = Chat(games, "room", "console")
    await daily_post(storage, "console", "room", MATE2_TWO_ENDINGS)
    await chat.ok("alice", "Rc8+")
    solved = await chat.ok("alice", "f6")  # the stored line ends with d6=M#; f6=M# mates too
    assert solved[0].kind == "puzzle_solved"


async def test_material_puzzle_and_extra_puzzles_do_not_count_for_streaks(games, storage):
    chat = Chat(games, "room", "console")
    await storage.record_extra_post("console", "room", MATERIAL.id)
    solved = await chat.ok("alice", "Nxd6+")
    assert solved[0].kind == "puzzle_solved" and "do not count for streaks" in solved[0].text
    alice = await storage.find_player("console", "alice")
    assert (await storage.get_streak("console", "room", alice.id)).current == 0


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_hint_names_the_piece_and_giveup_reveals_the_line(games, storage, platform):
    chat = Chat(games, "room", platform)
    await daily_post(storage, platform, "room", MATE2)
    hint = await chat.ok("alice", "hint")
    assert hint[0].kind == "puzzle_hint" and hint[0].text == "Hint: move the Rua on c2."
    await chat.ok("alice", "Rh2")
    hint = await chat.ok("alice", "hint")
    assert hint[0].text == "Hint: move the Rua on a1."  # the hint follows the player's progress
    shown = await chat.ok("bob", "giveup")
    assert shown[0].kind == "puzzle_solution" and shown[0].private
    assert shown[0].text == "The solution: 61... Rh2+ 62. Kg3 Rg1#"
    await chat.refused("bob", "Rh2", "puzzle_given_up")
    await chat.refused("bob", "hint", "puzzle_given_up")
    assert (await chat.ok("alice", "Rg1"))[0].kind == "puzzle_solved"  # Alice still solves


async def test_words_in_thai_and_japanese(games, storage):
    chat = Chat(games, "room", "line")
    await daily_post(storage, "line", "room", MATE1)
    assert (await chat.ok("a", "ใบ้"))[0].kind == "puzzle_hint"
    assert (await chat.ok("b", "เฉลย"))[0].kind == "puzzle_solution"
    assert (await chat.ok("c", "答え"))[0].kind == "puzzle_solution"
    assert (await chat.ok("d", "ยอมแพ้โจทย์"))[0].kind == "puzzle_solution"
    assert (await chat.ok("e", "降参"))[0].kind == "puzzle_solution"


async def test_illegal_moves_are_refused_without_counting_a_try(games, storage):
    chat = Chat(games, "room", "console")
    post = await daily_post(storage, "console", "room", MATE1)
    await chat.ok("alice", "streak")  # alice is known
    await chat.refused("alice", "a1b2", "illegal.cannot_move_there")
    alice = await storage.find_player("console", "alice")
    assert await storage.get_attempt(post.id, alice.id) is None
    await chat.refused("bob", "Ra1", "illegal.no_such_move")
    assert await storage.find_player("console", "bob") is None  # a stranger's text makes no player


async def test_no_open_puzzle_leaves_moves_to_the_game_service(games, storage, clock):
    chat = Chat(games, "room", "console")
    await chat.refused("alice", "e3e4", "no_game")
    await chat.refused("alice", "hint", "no_puzzle")
    await chat.refused("alice", "giveup", "no_puzzle")
    await daily_post(storage, "console", "room", MATE1)
    clock.advance(days=3)  # too old to answer
    await chat.refused("alice", "Ra8", "no_game")


async def test_chatter_in_a_group_is_ignored(games, storage):
    from bot.messages import Incoming, User

    await daily_post(storage, "line", "group", MATE1)
    msg = Incoming("line", "group", User("u", "u"), "hello everyone", addressed=False)
    assert await games.handle(msg) == []
    msg = Incoming("line", "group", User("u", "u"), "Ra8", addressed=False)
    assert (await games.handle(msg))[0].kind == "puzzle_solved"  # moves need no address


async def test_an_active_game_takes_bare_moves_and_the_hint(games, storage):
    chat = Chat(games, "room", "console")
    await daily_post(storage, "console", "room", MATE1)
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    replies = await chat.ok("alice", "e3e4")
    assert replies[0].kind == "game"
    await chat.refused("alice", "hint", "hint_bot_only")  # the engines' hint, for the game
    await chat.ok("bob", "resign")
    assert (await chat.ok("alice", "Ra8"))[0].kind == "puzzle_solved"


async def test_extra_puzzle_on_demand_reveals_the_previous_extra(games, storage):
    chat = Chat(games, "room", "discord")
    first = await chat.ok("alice", "puzzle")
    assert first[0].kind == "puzzle" and "Extra puzzle" in first[0].text
    assert first[0].board.caption.endswith(("mate in 1", "mate in 2", "win material"))
    second = await chat.ok("alice", "puzzle")
    assert "Solution of the previous puzzle" in second[0].text
    seen = await storage.posted_puzzle_ids("discord", "room")
    assert len(seen) == 2
    await chat.ok("alice", "puzzle")
    await chat.ok("alice", "puzzle")
    await chat.refused("alice", "puzzle", "puzzle_bank_empty")  # four puzzles, never one twice


async def test_leaderboard_and_streak_commands(games, storage, clock):
    chat = Chat(games, "room", "console")
    await daily_post(storage, "console", "room", MATE1)
    await chat.ok("bob", "Ra7")
    await chat.ok("bob", "Ra8")
    await chat.ok("alice", "Ra8")
    top = await chat.ok("carol", "puzzletop")
    assert top[0].kind == "puzzle_top"
    lines = top[0].text.splitlines()
    assert lines[:3] == ["Puzzles solved today:", "1. alice: 1 solved, tries: 1", "2. bob: 1 solved, tries: 2"]
    assert lines[3] == "Puzzles solved, all time:"
    streak = await chat.ok("alice", "streak")
    assert streak[0].text == "alice: daily streak 1 (best 1)."
    clock.advance(days=2)
    assert (await chat.ok("alice", "streak"))[0].text == "alice: daily streak 0 (best 1)."
    assert "nobody yet" in (await chat.ok("alice", "puzzletop"))[0].text


async def test_a_real_card_is_a_png_with_the_caption(storage, clock):
    from bot.services.puzzles import PuzzleService, draw_card

    from .support import Settings

    service = PuzzleService(storage, Settings(language="th"), clock=clock, render=draw_card)
    await storage.upsert_puzzles([MATE2])
    await storage.subscribe("line", "room", time(0, 0), "Asia/Bangkok", "th")
    clock.advance(hours=1)
    notices = await daily_posts(service)
    assert len(notices) == 1
    reply = notices[0].reply
    assert reply.kind == "puzzle" and reply.image is not None and reply.image[:8] == b"\x89PNG\r\n\x1a\n"
    assert reply.board is not None
    assert reply.board.caption == "ดำเดิน รุกจนใน 2 ตา" and reply.board.flip  # seen from Black's side
    assert "โจทย์ประจำวันจันทร์" in reply.text
    assert timedelta(0) <= clock.now() - (await storage.latest_post("line", "room")).posted


async def test_puzzle_help_lists_the_puzzle_commands(games):
    for text, language in (("puzzle help", "en"), ("โจทย์ ช่วย", "th"), ("パズル ヘルプ", "ja")):
        chat = Chat(games, f"room-{language}", "console")
        reply = (await chat.say("alice", text, locale=language))[0]
        assert reply.kind == "help" and reply.language == language
        assert len(reply.text.splitlines()) == 7 + 5  # the daily puzzle's, then training's (served by rating, modes)
