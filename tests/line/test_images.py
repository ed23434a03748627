"""Picture URLs that name what to draw: any process of the channel draws them, once, on request."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from bot.adapters.line import pictures
from bot.adapters.line.images import ImageStore
from bot.adapters.line.pictures import IMAGEMAP_WIDTHS, Picture, Signer, draw, picture_of
from bot.adapters.line.replies import Chat, Composer
from bot.adapters.line.signing import UrlKey
from bot.messages import BoardView, Incoming, Reply, User

from .support import ALICE, SECRET, free_socket, png_size

MAX_URL = 2000  # LINE's limit for originalContentUrl, previewImageUrl and baseUrl
LONG_BASE_URL = "https://makruk-bot.chess-club-of-chiang-mai.example.co.th"
START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
HINTED = BoardView("r1s1k1nr/2m5/p1p1p1p1/1p1pRp1p/P1P3P1/1P1P1P1P/4M3/2SK1SNR w - - 12 34", flip=True,
                   last_move="b7c7", coords="thai", arrows=("e5e8", "d3d4", "c1b2"), selected="e5",
                   targets=("e4", "e3", "e6", "e7", "e8", "d5", "f5"))
CARD = BoardView(START, flip=False, coords="thai", caption="ฝ่ายขาวเดิน รุกจนใน 2 ตา")


class Drawings:
    """The real drawer, counting what it draws (in the drawing threads); ``gate`` holds each
    drawing until it is set."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.gate = threading.Event()
        self.gate.set()

    def __call__(self, picture: Picture, variant: str) -> bytes:
        self.calls.append((picture.kind, variant))
        self.gate.wait(10)
        return draw(picture, variant)


class Process:
    """One LINE server process as far as pictures go: its own directory and port."""

    def __init__(self, store: ImageStore, drawings: Drawings, http: aiohttp.ClientSession) -> None:
        self.store = store
        self.drawings = drawings
        self.http = http

    @property
    def base_url(self) -> str:
        return self.store.base_url

    async def fetch(self, url: str) -> tuple[int, dict[str, str], bytes]:
        async with self.http.get(url) as response:
            return response.status, dict(response.headers), await response.read()

    def here(self, url: str, other: Process) -> str:
        """``url``, issued by ``other``, as LINE's fetch reaching this process would ask for it."""
        assert url.startswith(other.base_url)
        return self.base_url + url.removeprefix(other.base_url)


StartProcess = Callable[..., Awaitable[Process]]


@pytest.fixture
async def start(tmp_path: Path) -> AsyncIterator[StartProcess]:
    runners: list[web.AppRunner] = []
    async with aiohttp.ClientSession() as http:
        async def started(name: str, secret: str = SECRET, directory: Path | None = None) -> Process:
            sock = free_socket()
            drawings = Drawings()
            store = ImageStore(directory or tmp_path / name, f"http://127.0.0.1:{sock.getsockname()[1]}", secret,
                               draw=drawings)
            app = web.Application()
            store.add_routes(app)
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            await web.SockSite(runner, sock).start()
            runners.append(runner)
            return Process(store, drawings, http)

        yield started
        for runner in runners:
            await runner.cleanup()


async def test_a_url_one_process_issued_is_drawn_by_another_with_the_same_bytes(start):
    a, b = await start("a"), await start("b")
    original, preview = a.store.picture(HINTED)
    status, headers, drawn_by_b = await b.fetch(b.here(original, a))
    assert status == 200 and headers["Content-Type"] == "image/png"
    assert "immutable" in headers["Cache-Control"] and "max-age=31536000" in headers["Cache-Control"]
    assert drawn_by_b == draw(Picture("board", HINTED), "800.png") and png_size(drawn_by_b) == (800, 800)
    assert (await a.fetch(original))[2] == drawn_by_b
    status, _, small = await b.fetch(b.here(preview, a))
    assert status == 200 and png_size(small) == (240, 240) and small == (await a.fetch(preview))[2]

    base = a.store.imagemap(HINTED)
    for width in IMAGEMAP_WIDTHS:
        status, _, png = await b.fetch(f"{b.here(base, a)}/{width}")
        assert status == 200 and png_size(png) == (width, width)
        assert png == (await a.fetch(f"{base}/{width}"))[2]
    assert b.drawings.calls == [("board", "800.png"), ("board", "preview.png"),
                                *(("board", str(w)) for w in IMAGEMAP_WIDTHS)]
    assert len(os.listdir(b.store.directory)) == 2 + len(IMAGEMAP_WIDTHS)


async def test_puzzle_cards_are_drawn_from_their_url_too(start):
    a, b = await start("a"), await start("b")
    original, preview = a.store.picture(CARD)
    status, _, card = await b.fetch(b.here(original, a))
    assert status == 200 and card == draw(picture_of(CARD), "800.png")
    width, height = png_size(card)
    assert width == 800 and height > 800  # the caption above the board
    status, _, small = await b.fetch(b.here(preview, a))
    assert status == 200 and png_size(small)[0] == 240
    assert b.drawings.calls == [("card", "800.png"), ("card", "preview.png")]
    card_base = original.removesuffix("/800.png")
    assert (await b.fetch(f"{b.here(card_base, a)}/1040"))[0] == 404  # cards are never tap-to-move


async def test_tampered_foreign_and_unsigned_urls_are_404_before_anything_is_decoded(start, monkeypatch):
    a = await start("a")
    stranger = await start("stranger", secret="another channel's secret")
    decoded: list[bytes] = []
    unpacked = pictures._unpacked

    def counted(data: bytes) -> Picture:
        decoded.append(data)
        return unpacked(data)

    monkeypatch.setattr(pictures, "_unpacked", counted)
    base = a.store.imagemap(HINTED)
    token = base.rsplit("/", 1)[1]
    data, mac = token.split(".")
    flipped = "A" if data[5] != "A" else "B"
    forged = Signer("another channel's secret").token(Picture("board", BoardView(START)))
    bad = [
        f"{a.base_url}/pictures/{data[:5]}{flipped}{data[6:]}.{mac}/800.png",  # the view changed
        f"{a.base_url}/pictures/{data}.{mac[:-1]}{'A' if mac[-1] != 'A' else 'B'}/800.png",  # the signature
        f"{a.base_url}/pictures/{data}/800.png",  # no signature
        f"{a.base_url}/pictures/{data}./800.png",
        f"{a.base_url}/pictures/{forged}/800.png",  # another channel's
        f"{a.base_url}/pictures/{'A' * 5000}.{mac}/800.png",
        f"{base}/801.png",
        f"{base}/1040.png",
        f"{base}/../../images/x.png",
    ]
    for url in bad:
        assert (await a.fetch(url))[0] == 404, url
    assert decoded == [] and a.drawings.calls == []
    assert (await stranger.fetch(stranger.here(base + "/800.png", a)))[0] == 404  # not its channel's
    assert stranger.drawings.calls == []
    assert (await a.fetch(f"{base}/800.png"))[0] == 200 and len(decoded) == 1


async def test_a_signed_token_that_does_not_decode_is_404(start):
    a = await start("a")
    for data in (b"x{}", b"j[1]", b'j{"k":"b"}', b'j{"k":"q","f":"8/8/8/8/8/8/8/8 w - - 0 1"}',
                 b'j{"k":"b","f":"8/8/8/8/8/8/8/8 w - - 0 1","nope":1}', b'j{"k":"b","f":"not a fen"}'):
        body = pictures._b64(data)
        token = f"{body}.{UrlKey(SECRET, pictures._KEY_LABEL).sign(body)}"  # signed as this channel signs
        assert (await a.fetch(f"{a.base_url}/pictures/{token}/800.png"))[0] == 404, data
    assert a.drawings.calls == [("board", "800.png")]  # only "not a fen" decoded, and the renderer refused it


async def test_a_picture_is_drawn_once_and_then_served_from_disk(start, tmp_path):
    a = await start("a")
    original, _ = a.store.picture(HINTED)
    first = await a.fetch(original)
    second = await a.fetch(original)
    assert first[0] == second[0] == 200 and first[2] == second[2]
    assert a.drawings.calls == [("board", "800.png")]
    restarted = await start("restarted", directory=a.store.directory)  # the same disk after a restart
    assert (await restarted.fetch(restarted.here(original, a)))[2] == first[2]
    assert restarted.drawings.calls == []

    (cached,) = os.listdir(a.store.directory)
    old = time.time() - 31 * 86400
    os.utime(a.store.directory / cached, (old, old))
    assert a.store.prune() == 1 and os.listdir(a.store.directory) == []
    assert (await a.fetch(original))[2] == first[2]  # drawn again when LINE asks after the prune
    assert len(a.drawings.calls) == 2


async def test_pictures_drawn_lately_are_served_from_memory_within_its_bound(start, monkeypatch):
    a = await start("a")
    original, _ = a.store.picture(HINTED)
    first = await a.fetch(original)
    for name in os.listdir(a.store.directory):  # the disk no longer has it: memory answers
        os.remove(a.store.directory / name)
    again = await a.fetch(original)
    assert again[0] == 200 and again[2] == first[2] and again[1]["Content-Type"] == "image/png"
    assert "immutable" in again[1]["Cache-Control"]
    assert a.drawings.calls == [("board", "800.png")]

    monkeypatch.setattr("bot.adapters.line.images.RECENT_BYTES", 3 * len(first[2]))
    views = [BoardView(START, last_move=move) for move in ("a3a4", "b3b4", "c3c4", "d3d4", "e3e4")]
    for view in views:
        assert (await a.fetch(a.store.picture(view)[0]))[0] == 200
    assert a.store._recent_bytes <= 3 * len(first[2]) and len(a.store._recent) <= 3
    assert a.store._recent_bytes == sum(len(png) for png in a.store._recent.values())
    assert (await a.fetch(a.store.picture(views[-1])[0]))[0] == 200  # the newest: still in memory
    assert len(a.drawings.calls) == 1 + len(views)
    assert (await a.fetch(a.store.picture(views[0])[0]))[0] == 200  # the oldest: from the disk, not drawn
    assert len(a.drawings.calls) == 1 + len(views)


async def test_requests_that_come_while_a_picture_is_drawn_wait_for_that_one_drawing(start):
    a = await start("a")
    original, preview = a.store.picture(HINTED)
    a.drawings.gate.clear()
    fetches = [asyncio.ensure_future(a.fetch(url)) for url in [original] * 6 + [preview] * 3]
    while len(a.drawings.calls) < 2:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)  # every request has arrived and waits
    a.drawings.gate.set()
    results = await asyncio.gather(*fetches)
    assert sorted(a.drawings.calls) == [("board", "800.png"), ("board", "preview.png")]
    assert {r[0] for r in results} == {200}
    assert len({r[2] for r in results[:6]}) == 1 and len({r[2] for r in results[6:]}) == 1


async def test_a_request_that_goes_away_does_not_stop_the_drawing(start):
    a = await start("a")
    original, _ = a.store.picture(HINTED)
    a.drawings.gate.clear()
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(a.fetch(original), 0.2)
    a.drawings.gate.set()
    status, _, png = await a.fetch(original)
    assert status == 200 and png_size(png) == (800, 800)
    assert a.drawings.calls == [("board", "800.png")]


def test_urls_of_the_busiest_views_stay_well_under_lines_limit(tmp_path):
    store = ImageStore(tmp_path, LONG_BASE_URL, SECRET)
    every_square = tuple(f"{f}{r}" for f in "abcdefgh" for r in "12345678")
    busiest = [
        HINTED,
        BoardView(HINTED.fen, flip=True, last_move="e6e7m", coords="thai", selected="d4",
                  targets=("a4", "b4", "c4", "e4", "f4", "g4", "h4", "d1", "d2", "d3", "d5", "d6", "d7", "d8"),
                  arrows=("d4d8", "h8h1", "a1a8", "b2c3")),
        BoardView(HINTED.fen, coords="thai", targets=every_square, arrows=tuple(f"{s}a1" for s in every_square[:16]),
                  caption="ฝ่ายขาวเดิน หาทางได้เปรียบหมาก · 白番・駒得を狙え · White to move and win material"),
        CARD,
    ]
    for view in busiest:
        original, preview = store.picture(view)
        assert len(original) < MAX_URL / 2 and len(preview) < MAX_URL / 2, len(original)
        assert len(store.imagemap(view)) + len("/1040") < MAX_URL / 2
    assert os.listdir(tmp_path) == []  # issuing URLs draws and writes nothing


def test_tokens_round_trip_and_are_the_same_in_every_process():
    for view in (BoardView(START), HINTED, CARD):
        token = Signer(SECRET).token(picture_of(view))
        assert Signer(SECRET).picture(token) == picture_of(view)
        assert Signer(SECRET).token(picture_of(view)) == token
        assert Signer("other").picture(token) is None
    with pytest.raises(ValueError):
        Signer("")


async def test_composing_a_reply_draws_nothing(line, tmp_path):
    drawings = Drawings()
    store = ImageStore(tmp_path / "pictures", line.base_url, SECRET, draw=drawings)
    composer = Composer(line.app.games, store, line.app.games.catalog)
    chat = Chat(f"user:{ALICE}", True)
    plain = Reply(kind="game", text="", language="th", board=HINTED, image=b"the service's own drawing")
    (image,) = await composer.messages([plain], chat, answered=None)
    assert image["type"] == "image" and "/pictures/" in image["originalContentUrl"]

    started = await line.app.games.handle(Incoming("line", chat.channel, User(ALICE, "Alice"), "new bot"))
    messages = await composer.messages(started, chat, answered=User(ALICE, "Alice"))
    assert messages[-1]["type"] == "imagemap" and "/pictures/" in messages[-1]["baseUrl"]
    assert drawings.calls == [] and os.listdir(store.directory) == []

    status, _, png = await line.fetch(messages[-1]["baseUrl"] + "/700")  # the door's own store draws it
    assert status == 200 and png_size(png) == (700, 700)


async def test_pictures_older_versions_wrote_are_still_served(start):
    a = await start("a")
    directory = a.store.directory
    board = draw(Picture("board", BoardView(START)), "800.png")
    digest = hashlib.sha256(board).hexdigest()
    (directory / f"{digest}.png").write_bytes(board)
    assert (await a.fetch(f"{a.base_url}/images/{digest}.png"))[2] == board
    assert (await a.fetch(f"{a.base_url}/images/{digest}-preview.png"))[0] == 404  # not on disk

    key = "ab" * 32
    view = {"fen": START, "flip": True, "last_move": None, "coords": "latin", "arrows": [], "caption": None,
            "selected": "e3", "targets": ["e4"]}
    (directory / f"{key}.json").write_text(json.dumps(view), "utf-8")
    status, _, png = await a.fetch(f"{a.base_url}/imagemap/{key}/460")
    assert status == 200 and png == draw(Picture("board", BoardView(START, flip=True, selected="e3",
                                                                     targets=("e4",))), "460")
    assert (await a.fetch(f"{a.base_url}/imagemap/{'cd' * 32}/460"))[0] == 404


async def test_a_png_that_is_not_a_board_is_served_only_where_it_was_stored(start):
    a, b = await start("a"), await start("b")
    graph = draw(Picture("board", BoardView(START)), "300")  # any PNG the service drew without a view
    original, preview = await a.store.stored(graph)
    assert (await a.fetch(original))[2] == graph
    assert png_size((await a.fetch(preview))[2]) == (240, 240)
    assert (await b.fetch(b.here(original, a)))[0] == 404  # nothing says how to draw it again


def test_a_live_games_clocks_are_drawn_under_the_full_picture_only():
    live = BoardView(START, coords="thai", clocks="Alice 2:57 | Bob 3:00")
    token = Signer(SECRET).token(picture_of(live))
    assert Signer(SECRET).picture(token) == Picture("board", live)  # the clocks travel in the URL
    plain = png_size(draw(picture_of(BoardView(START, coords="thai")), pictures.ORIGINAL))
    banded = png_size(draw(picture_of(live), pictures.ORIGINAL))
    assert banded[0] == plain[0] and banded[1] > plain[1]  # a band below the board
    for width in IMAGEMAP_WIDTHS:  # tap-to-move areas are the squares: no band there
        assert png_size(draw(picture_of(live), str(width))) == (width, width)
