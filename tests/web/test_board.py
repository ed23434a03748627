"""The web board over HTTP and its WebSocket, on a real server and a real SQLite file."""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import timedelta
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse

from bot.messages import Notice
from storage import NewBoard, NewGame, NewRound, NewTournament, Seat

from .conftest import Site


async def next_of(ws: ClientWebSocketResponse, kind: str, timeout: float = 2.0, **where: Any) -> dict[str, Any]:
    """The next message of type ``kind`` (with the fields of ``where``) the socket receives."""
    async def wait() -> dict[str, Any]:
        while True:
            data = json.loads((await ws.receive()).data)
            if data["type"] == kind and all(data.get(k) == v for k, v in where.items()):
                return data
    return await asyncio.wait_for(wait(), timeout)


async def signed_in(site: Site, game_id: int, user: str) -> ClientWebSocketResponse:
    ws = await site.client.ws_connect(f"/g/{game_id}/ws")
    await next_of(ws, "state")
    await ws.send_json({"type": "auth", "token": site.token(game_id, user)})
    assert (await next_of(ws, "auth"))["ok"] is True
    return ws


async def test_the_state_for_a_player_and_for_a_watcher(site: Site) -> None:
    game_id = await site.new_game()
    watcher = await (await site.client.get(f"/g/{game_id}/state")).json()
    assert watcher["game"] == game_id and watcher["variant"] == "makruk" and watcher["turn"] == "w"
    assert watcher["viewer"] == {"side": None, "orientation": "w", "canMove": False}
    assert watcher["legal"] == [] and watcher["moves"] == [] and watcher["white"] == "ann"
    assert watcher["coords"]["files"][0] == "a" and watcher["clocks"] is None and watcher["positions"] is None
    assert "ann" in watcher["statusText"]
    white = await (await site.client.get(f"/g/{game_id}/state",
                                         headers={"Authorization": f"Bearer {site.token(game_id, 'ann')}"})).json()
    assert white["viewer"] == {"side": "w", "orientation": "w", "canMove": True}
    assert {"uci": "e3e4", "from": "e3", "to": "e4", "drop": None, "san": "e4"} in white["legal"]
    assert white["may"]["resign"] and white["may"]["draw"] and not white["may"]["accept"]
    black = await (await site.client.get(f"/g/{game_id}/state",
                                         headers={"Authorization": f"Bearer {site.token(game_id, 'bob')}"})).json()
    assert black["viewer"] == {"side": "b", "orientation": "b", "canMove": False} and black["legal"] == []


async def test_a_move_on_the_page_is_stored_and_announced_in_the_chat(site: Site) -> None:
    game_id = await site.new_game()
    ws = await signed_in(site, game_id, "ann")
    await ws.send_json({"type": "move", "move": "e3e4"})
    state = await next_of(ws, "state", turn="b")
    assert [m["uci"] for m in state["moves"]] == ["e3e4"] and state["viewer"]["canMove"] is False
    game = await site.games.storage.get_game(game_id)
    assert [m.uci for m in game.moves] == ["e3e4"]
    assert site.owed == ["console"]  # the door was asked to deliver now
    sent: list[Notice] = []

    async def send(notice: Notice) -> None:
        sent.append(notice)

    await site.games.outbox("console", send).drain()  # due at once: no door showed the answer
    assert [n.reply.kind for n in sent] == ["game"] and "ann" in sent[0].reply.text
    await ws.send_json({"type": "move", "move": "e6e5"})  # not ann's turn: refused, in the chat's words
    error = await next_of(ws, "error")
    assert error["code"] == "not_your_turn" and error["text"] == "It is not your turn."
    await ws.close()


async def test_a_move_typed_in_the_chat_shows_on_the_page_at_once(site: Site) -> None:
    game_id = await site.new_game()
    ws = await site.client.ws_connect(f"/g/{game_id}/ws")
    await next_of(ws, "state")
    started = asyncio.get_running_loop().time()
    await site.chat.ok("ann", "e3e4")
    state = await next_of(ws, "state", turn="b", timeout=1.0)
    assert state["lastMove"] == "e3e4" and asyncio.get_running_loop().time() - started < 1.0
    await ws.close()


async def test_a_change_made_by_another_process_shows_too(site: Site) -> None:
    game_id = await site.new_game()
    ws = await site.client.ws_connect(f"/g/{game_id}/ws")
    await next_of(ws, "state")
    site.games.feed.unsubscribe(site.board.hub._changed)  # as if another process stored it
    await site.chat.ok("ann", "e3e4")
    assert (await next_of(ws, "state", turn="b", timeout=1.0))["lastMove"] == "e3e4"
    await ws.close()


async def test_forged_expired_and_other_tokens_are_refused_and_change_nothing(site: Site) -> None:
    game_id = await site.new_game()
    other_game = game_id + 1
    good = site.token(game_id, "ann")
    forged = good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB")
    expired = site.token(game_id, "ann", lifetime=timedelta(seconds=-1))
    another = site.token(other_game, "ann")
    stranger = site.token(game_id, "eve")  # a good token, but eve does not play here
    for token, code in [(forged, "auth"), (expired, "auth"), (another, "auth"), ("junk", "auth"),
                        (stranger, "not_playing")]:
        ws = await site.client.ws_connect(f"/g/{game_id}/ws")
        await next_of(ws, "state")
        await ws.send_json({"type": "auth", "token": token})
        assert (await next_of(ws, "error"))["code"] == code
        await ws.send_json({"type": "move", "move": "e3e4"})
        assert (await next_of(ws, "error"))["code"] == "auth"
        await ws.close()
        if code == "auth":
            response = await site.client.get(f"/g/{game_id}/state", headers={"Authorization": f"Bearer {token}"})
            assert response.status == 401
    game = await site.games.storage.get_game(game_id)
    assert game.moves == () and game.status == "active"


async def test_a_game_that_does_not_exist_is_404(site: Site) -> None:
    page = await site.client.get("/g/4242")
    assert page.status == 404 and "There is no such game." in await page.text()
    assert (await site.client.get("/g/4242/state")).status == 404
    assert (await site.client.get("/g/4242/ws")).status == 404
    assert (await site.client.get("/g/nope")).status == 404


async def test_the_page_is_in_the_chats_language_and_carries_no_token(site: Site) -> None:
    game_id = await site.new_game()
    await site.chat.ok("ann", "lang th")
    html = await (await site.client.get(f"/g/{game_id}")).text()
    assert '<html lang="th">' in html and "ยอมแพ้" in html and "data-status" in html
    state = await (await site.client.get(f"/g/{game_id}/state")).json()
    assert state["coords"]["files"][0] == "ก" and state["coords"]["ranks"][0] == "๑"
    for asset in ("/web/static/board.js", "/web/static/view.js", "/web/static/pointer.js", "/web/static/board.css",
                  "/web/piece/M~.svg",
                  "/web/piece/k.svg"):
        assert (await site.client.get(asset)).status == 200, asset
    assert (await site.client.get("/web/static/..%2Fserver.py")).status == 404


async def test_watchers_are_counted(site: Site) -> None:
    game_id = await site.new_game()
    first = await site.client.ws_connect(f"/g/{game_id}/ws")
    await next_of(first, "state", watchers=1)
    second = await site.client.ws_connect(f"/g/{game_id}/ws")
    await next_of(second, "state", watchers=2)
    await next_of(first, "state", watchers=2)
    await second.close()
    await next_of(first, "state", watchers=1)
    await first.close()


async def test_a_fast_sender_is_slowed_not_dropped(site: Site) -> None:
    game_id = await site.new_game()
    ws = await site.client.ws_connect(f"/g/{game_id}/ws")
    await next_of(ws, "state")
    for _ in range(30):
        await ws.send_json({"type": "state"})
    assert (await next_of(ws, "error"))["code"] == "slow_down"
    await asyncio.sleep(1.0)  # the bucket fills again
    await ws.send_json({"type": "state"})
    assert (await next_of(ws, "state"))["game"] == game_id and not ws.closed
    await ws.close()


async def test_a_finished_game_offers_its_replay_pgn_and_gif(site: Site) -> None:
    game_id = await site.new_game()
    await site.chat.ok("ann", "e3e4")
    await site.chat.ok("bob", "resign")
    state = await (await site.client.get(f"/g/{game_id}/state")).json()
    assert state["status"] == "finished" and state["result"] == "1-0"
    assert len(state["positions"]) == 2 and state["positions"][0].startswith("rnsmksnr/")
    assert state["links"]["pgn"] == f"http://board.test/g/{game_id}/pgn"
    pgn = await (await site.client.get(f"/g/{game_id}/pgn")).text()
    assert '[Result "1-0"]' in pgn


async def test_draw_offer_and_accept_and_resign_from_two_pages(site: Site) -> None:
    game_id = await site.new_game()
    ann, bob = await signed_in(site, game_id, "ann"), await signed_in(site, game_id, "bob")
    await ann.send_json({"type": "draw"})
    offered = await next_of(bob, "state", drawOffer="w")
    assert offered["may"]["accept"] and "ann" in offered["statusText"]
    await bob.send_json({"type": "accept"})
    over = await next_of(ann, "state", status="finished")
    assert over["result"] == "1/2-1/2" and over["reason"] == "agreement" and over["legal"] == []
    await ann.send_json({"type": "resign"})
    assert (await next_of(ann, "error"))["code"] == "game_over"
    await ann.close()
    await bob.close()


async def test_sittuyin_hands_and_drops_come_from_the_server(site: Site) -> None:
    await site.chat.ok("ann", "new @bob white sittuyin", "bob")
    game = (await site.chat.ok("bob", "accept"))[-1].game
    assert game is not None
    state = await (await site.client.get(f"/g/{game.id}/state",
                                         headers={"Authorization": f"Bearer {site.token(game.id, 'ann')}"})).json()
    assert state["variant"] == "sittuyin" and state["hands"]["w"]["R"] == 2 and state["hands"]["b"]["k"] == 1
    drops = [m for m in state["legal"] if m["drop"] == "K"]
    assert drops and all(m["from"] is None and m["uci"] == f"K@{m['to']}" for m in drops)
    ws = await signed_in(site, game.id, "ann")
    await ws.send_json({"type": "move", "move": drops[0]["uci"]})
    after = await next_of(ws, "state", turn="b")
    assert after["hands"]["w"].get("K") is None and after["moves"][0]["uci"] == drops[0]["uci"]
    await ws.close()


async def test_unknown_messages_get_a_localized_error(site: Site) -> None:
    game_id = await site.new_game()
    ws = await site.client.ws_connect(f"/g/{game_id}/ws")
    await next_of(ws, "state")
    for bad in ("not json", json.dumps([1]), json.dumps({"type": "castle"}), json.dumps({"type": "move"})):
        await ws.send_str(bad)
        error = await next_of(ws, "error")
        assert error["code"] == "bad_message" and error["text"]
    await ws.close()


async def test_the_page_carries_a_watchers_state_and_no_markup_from_names(site: Site) -> None:
    game_id = await site.new_game(white="ann", black="x</script><b>")
    html = await (await site.client.get(f"/g/{game_id}")).text()
    assert "</script><b>" not in html and "<b>" not in html
    boot = html.split('<script id="boot" type="application/json">', 1)[1].split("</script>", 1)[0]
    data = json.loads(boot)
    assert data["game"] == game_id and data["state"]["black"] == "x</script><b>"
    assert data["state"]["viewer"]["side"] is None and data["text"]["resign"] == "Resign"


async def test_an_address_asking_too_often_is_told_to_wait(site: Site) -> None:
    game_id = await site.new_game()
    answers = [(await site.client.get(f"/g/{game_id}/state")).status for _ in range(80)]
    assert answers[0] == 200 and 429 in answers
    assert (await site.client.get("/web/static/board.css")).status == 200  # the page's files are not counted


async def test_stopping_closes_the_sockets(site: Site) -> None:
    game_id = await site.new_game()
    ws = await site.client.ws_connect(f"/g/{game_id}/ws")
    await next_of(ws, "state")
    await site.board.hub.stop()
    message = await asyncio.wait_for(ws.receive(), 2.0)
    assert message.type.name == "CLOSE" and message.data == 1001


async def test_against_the_bot_its_answer_reaches_the_page_and_no_token_is_logged(
        site: Site, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    await site.chat.ok("ann", "new bot white")
    game = await site.games.channel_game("console", "c1")
    assert game is not None
    token = site.token(game.id, "ann")
    ws = await signed_in(site, game.id, "ann")
    await ws.send_json({"type": "move", "move": "e3e4"})
    state = await next_of(ws, "state")
    while len(state["moves"]) < 2:  # the bot answers (in the same push, or the next)
        state = await next_of(ws, "state", timeout=5.0)
    assert len(state["moves"]) == 2 and state["turn"] == "w" and state["viewer"]["canMove"] and state["legal"]
    await ws.send_json({"type": "auth", "token": token[:-2] + "xx"})
    await next_of(ws, "error")
    await ws.close()
    assert token not in caplog.text and token.split(".")[1] not in caplog.text


async def test_a_move_on_the_page_is_the_pages_games_when_its_player_is_in_a_tournament(site: Site) -> None:
    """Ann also plays the chat's tournament, which her typed moves would be about; the page's
    moves are its own game's."""
    game_id = await site.new_game()
    storage = site.games.storage
    game = await storage.get_game(game_id)
    ann, cat = game.white, await storage.get_or_create_player(game.platform, "cat", "cat")
    assert ann is not None and ann.player_id is not None
    event = await storage.create_tournament(NewTournament(
        platform=game.platform, channel=game.channel, salt="abcdef", pairing_system="swiss", variant="makruk",
        rated=False, created_by=ann.player_id, move_seconds=86400, rounds=3))
    other = NewGame(platform=game.platform, channel=game.channel, white=ann, black=Seat.human(cat.id),
                    start_fen=game.start_fen, promotion=game.promotion, perpetual=game.perpetual,
                    move_seconds=game.move_seconds)
    _, [theirs] = await storage.store_round(event.id, event.version, NewRound(
        number=1, boards=(NewBoard(1, ann.player_id, cat.id, game=other),)))
    ws = await signed_in(site, game_id, "ann")
    await ws.send_json({"type": "move", "move": "e3e4"})
    await next_of(ws, "state", turn="b")
    assert [m.uci for m in (await storage.get_game(game_id)).moves] == ["e3e4"]
    assert (await storage.get_game(theirs.id)).moves == ()
    await ws.close()
