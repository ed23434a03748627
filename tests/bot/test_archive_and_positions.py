"""Players' own games in chat: ``notation san|thai|playok``, ``new ... from FEN`` with its
refusals, the ``games`` archive with ``export ID`` and ``export ID gif``."""

from __future__ import annotations

import pytest

from makruk.pgn import read_games


async def finish_a_game(chat, *moves: str) -> None:
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    for i, move in enumerate(moves):
        await chat.ok("alice" if i % 2 == 0 else "bob", move)
    await chat.ok("bob" if len(moves) % 2 == 0 else "alice", "resign")


async def test_notation_chooses_how_moves_are_written_back(chat):
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    assert "alice played Be2" not in (await chat.ok("alice", "f1e2"))[0].text
    done = (await chat.ok("alice", "notation playok"))[0].text
    assert "PlayOK" in done
    assert "bob played Bd7" in (await chat.ok("bob", "Bd7"))[0].text  # read and written in PlayOK's letters
    await chat.ok("alice", "notation thai")
    assert "alice played" in (moved := (await chat.ok("alice", "Nd2"))[0].text) and "ม-ง๒" in moved
    history = (await chat.ok("alice", "history playok"))[0].text
    assert "Be2" in history and "Bd7" in history
    await chat.refused("alice", "notation fancy", "bad_notation")


async def test_new_from_a_fen_starts_there_and_bad_positions_are_refused_with_reasons(chat, storage):
    fen = "4k3/8/8/8/8/8/3R4/4K3 w - - 0 1"
    await chat.ok("alice", f"new bot 1 from {fen}")
    game = await storage.active_game("console", "c1")
    assert game is not None and game.start_fen == fen
    await chat.ok("alice", "resign")
    for text, code in [
        ("new @bob from 4k3/8/8/8/8/8/8/4K2K w - - 0 1", "fen.fen_khuns"),
        ("new @bob from 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "fen.fen_check"),
        ("new @bob from P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "fen.fen_bia_rank"),
        ("new @bob from k7/2K5/2N5/8/8/8/8/8 b - - 0 1", "fen.fen_game_over"),  # stalemate: nothing to play
        ("new @bob from hello", "fen.invalid_fen"),
        ("new @bob from", "fen.invalid_fen"),
    ]:
        refusal = await chat.refused("alice", text, code, "bob")
        assert refusal.text and "Traceback" not in refusal.text
    assert await storage.active_game("console", "c1") is None  # nothing was started


async def test_games_lists_finished_games_and_export_takes_one_by_its_number(chat, storage):
    await finish_a_game(chat, "e3e4", "d6d5")
    await finish_a_game(chat, "b1d2")
    listing = (await chat.ok("carol", "games"))[0].text.splitlines()
    assert listing[0] == "Recent games here:" and len(listing) == 3
    newest, oldest = listing[1], listing[2]
    assert newest.startswith("#2 ") and oldest.startswith("#1 ") and "alice – bob" in oldest
    exported = (await chat.ok("carol", "export 1"))[0]
    [game] = read_games(exported.text)
    assert [m.uci() for m in game.moves] == ["e3e4", "d6d5"] and game.result == "1-0"
    await chat.refused("carol", "export 99", "no_such_game")
    await chat.refused("carol", "export one", "bad_option")


async def test_export_gif_is_a_replay_of_the_game(chat):
    await finish_a_game(chat, "e3e4", "d6d5", "b1d2")
    [replay] = await chat.ok("alice", "export 1 gif")
    assert replay.kind == "replay" and replay.image is not None and replay.image.startswith(b"GIF8")
    assert "#1" in replay.text


@pytest.mark.parametrize("platform_channel", ["c2"])
async def test_another_chat_s_game_is_not_shown(chat, service, platform_channel):
    from .support import Chat

    await finish_a_game(chat, "e3e4")
    other = Chat(service, channel=platform_channel)
    await other.refused("alice", "export 1", "no_such_game")
    assert (await other.ok("alice", "games"))[0].text == "No game has finished here yet."
