"""The SVG pieces in chromium: each letter loads as an <img> served as image/svg+xml, has a
natural size, and draws the same picture as the Pillow sprite of its piece."""

from __future__ import annotations

import io
from urllib.parse import unquote, urlsplit

import pytest
from PIL import Image, ImageChops, ImageStat
from playwright.async_api import Page, Route

from makruk.types import Piece
from renderers.pieces import PIECE_COLORS, piece_sprite
from renderers.svg import PIECE_LETTERS, SIZE, piece_svg

pytestmark = pytest.mark.asyncio(loop_scope="package")

ORIGIN = "http://pieces.test"
PX = 120  # shown at this size, to compare with a sprite of the same size
BACKGROUND = (222, 178, 112)  # the wood theme's squares
# One letter of each piece: every kind of both sides, and the variants' own letters of a few.
LETTERS = ("K", "k", "M", "m", "S", "s", "N", "n", "R", "r", "P", "p", "M~", "m~", "Q", "f~", "B", "R~")


async def serve_pieces(page: Page) -> None:
    """``ORIGIN/`` is a page of every letter's piece as an <img>; ``ORIGIN/piece/<letter>.svg`` its SVG."""

    async def answer(route: Route) -> None:
        path = unquote(urlsplit(route.request.url).path)
        if path == "/":
            images = "".join(f'<img data-letter="{x}" src="/piece/{x}.svg" width={PX} height={PX}>' for x in LETTERS)
            body = f"<!doctype html><body style='margin:0;background:rgb{BACKGROUND};line-height:0'>{images}"
            await route.fulfill(body=body, content_type="text/html")
        elif path.startswith("/piece/") and path.endswith(".svg"):
            await route.fulfill(body=piece_svg(path[len("/piece/") : -len(".svg")]), content_type="image/svg+xml")
        else:
            await route.fulfill(status=404)

    await page.route(f"{ORIGIN}/**", answer)
    await page.goto(f"{ORIGIN}/")
    await page.wait_for_function("[...document.images].every(image => image.complete)")


async def test_every_piece_loads_as_an_image_with_a_natural_size(page: Page) -> None:
    await serve_pieces(page)
    sizes = await page.eval_on_selector_all(
        "img", "images => images.map(image => [image.dataset.letter, image.naturalWidth, image.naturalHeight])"
    )
    assert sizes == [[letter, SIZE, SIZE] for letter in LETTERS]


async def test_the_browser_draws_what_pillow_draws(page: Page) -> None:
    """Each letter's picture in chromium is nearest to its own piece's sprite of all fourteen,
    and near it: within a few levels on average, where the piece differs from the bare square
    by tens."""
    await serve_pieces(page)
    sprites = {piece: on_square(piece) for piece in set(PIECE_LETTERS.values())}
    for letter in LETTERS:
        shot = Image.open(io.BytesIO(await page.locator(f'img[data-letter="{letter}"]').screenshot())).convert("RGB")
        piece = PIECE_LETTERS[letter]
        distances = {other: mean_difference(shot, sprite) for other, sprite in sprites.items()}
        assert min(distances, key=distances.__getitem__) == piece, letter
        assert distances[piece] < 6, letter
        assert mean_difference(shot, Image.new("RGB", (PX, PX), BACKGROUND)) > 15, letter
        # A pixel of the piece's body colour in the sprite is that colour in the browser too.
        shown = shot.getpixel(body_pixel(piece))
        assert isinstance(shown, tuple)
        assert all(abs(a - b) < 24 for a, b in zip(shown, PIECE_COLORS[piece.color].body, strict=True)), letter


def on_square(piece: Piece) -> Image.Image:
    """The Pillow sprite of ``piece`` on the page's background."""
    sprite = Image.new("RGBA", (PX, PX), (*BACKGROUND, 255))
    sprite.alpha_composite(piece_sprite(piece.kind, piece.color, PX))
    return sprite.convert("RGB")


def mean_difference(first: Image.Image, second: Image.Image) -> float:
    return float(ImageStat.Stat(ImageChops.difference(first, second).convert("L")).mean[0])


def body_pixel(piece: Piece) -> tuple[int, int]:
    """The sprite's pixel of exactly the body colour nearest the middle of the piece's lower half."""
    sprite = on_square(piece)
    body = PIECE_COLORS[piece.color].body
    found = [(x, y) for y in range(PX) for x in range(PX) if sprite.getpixel((x, y)) == body]
    assert found
    return min(found, key=lambda p: (p[0] - PX / 2) ** 2 + (p[1] - PX * 0.65) ** 2)
