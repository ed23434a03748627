"""Whole games through the game service, on real SQLite files."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.config import Settings
from bot.engines import RandomMover
from bot.services.games import GameService
from makruk import Board
from storage import open_storage
from storage.records import NewGame, Seat

from .support import Chat, no_image, tick


async def seed_game(storage, clock, fen, *, white="alice", black="bob", channel="c1", rated=True,
                    promotion="forced"):
    a = await storage.get_or_create_player("console", white, white)
    b = await storage.get_or_create_player("console", black, black)
    now = clock.now()
    return await storage.create_game(NewGame(
        platform="console", channel=channel, community="guild", white=Seat.human(a.id), black=Seat.human(b.id),
        start_fen=fen, promotion=promotion, perpetual="forbid", move_seconds=86400, rated=rated,
        created_by=a.id, status="active", deadline=now + timedelta(days=1), remind_at=now + timedelta(hours=19),
    ))


async def test_challenge_accept_and_moves_in_three_notations(chat, storage):
    replies = await chat.ok("alice", "new @bob", "bob")
    assert replies[0].kind == "challenge"
    assert [a.command for a in replies[0].actions] == ["accept", "decline"]
    await chat.refused("carol", "accept", "not_invited")
    await chat.refused("alice", "accept", "own_challenge")
    await chat.ok("bob", "accept")
    await chat.ok("alice", "e3e4")
    await chat.ok("bob", "!move Nd7")
    replies = await chat.ok("alice", "/ม-ง๒")
    game = replies[0].game
    assert game.ply == 3 and game.turn == "b" and game.white == "alice" and game.black == "bob"
    await chat.ok("bob", "ｅ６ｅ５")  # full width, as a Japanese keyboard types it
    stored = await storage.active_game("console", "c1")
    assert [m.uci for m in stored.moves] == ["e3e4", "b8d7", "b1d2", "e6e5"]


async def test_only_players_on_their_turn_move_and_nothing_changes_otherwise(chat, storage):
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    before = await storage.active_game("console", "c1")
    await chat.refused("bob", "e6e5", "not_your_turn")
    await chat.refused("carol", "e3e4", "not_playing")
    await chat.refused("alice", "e3e5", "illegal.cannot_move_there")
    await chat.refused("alice", "e6e5", "illegal.not_your_piece")
    await chat.refused("alice", "a1a3", "illegal.own_piece")
    await chat.refused("alice", "move zz9", "not_a_move")
    await chat.refused("alice", "/frobnicate", "unknown_command")
    await chat.refused("alice", "x" * 600, "too_long")
    after = await storage.active_game("console", "c1")
    assert after.version == before.version and after.moves == before.moves


async def test_checkmate_ends_the_game_and_updates_ratings(chat, storage, clock):
    await seed_game(storage, clock, "4k3/R7/4K3/8/8/8/8/8 w - - 0 1")
    replies = await chat.ok("alice", "Ra8")
    assert replies[0].kind == "game_over"
    assert replies[0].game.result == "1-0" and replies[0].game.reason == "checkmate"
    assert "Checkmate" in replies[0].text
    alice, bob = [await storage.find_player("console", name) for name in ("alice", "bob")]
    alice, bob = [await storage.get_rating(p.id, "makruk") for p in (alice, bob)]
    assert alice.rating > 1500 > bob.rating and alice.games_played == bob.games_played == 1
    assert await storage.active_game("console", "c1") is None
    await chat.refused("bob", "e8d8", "no_game")


async def test_resignation_and_draw_by_agreement(chat):
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    await chat.refused("alice", "accept", "nothing_to_accept")
    replies = await chat.ok("alice", "draw")
    assert "offers a draw" in replies[0].text
    await chat.refused("alice", "draw", "draw_already_offered")
    replies = await chat.ok("bob", "draw")
    assert replies[0].game.result == "1/2-1/2" and replies[0].game.reason == "agreement"

    await chat.ok("carol", "new")
    await chat.ok("dave", "accept")
    replies = await chat.ok("dave", "resign")
    assert replies[0].game.result == "1-0" and replies[0].game.reason == "resignation"


async def test_counting_draw_after_the_limit(chat, storage, clock):
    # Two Rua against a bare Khun: 8 - 4 pieces = 4 moves to mate.
    await seed_game(storage, clock, "7k/8/8/8/8/8/R7/1R2K3 b - - 0 1")
    await chat.refused("alice", "count", "not_your_turn")
    replies = await chat.ok("bob", "count")
    assert "4" in replies[0].text
    moves = ["h8g8", "a2a3", "g8h8", "a3a2", "h8g8", "a2a3", "g8h8"]
    for i, move in enumerate(moves):
        await chat.ok("bob" if i % 2 == 0 else "alice", move)
    replies = await chat.ok("alice", "a3a2")
    assert replies[0].game.result == "1/2-1/2" and replies[0].game.reason == "counting"


async def test_count_offered_only_when_entitled(chat, storage, clock):
    await seed_game(storage, clock, "7k/8/8/8/8/8/R7/1R2K3 b - - 0 1")
    replies = await chat.ok("bob", "board")
    assert "count" in [a.command for a in replies[0].actions]
    await chat.ok("bob", "count")
    await chat.ok("bob", "h8g8")
    replies = await chat.ok("alice", "board")
    assert "count" not in [a.command for a in replies[0].actions]


async def test_loss_on_time_with_reminder_first(chat, service, clock):
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    await chat.ok("alice", "e3e4")
    clock.advance(hours=20)  # past 80 % of the 24 h
    notices = await tick(service)
    assert len(notices) == 1 and "bob" in notices[0].reply.text
    assert notices[0].reply.mentions[0].id == "bob"
    assert await tick(service) == []  # reminded once
    clock.advance(hours=5)
    notices = await tick(service)
    assert len(notices) == 1
    game = notices[0].reply.game
    assert game is not None and game.result == "1-0" and game.reason == "timeout"


async def test_challenge_expires_after_fifteen_minutes(chat, service, clock):
    await chat.ok("alice", "new")
    clock.advance(minutes=14)
    assert await tick(service) == []
    clock.advance(minutes=2)
    notices = await tick(service)
    assert len(notices) == 1 and "expired" in notices[0].reply.text
    await chat.refused("bob", "accept", "no_game")


async def test_takeback_request_accepted_by_the_opponent(chat, storage):
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    await chat.ok("alice", "e3e4")
    await chat.ok("bob", "e6e5")
    await chat.ok("alice", "undo")
    await chat.refused("alice", "undo", "undo_already_asked")
    replies = await chat.ok("bob", "accept")
    # Alice's move and Bob's reply to it are taken back: Alice is to move again.
    assert replies[0].game.ply == 0 and replies[0].game.turn == "w"
    game = await storage.active_game("console", "c1")
    assert game.moves == ()
    await chat.ok("alice", "d3d4")
    await chat.ok("alice", "undo")  # Bob has not answered yet: only Alice's move goes
    replies = await chat.ok("bob", "undo")
    assert replies[0].game.ply == 0


async def test_game_against_the_bot_and_takeback(chat):
    replies = await chat.ok("alice", "new bot")
    assert replies[0].game.white == "alice"
    replies = await chat.ok("alice", "e3e4")
    assert len(replies) == 2 and replies[1].game.ply == 2  # the bot answered
    replies = await chat.ok("alice", "undo")
    assert replies[0].game.ply == 0


async def test_bot_plays_white_when_asked(chat):
    replies = await chat.ok("alice", "new bot black")
    assert replies[-1].game.ply == 1 and replies[-1].game.black == "alice"


async def test_restart_mid_game_continues_from_the_file(database, clock):
    settings = Settings()
    async with await open_storage(database, clock=clock.now) as storage:
        chat = Chat(GameService(storage, settings, clock=clock, engine=RandomMover(1), render=no_image))
        await chat.ok("alice", "new @bob", "bob")
        await chat.ok("bob", "accept")
        await chat.ok("alice", "e3e4")
    async with await open_storage(database, clock=clock.now) as storage:
        chat = Chat(GameService(storage, settings, clock=clock, engine=RandomMover(1), render=no_image))
        replies = await chat.ok("bob", "e6e5")
        assert replies[0].game.ply == 2


async def test_same_moment_messages_apply_one_after_the_other(chat, storage):
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    results = await asyncio.gather(*(chat.say("alice", "e3e4") for _ in range(5)))
    errors = sorted(r[0].error or "" for r in results)
    assert errors == ["", "not_your_turn", "not_your_turn", "not_your_turn", "not_your_turn"]
    game = await storage.active_game("console", "c1")
    assert [m.uci for m in game.moves] == ["e3e4"]


async def test_two_processes_on_one_file_conflict_cleanly(database, clock):
    settings = Settings()
    async with await open_storage(database, clock=clock.now) as s1, await open_storage(database, clock=clock.now) as s2:
        one = Chat(GameService(s1, settings, clock=clock, render=no_image))
        two = Chat(GameService(s2, settings, clock=clock, render=no_image))
        await one.ok("alice", "new @bob", "bob")
        await one.ok("bob", "accept")
        results = await asyncio.gather(one.say("alice", "e3e4"), two.say("alice", "c3c4"))
        outcomes = sorted(r[0].error or "ok" for r in results)
        assert outcomes in (["conflict", "ok"], ["not_your_turn", "ok"])
        game = await s1.active_game("console", "c1")
        assert game is not None and len(game.moves) == 1


async def test_history_export_and_languages(chat):
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    await chat.ok("alice", "e3e4")
    await chat.ok("bob", "b8d7")
    replies = await chat.ok("carol", "history")
    assert "1. e4 Nd7" in replies[0].text
    replies = await chat.ok("carol", "history thai")
    assert "จ๔" in replies[0].text and "ม-ง๗" in replies[0].text
    replies = await chat.ok("carol", "export")
    pgn = replies[0].text
    assert '[Variant "makruk"]' in pgn and '[Result "*"]' in pgn and "1. e4 Nd7" in pgn
    assert "[FEN" not in pgn
    replies = await chat.ok("carol", "ภาษา th")
    assert replies[0].language == "th"
    replies = await chat.say("bob", "e3e4")
    assert replies[0].error == "not_your_turn" and replies[0].text == "ยังไม่ถึงตาคุณ"
    replies = await chat.ok("carol", "言語 ja")
    replies = await chat.say("bob", "e3e4")
    assert replies[0].text == "あなたの手番ではありません。"


async def test_export_of_a_finished_game_from_a_position(chat, storage, clock):
    fen = "4k3/R7/4K3/8/8/8/8/8 w - - 0 1"
    await seed_game(storage, clock, fen)
    await chat.ok("alice", "Ra8")
    replies = await chat.ok("alice", "export")
    assert f'[FEN "{fen}"]' in replies[0].text and '[Result "1-0"]' in replies[0].text


async def test_locale_decides_the_language_until_the_channel_sets_one(chat):
    replies = await chat.say("alice", "resign", locale="ja")
    assert replies[0].language == "ja"
    replies = await chat.say("alice", "resign", locale="th-TH")
    assert replies[0].language == "th"


async def test_rating_and_leaderboard(chat, storage, clock):
    await seed_game(storage, clock, "4k3/R7/4K3/8/8/8/8/8 w - - 0 1")
    await chat.ok("alice", "Ra8")
    replies = await chat.ok("alice", "rating")
    assert "alice" in replies[0].text and "rated games: 1." in replies[0].text
    replies = await chat.ok("carol", "top")
    lines = replies[0].text.splitlines()
    assert lines[1].startswith("1. alice") and lines[2].startswith("2. bob")


async def test_ambiguous_move_lists_the_candidates(chat, storage, clock):
    await seed_game(storage, clock, "4k3/8/8/8/8/8/1N3N2/3K4 w - - 0 1")
    reply = await chat.refused("alice", "Nd3", "ambiguous")
    assert "Nbd3" in reply.text and "Nfd3" in reply.text


async def test_group_chatter_is_ignored_but_addressed_text_answered(service):
    from bot.messages import Incoming, User

    chatter = Incoming("line", "g1", User("u1", "Somchai"), "สวัสดีครับ ทุกคน", addressed=False)
    assert await service.handle(chatter) == []
    addressed = Incoming("line", "g1", User("u1", "Somchai"), "สวัสดีครับ", addressed=True)
    replies = await service.handle(addressed)
    assert replies[0].error == "unknown_command" and replies[0].language == "th"


async def test_engine_board_is_the_same_after_a_reload(chat, storage, service):
    await chat.ok("alice", "new bot 1")
    for _ in range(5):
        game = await storage.active_game("console", "c1")
        board = Board(game.start_fen)
        for m in game.moves:
            board.push(board.parse_move(m.uci))
        move = board.legal_moves()[0].uci()
        await chat.ok("alice", move)
    game = await storage.active_game("console", "c1")
    assert len(game.moves) == 10


async def test_scheduler_delivers_what_came_due_while_the_bot_was_down(chat, service, clock):
    from bot.scheduler import Scheduler

    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    clock.advance(days=3)  # the bot was down past the deadline
    delivered = []

    async def deliver(notice):
        delivered.append(notice)

    async def broken_job():
        raise RuntimeError("a failing job must not stop the others")

    scheduler = Scheduler([broken_job, *service.jobs("console", service.outbox("console", deliver))])
    assert await scheduler.run_once() == 1
    assert delivered[0].reply.game.reason == "timeout" and delivered[0].channel == "c1"


async def test_move_choices_only_for_the_player_to_move(chat, service):
    from bot.messages import User

    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    choices = await service.move_choices("console", "c1", User("alice", "alice"))
    assert len(choices) == 23
    ma = next(c for c in choices if c.uci == "b1d2")
    assert (ma.san, ma.thai, ma.piece, ma.from_square, ma.to_square) == ("Nd2", "ม-ง๒", "ma", 1, 11)
    assert await service.move_choices("console", "c1", User("bob", "bob")) == []
    assert await service.move_choices("console", "c1", User("carol", "carol")) == []


async def test_select_marks_the_destinations_of_a_piece(chat):
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    replies = await chat.ok("alice", "select b1")
    assert replies[0].board.selected == "b1" and set(replies[0].board.targets) == {"d2"}
    replies = await chat.ok("alice", "เลือก ก๑")
    assert set(replies[0].board.targets) == {"a2"}
    await chat.refused("alice", "select b8", "cannot_select")
    await chat.refused("alice", "select z9", "bad_square")
    await chat.refused("bob", "select b8", "not_your_turn")


async def test_tick_takes_only_its_own_platforms_games(chat, service, clock):
    line = Chat(service, channel="group:G1", platform="line")
    await chat.ok("alice", "new")
    await line.ok("somchai", "new")
    clock.advance(minutes=20)
    notices = await tick(service, platform="line")
    assert [(n.platform, n.channel) for n in notices] == [("line", "group:G1")]
    notices = await tick(service, platform="console")
    assert [(n.platform, n.channel) for n in notices] == [("console", "c1")]


async def test_unaddressed_refusals_from_bystanders_stay_silent(chat, service):
    from bot.messages import Incoming, User

    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    bystander = Incoming("console", "c1", User("carol", "carol"), "e3e4", addressed=False)
    assert await service.handle(bystander) == []
    assert await service.handle(Incoming("console", "c1", User("carol", "carol"), "resign", addressed=False)) == []
    player = Incoming("console", "c1", User("alice", "alice"), "e3e5", addressed=False)
    replies = await service.handle(player)
    assert replies[0].error == "illegal.cannot_move_there"  # a player still hears about a bad move
