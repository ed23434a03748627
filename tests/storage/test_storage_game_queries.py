"""Queries over games: due deadlines, reminders and challenges, expiring challenges, a player's
and a chat's finished games (the archive), a chat's last game and players, engine games."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

from storage import Game, GameChanges, NewGame, NewMove, Player, Seat, Storage

from .storage_helpers import START_FEN, FakeClock, MakeGame, challenge, sqlite_only


async def test_due_deadlines_and_reminders(
    storage: Storage, make_game: MakeGame, clock: FakeClock
) -> None:
    start = clock.now

    async def timed(channel: str, deadline_s: int, status: str = "active") -> int:
        deadline = start + timedelta(seconds=deadline_s)
        game = await make_game(
            channel=channel,
            deadline=deadline,
            remind_at=deadline - timedelta(seconds=deadline_s // 5),
        )
        if status != "active":
            await storage.update_game(game.id, game.version, GameChanges(status="aborted"))
        return game.id

    soon, later, gone = await timed("a", 100), await timed("b", 300), await timed("c", 50, "x")
    await make_game(channel="untimed")

    assert await storage.due_deadlines(start) == []
    assert [g.id for g in await storage.due_deadlines(start + timedelta(seconds=100))] == [soon]
    due = await storage.due_deadlines(start + timedelta(hours=1))
    assert [g.id for g in due] == [soon, later] and gone not in [g.id for g in due]

    assert await storage.due_reminders(start + timedelta(seconds=79)) == []
    reminders = await storage.due_reminders(start + timedelta(seconds=250))
    assert [g.id for g in reminders] == [later]  # `soon` is past its deadline already
    game = reminders[0]
    await storage.update_game(game.id, game.version, GameChanges(reminded=True))
    assert await storage.due_reminders(start + timedelta(seconds=250)) == []


async def test_expire_challenges(
    storage: Storage, alice: Player, make_game: MakeGame, clock: FakeClock
) -> None:
    old = await storage.create_game(challenge(alice, channel="old"))
    clock.advance(600)
    fresh = await storage.create_game(challenge(alice, channel="fresh"))
    playing = await make_game(channel="playing")

    expired = await storage.expire_challenges(clock.now - timedelta(seconds=300))
    assert [(g.id, g.status, g.reason, g.version) for g in expired] == [
        (old.id, "aborted", "expired", 2)
    ]
    assert (await storage.get_game(fresh.id)).status == "challenge"
    assert (await storage.get_game(playing.id)) == playing
    assert await storage.active_game("discord", "old") is None


async def test_finished_games_newest_first_with_paging(
    storage: Storage, alice: Player, bob: Player, make_game: MakeGame
) -> None:
    carol = await storage.get_or_create_player("discord", "300", "Carol")
    ids = []
    for n, (white, black) in enumerate([(alice, bob), (bob, alice), (carol, bob), (alice, carol)]):
        game = await make_game(white=Seat.human(white.id), black=Seat.human(black.id))
        game = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"))
        await storage.update_game(
            game.id, game.version, GameChanges(status="finished", result="0-1", reason=f"r{n}")
        )
        ids.append(game.id)
    await make_game()  # still active: not history

    history = await storage.finished_games(alice.id)
    assert [g.id for g in history] == [ids[3], ids[1], ids[0]]
    assert all(len(g.moves) == 1 for g in history)
    page = await storage.finished_games(alice.id, limit=1, before_id=ids[3])
    assert [g.id for g in page] == [ids[1]]


async def finish(storage: Storage, game: Game, *moves: NewMove) -> Game:
    for move in moves:
        game = await storage.append_move(game.id, game.version, move)
    return await storage.update_game(
        game.id, game.version, GameChanges(status="finished", result="1-0", reason="resign")
    )


async def test_channel_games_are_the_chat_s_finished_games_newest_first(
    storage: Storage, alice: Player, make_game: MakeGame
) -> None:
    first = await finish(storage, await make_game(), NewMove("e3e4", "e4", "w"), NewMove("d6d5", "d5", "b"))
    await finish(storage, await make_game(channel="chan-2"))  # another chat
    await finish(storage, await make_game(platform="line"))  # the same name on another platform
    aborted = await make_game()
    await storage.update_game(aborted.id, aborted.version, GameChanges(status="aborted", reason="expired"))
    offered = await storage.create_game(challenge(alice))
    await storage.update_game(offered.id, offered.version, GameChanges(status="aborted", reason="declined"))
    second = await finish(storage, await make_game(), NewMove("a3a4", "a4", "w"))
    await make_game()  # in play: not archived yet

    archive = await storage.channel_games("discord", "chan-1")
    assert archive == [await storage.get_game(second.id), await storage.get_game(first.id)]
    assert [[m.uci for m in g.moves] for g in archive] == [["a3a4"], ["e3e4", "d6d5"]]
    assert [g.channel for g in await storage.channel_games("discord", "chan-2")] == ["chan-2"]
    assert [g.platform for g in await storage.channel_games("line", "chan-1")] == ["line"]
    assert await storage.channel_games("discord", "chan-9") == []


async def test_every_chat_s_finished_games_oldest_first_after_an_id(storage: Storage, make_game: MakeGame) -> None:
    ids = [(await finish(storage, await make_game(channel=f"chan-{n}", platform=platform),
                         NewMove("e3e4", "e4", "w"))).id
           for n, platform in enumerate(["discord", "line", "discord", "line", "discord"])]
    await make_game(channel="in-play")  # not finished: not given
    pages: list[list[int]] = []
    after = 0
    while page := await storage.finished_games_after(after, limit=2):
        pages.append([g.id for g in page])
        after = page[-1].id
    assert pages == [ids[:2], ids[2:4], ids[4:]]
    assert [[m.uci for m in g.moves] for g in await storage.finished_games_after(ids[3])] == [["e3e4"]]


async def test_channel_games_page_with_before_id(storage: Storage, make_game: MakeGame) -> None:
    ids = [(await finish(storage, await make_game())).id for _ in range(12)]
    newest_first = ids[::-1]

    assert [g.id for g in await storage.channel_games("discord", "chan-1")] == newest_first[:10]  # 10 a page
    pages: list[list[int]] = []
    before: int | None = None
    while page := await storage.channel_games("discord", "chan-1", limit=5, before_id=before):
        pages.append([g.id for g in page])
        before = page[-1].id
    assert pages == [newest_first[:5], newest_first[5:10], newest_first[10:]]
    assert [g.id for g in await storage.channel_games("discord", "chan-1", before_id=ids[1])] == [ids[0]]
    assert [g.id for g in await storage.channel_games("discord", "chan-1", before_id=ids[5] + 1, limit=2)] == [
        ids[5], ids[4],
    ]


@sqlite_only
async def test_a_page_of_the_archive_reads_the_finished_games_index(storage: Storage, db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    try:
        plan = conn.execute(
            """EXPLAIN QUERY PLAN SELECT * FROM games
               WHERE platform = ? AND channel = ? AND status = 'finished' AND id < ?
               ORDER BY id DESC LIMIT ?""",
            ("discord", "chan-1", 100, 10),
        ).fetchall()
    finally:
        conn.close()
    assert [row[-1] for row in plan] == [
        "SEARCH games USING INDEX games_finished_per_channel (platform=? AND channel=? AND id<?)"
    ]


async def test_last_game_is_the_newest_in_any_status(
    storage: Storage, alice: Player, make_game: MakeGame
) -> None:
    assert await storage.last_game("discord", "chan-1") is None
    first = await make_game()
    first = await storage.update_game(
        first.id, first.version, GameChanges(status="finished", result="0-1", reason="resign")
    )
    assert await storage.last_game("discord", "chan-1") == first
    second = await storage.create_game(challenge(alice))
    assert await storage.last_game("discord", "chan-1") == second
    assert await storage.last_game("line", "chan-1") is None


async def test_engine_games_are_active_games_with_an_engine_seat_least_recently_updated_first(
    storage: Storage, alice: Player, bob: Player, make_game: MakeGame, clock: FakeClock
) -> None:
    engine_black = await make_game(channel="a", black=Seat.engine(3))
    clock.advance(1)
    engine_white = await make_game(channel="b", white=Seat.engine(5), platform="line")
    await make_game(channel="c")  # two people
    await storage.create_game(challenge(alice, channel="d"))  # a challenge, not active
    finished = await make_game(channel="e", black=Seat.engine(1))
    await storage.update_game(
        finished.id, finished.version, GameChanges(status="finished", result="1-0")
    )
    clock.advance(1)
    engine_black = await storage.append_move(
        engine_black.id, engine_black.version, NewMove("e3e4", "e4", "w")
    )

    assert await storage.engine_games() == [engine_white, engine_black]
    assert await storage.engine_games("discord") == [engine_black]
    assert await storage.engine_games("console") == []


async def test_due_challenges_only_reads(
    storage: Storage, alice: Player, make_game: MakeGame, clock: FakeClock
) -> None:
    oldest = await storage.create_game(challenge(alice, channel="oldest"))
    clock.advance(60)
    old = await storage.create_game(challenge(alice, channel="old"))
    clock.advance(600)
    await storage.create_game(challenge(alice, channel="fresh"))
    await make_game(channel="playing")

    before = clock.now - timedelta(seconds=300)
    assert await storage.due_challenges(before) == [oldest, old]
    assert await storage.due_challenges(before, platform="line") == []
    assert await storage.due_challenges(before) == [oldest, old]  # nothing changed
    assert await storage.due_challenges(oldest.created) == []  # created before, not at


async def test_channel_players_most_recent_game_first_each_once(
    storage: Storage, alice: Player, bob: Player, make_game: MakeGame
) -> None:
    carol = await storage.get_or_create_player("discord", "300", "Carol")
    dave = await storage.get_or_create_player("discord", "400", "Dave")
    first = await make_game(channel="room", black=Seat.engine(2))  # Alice alone
    await storage.update_game(first.id, first.version, GameChanges(status="aborted"))
    second = await make_game(channel="room", white=Seat.human(carol.id))  # Carol, Bob
    await storage.update_game(
        second.id, second.version, GameChanges(status="finished", result="0-1")
    )
    await make_game(channel="elsewhere", white=Seat.human(dave.id))
    invited = NewGame(platform="discord", channel="room", white=Seat.human(bob.id),
                      black=Seat.human(dave.id), start_fen=START_FEN, promotion="forced",
                      perpetual="forbid", move_seconds=60, created_by=bob.id)
    await storage.create_game(invited)  # Bob invites Dave

    players = await storage.channel_players("discord", "room")
    assert [p.display_name for p in players] == ["Bob", "Dave", "Carol", "Alice"]
    assert players[0] == await storage.get_player(bob.id)
    assert await storage.channel_players("line", "room") == []
    assert await storage.channel_players("discord", "empty") == []
