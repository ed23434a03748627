"""The web board in chromium, as players and watchers use it: a game played by clicking in two
browsers, a watcher following live, a move typed in the chat showing on the page, tokens that
are refused, the page in Thai on a phone, a LIFF sign-in checked against a local key set.

Every wait is on a condition the page shows (Playwright's ``expect``), never on time.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Dialog, Page, expect

from bot.clock import FakeClock
from renderers.svg import SIZE

from .conftest import PHONE, OpenPage
from .fake_liff import fake_liff
from .live import LIFF_ID, Live, piece, play, ready, serving, shows, square

pytestmark = pytest.mark.asyncio(loop_scope="package")

# A short opening by both sides with a capture and a promotion (White's Bia reaches the sixth
# rank and turns over: a Bia Ngai, M~), with the piece that stands on each move's square after it.
OPENING = (("e3e4", "P"), ("d6d5", "p"), ("e4d5", "P"), ("e6e5", "p"), ("d5d6m", "M~"))


# The shortest mate we know from the start: White's Ma checks from d6 while Black's own Ma stand
# on d7 and e7, and d6's Ma guards f7.
MATE = (("g1e2", "N"), ("b8d7", "n"), ("e2d4", "N"), ("g8e7", "n"), ("d4f5", "N"), ("a6a5", "p"), ("f5d6", "N"))


@pytest_asyncio.fixture(loop_scope="package")
async def live(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Live]:
    async with serving(tmp_path / "bot.db", clock) as running:
        yield running


async def accept_dialogs(page: Page) -> None:
    async def accept(dialog: Dialog) -> None:
        await dialog.accept()

    page.on("dialog", accept)


async def test_two_players_play_by_clicking_and_the_game_ends_by_resigning(live: Live, open_page: OpenPage) -> None:
    game_id = await live.new_game("ann", "bob")
    ann, bob = await open_page(), await open_page()
    await ann.goto(live.link(game_id, "ann"))
    await bob.goto(live.link(game_id, "bob"))
    for page, side in ((ann, "web.you_white"), (bob, "web.you_black")):
        await ready(page)
        await expect(page.locator("[data-note]")).to_have_text(await live.text(game_id, side))
    await live.announced()
    # Bob sees the board from Black's side: h1 is his top-left square, a8 Ann's.
    assert await bob.locator("[data-square]").first.get_attribute("data-square") == "h1"
    assert await ann.locator("[data-square]").first.get_attribute("data-square") == "a8"

    # The legal destinations are marked when a piece is picked up.
    await square(ann, "e3").click()
    await expect(square(ann, "e4")).to_have_class(re.compile(r"\btarget\b"))
    await expect(ann.locator(".target")).to_have_count(1)
    await square(ann, "e3").click()  # put it back
    await expect(ann.locator(".selected")).to_have_count(0)

    for ply, (uci, letter) in enumerate(OPENING):
        mover, other = (ann, bob) if ply % 2 == 0 else (bob, ann)
        await play(mover, uci)
        for page in (ann, bob):
            await shows(page, uci[2:4], letter)
            await shows(page, uci[:2], None)
        await expect(other.locator("[data-moves] li")).to_have_count(ply + 1)
    # The Bia Ngai's picture is the project's own SVG, loaded.
    await expect(piece(bob, "d6")).to_have_js_property("naturalWidth", SIZE)
    assert await piece(bob, "d6").evaluate("image => image.complete")
    assert await live.moves(game_id) == [uci for uci, _ in OPENING]
    notices = await live.announced()
    assert len(notices) >= len(OPENING)  # every move was announced in the chat too

    await accept_dialogs(bob)
    await bob.locator('[data-action="resign"]').click()
    for page in (ann, bob):
        await expect(page.locator('[data-action="resign"]')).to_have_count(0)
    game = await live.games.storage.get_game(game_id)
    assert game.status != "active" and game.result == "1-0"
    for page in (ann, bob):
        await expect(page.locator("[data-status]")).to_have_text(await live.status(game_id))

    # A finished game offers its replay: back to the start, and forward again.
    await ann.locator('[data-replay-to="first"]').click()
    await shows(ann, "e3", "P")
    await shows(ann, "d6", "p")
    await ann.locator('[data-replay-to="last"]').click()
    await shows(ann, "d6", "M~")
    await expect(ann.locator("[data-links] a")).to_have_count(2)


async def test_a_whole_game_to_checkmate_by_clicking_in_two_browsers(live: Live, open_page: OpenPage) -> None:
    game_id = await live.new_game("ann", "bob")
    ann, bob = await open_page(), await open_page()
    await ann.goto(live.link(game_id, "ann"))
    await bob.goto(live.link(game_id, "bob"))
    await ready(ann)
    await ready(bob)
    await expect(bob.locator("[data-note]")).to_have_text(await live.text(game_id, "web.you_black"))
    await live.announced()
    for ply, (uci, letter) in enumerate(MATE):
        mover = ann if ply % 2 == 0 else bob
        await play(mover, uci)
        for page in (ann, bob):
            await shows(page, uci[2:4], letter)
            await expect(page.locator("[data-moves] li")).to_have_count(ply + 1)
    for page in (ann, bob):
        await expect(page.locator("[data-action]")).to_have_count(0)  # over: nothing left to do
    game = await live.games.storage.get_game(game_id)
    assert (game.result, game.reason) == ("1-0", "checkmate")
    assert [move.uci for move in game.moves] == [uci for uci, _ in MATE]
    for page in (ann, bob):
        await expect(page.locator("[data-status]")).to_have_text(await live.status(game_id))
    assert await live.announced()  # the chat was told too


async def test_a_watcher_follows_the_game_live_and_cannot_move(live: Live, open_page: OpenPage) -> None:
    game_id = await live.new_game("ann", "bob")
    ann, watcher, second = await open_page(), await open_page(), await open_page()
    await watcher.goto(live.watch_link(game_id))
    await ready(watcher)
    await expect(watcher.locator("[data-watchers]")).to_have_text(re.compile(r"\b1$"))
    await second.goto(live.watch_link(game_id))
    await ann.goto(live.link(game_id, "ann"))
    for page in (watcher, second, ann):
        await expect(page.locator("[data-watchers]")).to_have_text(re.compile(r"\b3$"))

    # A watcher's tap picks nothing up.
    await square(watcher, "e3").click()
    await expect(watcher.locator(".selected")).to_have_count(0)
    await expect(watcher.locator('[data-action]')).to_have_count(0)

    await ready(ann)
    await play(ann, "e3e4")
    await shows(watcher, "e4", "P")
    await expect(watcher.locator("[data-moves] li")).to_have_count(1)
    await live.chat.ok("bob", "d6d5")
    await shows(watcher, "d5", "p")

    await second.close()
    await expect(watcher.locator("[data-watchers]")).to_have_text(re.compile(r"\b2$"))
    assert await live.moves(game_id) == ["e3e4", "d6d5"]


async def test_a_move_typed_in_the_chat_shows_on_the_players_pages(live: Live, open_page: OpenPage) -> None:
    game_id = await live.new_game("ann", "bob")
    ann, bob = await open_page(), await open_page()
    await ann.goto(live.link(game_id, "ann"))
    await bob.goto(live.link(game_id, "bob"))
    await ready(ann)
    await ready(bob)
    await live.chat.ok("ann", "e3e4")
    await shows(ann, "e4", "P")
    await shows(bob, "e4", "P")
    # Now it is Bob's turn on his page: he picks up a piece and moves it.
    await play(bob, "d6d5")
    await shows(ann, "d5", "p")
    assert await live.moves(game_id) == ["e3e4", "d6d5"]


@pytest.mark.parametrize("kind", ["expired", "forged", "another game's", "a stranger's"])
async def test_a_refused_link_shows_the_board_read_only_and_changes_nothing(
    live: Live, open_page: OpenPage, kind: str
) -> None:
    game_id = await live.new_game("ann", "bob")
    link, refusal = live.link(game_id, "ann"), "web.error.auth"
    if kind == "expired":
        live.clock.advance(hours=13)  # past the link's twelve hours
    elif kind == "forged":
        link = live.link(game_id, "ann", secret="not-the-servers-secret")
    elif kind == "another game's":
        link = live.link(game_id, "ann", token_game=game_id + 1)
    else:
        link, refusal = live.link(game_id, "eve"), "web.error.not_playing"  # signed, but eve does not play
    page = await open_page()
    await page.goto(link)
    await ready(page)
    await expect(page.locator("[data-note]")).to_have_text(await live.text(game_id, refusal))
    assert "#t=" not in page.url  # the token left the address bar
    await square(page, "e3").click()
    await expect(page.locator(".selected")).to_have_count(0)
    await expect(page.locator("[data-action]")).to_have_count(0)
    if refusal == "web.error.auth":
        # The page keeps no refused token: a reload is a watcher's view with no note.
        await page.reload()
        await ready(page)
        await expect(page.locator("[data-note]")).to_have_text("")
    assert await live.moves(game_id) == []


async def test_the_page_in_thai_on_a_phone_has_no_horizontal_scroll(live: Live, open_page: OpenPage) -> None:
    game_id = await live.new_game("ann", "bob")
    await live.chat.ok("ann", "lang th")
    phone = await open_page(phone=True, locale="th-TH")
    await phone.goto(live.link(game_id, "ann"))
    await ready(phone)
    assert await phone.get_attribute("html", "lang") == "th"
    await expect(phone.locator("[data-note]")).to_have_text(re.compile("[\u0e00-\u0e7f]"))  # Thai script
    await expect(phone.locator(".fl").first).to_have_text(re.compile("[\u0e01-\u0e2e]"))  # Thai file letters
    await expect(phone.locator('[data-action="resign"]')).to_have_text("ยอมแพ้")
    # A tap, not a click, moves on a phone.
    await square(phone, "e3").tap()
    await expect(square(phone, "e4")).to_have_class(re.compile(r"\btarget\b"))
    await square(phone, "e4").tap()
    await shows(phone, "e4", "P")

    await fits_the_phone(phone)


async def test_sittuyins_hands_in_khmer_fit_a_phone_too(live: Live, open_page: OpenPage) -> None:
    await live.chat.ok("ann", "lang km")
    await live.chat.ok("ann", "new @bob sittuyin white", "bob")
    game = (await live.chat.ok("bob", "accept"))[-1].game
    assert game is not None
    phone = await open_page(phone=True, locale="km-KH")
    await phone.goto(live.link(game.id, "bob"))
    await expect(phone.locator("[data-drop]")).to_have_count(10)
    assert await phone.get_attribute("html", "lang") == "km"
    await expect(phone.locator("[data-note]")).to_have_text(await live.text(game.id, "web.you_black"))
    await fits_the_phone(phone)


async def fits_the_phone(phone: Page) -> None:
    """Nothing on the page is wider than the phone (no horizontal scroll, nothing cut off), and
    the board takes the phone's width."""
    width = PHONE["width"]
    assert await phone.evaluate("document.documentElement.scrollWidth") <= width
    widest = await phone.evaluate(
        "Math.max(...[...document.querySelectorAll('body *')].map(e => e.getBoundingClientRect().right))"
    )
    assert widest <= width + 0.5, "something is wider than the phone"
    board = await phone.locator("[data-board]").bounding_box()
    assert board is not None and board["width"] >= width * 0.9


async def test_a_line_player_signs_in_with_liff_and_moves(live: Live, open_page: OpenPage) -> None:
    game_id = await live.new_game("Uann", "Ubob", chat=live.line)
    page = await open_page()
    await page.context.add_init_script(fake_liff(live.id_token("Uann"), "Uann"))
    await page.goto(live.watch_link(game_id))  # LIFF opens the page without a token of ours
    await ready(page)
    await expect(page.locator("[data-note]")).to_have_text(await live.text(game_id, "web.you_white"))
    assert await page.evaluate("window.liff.id") == LIFF_ID
    await play(page, "e3e4")
    await shows(page, "e4", "P")
    assert await live.moves(game_id) == ["e3e4"]


async def test_a_liff_token_signed_by_another_key_is_refused(live: Live, open_page: OpenPage) -> None:
    game_id = await live.new_game("Uann", "Ubob", chat=live.line)
    page = await open_page()
    forged = live.id_token("Uann", keys=type(live.keys)())  # another key under LINE's key id
    await page.context.add_init_script(fake_liff(forged, "Uann"))
    await page.goto(live.watch_link(game_id))
    await ready(page)
    await expect(page.locator("[data-note]")).to_have_text(await live.text(game_id, "web.error.auth"))
    await square(page, "e3").click()
    await expect(page.locator(".selected")).to_have_count(0)
    assert await live.moves(game_id) == []


async def test_a_game_that_does_not_exist_is_a_404_page(live: Live, open_page: OpenPage) -> None:
    page = await open_page()
    response = await page.goto(f"{live.base}/g/4242")
    assert response is not None and response.status == 404
    await expect(page.locator("[data-status]")).to_have_text("There is no such game.")




async def test_sittuyins_deployment_drops_pieces_from_both_hands(live: Live, open_page: OpenPage) -> None:
    await live.chat.ok("ann", "new @bob sittuyin white", "bob")
    game = (await live.chat.ok("bob", "accept"))[-1].game
    assert game is not None and game.variant == "sittuyin"
    ann, bob = await open_page(), await open_page()
    await ann.goto(live.link(game.id, "ann"))
    await bob.goto(live.link(game.id, "bob"))
    for page in (ann, bob):
        await expect(page.locator("[data-square]")).to_have_count(64)
        await expect(page.locator("[data-square] [data-piece]")).to_have_count(16)  # the Bia only
        await expect(page.locator("[data-drop]")).to_have_count(10)  # five kinds in each hand: K, S, F, R, N
    # Each player's own hand is at the bottom of the page, and only the mover's is enabled.
    await expect(ann.locator('[data-hand="bottom"] [data-drop="R"]')).to_be_enabled()
    await expect(bob.locator('[data-hand="bottom"] [data-drop="r"]')).to_be_disabled()

    await ann.locator('[data-drop="R"]').click()
    await expect(square(ann, "a1")).to_have_class(re.compile(r"\btarget\b"))
    await square(ann, "a1").click()
    await shows(bob, "a1", "R")
    await expect(bob.locator('[data-hand="top"] [data-drop="R"]')).to_have_text("")  # one Rua left

    await bob.locator('[data-drop="r"]').click()
    await expect(square(bob, "h8")).to_have_class(re.compile(r"\btarget\b"))
    await square(bob, "h8").click()
    await shows(ann, "h8", "r")
    assert await live.moves(game.id) == ["R@a1", "R@h8"]


async def test_a_piece_can_be_dragged_to_its_square(live: Live, open_page: OpenPage) -> None:
    game_id = await live.new_game("ann", "bob")
    page = await open_page()
    await page.goto(live.link(game_id, "ann"))
    await ready(page)
    await expect(page.locator('[data-action="resign"]')).to_be_visible()  # signed in, the state drawn
    start, end = await square(page, "b1").bounding_box(), await square(page, "d2").bounding_box()
    assert start is not None and end is not None
    await page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    await page.mouse.down()
    await page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    await expect(square(page, "d2")).to_have_class(re.compile(r"\btarget\b"))  # marked while dragging
    await page.mouse.up()
    await shows(page, "d2", "N")
    await shows(page, "b1", None)
    assert await live.moves(game_id) == ["b1d2"]


async def test_a_draw_offered_on_one_page_is_accepted_on_the_other(live: Live, open_page: OpenPage) -> None:
    game_id = await live.new_game("ann", "bob")
    ann, bob = await open_page(), await open_page()
    await ann.goto(live.link(game_id, "ann"))
    await bob.goto(live.link(game_id, "bob"))
    await ready(ann)
    await ready(bob)
    await ann.locator('[data-action="draw"]').click()
    await bob.locator('[data-action="accept"]').click()
    for page in (ann, bob):
        await expect(page.locator("[data-action]")).to_have_count(0)
    game = await live.games.storage.get_game(game_id)
    assert game.status != "active" and game.result == "1/2-1/2"
    for page in (ann, bob):
        await expect(page.locator("[data-status]")).to_have_text(await live.status(game_id))


async def test_the_page_reconnects_after_the_connection_drops_and_catches_up(
    live: Live, open_page: OpenPage
) -> None:
    game_id = await live.new_game("ann", "bob")
    bob = await open_page()
    await bob.goto(live.link(game_id, "bob"))
    await ready(bob)
    await expect(bob.locator("[data-note]")).to_have_text(await live.text(game_id, "web.you_black"))
    # The server drops every socket of the game (a restart, a proxy timing out), and a move is made meanwhile.
    for viewer in list(live.board.hub.rooms[game_id].viewers):
        await viewer.ws.close()  # type: ignore[attr-defined]
    await live.chat.ok("ann", "e3e4")
    await shows(bob, "e4", "P")  # caught up after reconnecting
    await expect(bob.locator("[data-note]")).to_have_text(await live.text(game_id, "web.you_black"))  # signed in again
    await play(bob, "d6d5")
    await shows(bob, "d5", "p")
    assert await live.moves(game_id) == ["e3e4", "d6d5"]


async def test_the_desktop_page_shows_the_whole_board_without_scrolling(live: Live, page: Page) -> None:
    game_id = await live.new_game("ann", "bob")
    await page.goto(live.watch_link(game_id))
    await ready(page)
    viewport = page.viewport_size
    assert viewport is not None
    box = await page.locator("[data-board]").bounding_box()
    assert box is not None and box["width"] >= 400
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= viewport["width"] and box["y"] + box["height"] <= viewport["height"]
    assert await page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
