"""Regenerates the images in docs/gallery/ from the renderers (run after changing the look).

    .venv/bin/python scripts/render_gallery.py
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageDraw

from makruk import BLACK, STARTING_FEN, WHITE, Board, PieceType, parse_square
from renderers import fonts, render_board, render_preview, render_puzzle_card
from renderers.palette import png_bytes, to_palette
from renderers.pieces import piece_sprite
from renderers.theme import THEMES

GALLERY = Path(__file__).resolve().parent.parent / "docs" / "gallery"
# White's Khun on e2 has just been checked by the black Ma from h5 to g3.
MIDGAME = "r1sk1snr/3m4/ppM~p1p1p/4p3/3P4/PPm~1PPnP/4K3/RNS1MS1R w - - 0 1"
PUZZLE = "6k1/8/6K1/8/8/8/8/R7 w - - 0 1"  # Ra8 mates
# Ouk Chatrang: White's Khun has leapt d1-b2; the Neang on e1 and Black's Khun and Neang still may.
OUK_MOVES = ("e3e4", "e6e5", "d1b2")
# Sittuyin: a Bia on d5 may promote (no White Sit-ke): in place or one step diagonally.
SITTUYIN_PROMOTION = "8/6k1/3r4/3P1p2/2p5/1P6/4K3/7R w - - 0 40"
# Each side's Bia, Bia Ngai and Met side by side, White's on rank 4, Black's on rank 5.
BIA_NGAI = "4k3/8/8/2pm~m3/2PM~M3/8/8/4K3 w - - 0 1"

PIECE_NAMES = [
    (PieceType.KHUN, "Khun", "ขุน"),
    (PieceType.MET, "Met", "เม็ด"),
    (PieceType.KHON, "Khon", "โคน"),
    (PieceType.MA, "Ma", "ม้า"),
    (PieceType.RUA, "Rua", "เรือ"),
    (PieceType.BIA, "Bia", "เบี้ย"),
    (PieceType.BIA_NGAI, "Bia Ngai", "เบี้ยหงาย"),
]


def main() -> None:
    GALLERY.mkdir(parents=True, exist_ok=True)
    write("start-latin-800.png", render_board(STARTING_FEN, size=800))
    write(
        "midgame-check-thai-flipped-800.png",
        render_board(MIDGAME, size=800, last_move="h5g3", coords="thai", flip=True),
    )
    write("preview-240.png", render_preview(MIDGAME, last_move="h5g3"))
    khun = parse_square("e2")
    targets = [m.to_square for m in Board(MIDGAME).legal_moves() if m.from_square == khun]
    write(
        "tap-to-move-green-480.png",
        render_board(MIDGAME, size=480, theme="green", last_move="h5g3", selected=khun, targets=targets),
    )
    write("hint-arrows-slate-480.png", render_board(MIDGAME, size=480, theme="slate", arrows=["e2f2", "b1c3"]))
    caption = "ขาวเดิน รุกจนใน 1 ตา\nWhite to move — mate in 1 — 1手詰め"
    write("puzzle-card-thai.png", render_puzzle_card(PUZZLE, caption, size=640))
    write("pieces.png", piece_chart())
    write("bia-ngai-240.png", preview_strip(BIA_NGAI))
    variants()


def variants() -> None:
    """A picture of each member of the family, in the position that shows what is its own."""
    write("makpong-start-480.png", render_board(Board(variant="makpong"), size=480))
    ouk = Board(variant="cambodian")
    for uci in OUK_MOVES:
        ouk.push(ouk.parse_move(uci))
    write("ouk-leaps-480.png", render_board(ouk, size=480, last_move=OUK_MOVES[-1]))
    write("asean-start-480.png", render_board(Board(variant="asean"), size=480, coords="thai"))
    deployment = Board(variant="sittuyin")
    while sum(deployment.pocket(WHITE).values()) > 3:  # White has five pieces placed, Black four
        drop = deployment.standard_drop()
        assert drop is not None
        deployment.push(drop)
    write("sittuyin-deployment-480.png", render_board(deployment, size=480, last_move=deployment.move_stack[-1]))
    write("sittuyin-promotion-480.png", render_board(SITTUYIN_PROMOTION, variant="sittuyin", size=480))


def piece_chart(px: int = 96) -> bytes:
    """Each kind on a row: its names, then White and Black at phone size and large."""
    theme = THEMES["wood"]
    small = 60
    label_w, row_h = 300, px + 12
    width = label_w + 2 * small + 2 * px + 60
    image = Image.new("RGB", (width, row_h * len(PIECE_NAMES) + 12), theme.light)
    draw = ImageDraw.Draw(image)
    for row, (kind, english, thai) in enumerate(PIECE_NAMES):
        top = 6 + row * row_h
        line = fonts.measure(f"{english}  {thai}", 30)
        fonts.draw_line(draw, 16, top + row_h / 2 + 10, line, theme.caption_text)
        x = label_w
        for color in (WHITE, BLACK):
            sprite = piece_sprite(kind, color, small)
            image.paste(sprite, (x, top + (row_h - small) // 2), sprite)
            x += small + 10
        x += 20
        for color in (WHITE, BLACK):
            sprite = piece_sprite(kind, color, px)
            image.paste(sprite, (x, top + (row_h - px) // 2), sprite)
            x += px + 10
        if row:
            draw.line((0, top - 6, width, top - 6), fill=theme.grid, width=2)
    return png_bytes(to_palette(image, theme))


def preview_strip(fen: str) -> bytes:
    """The position as a 240 px LINE preview in every theme, side by side."""
    previews = [Image.open(io.BytesIO(render_preview(fen, theme=name))).convert("RGB") for name in THEMES]
    gap = 12
    strip = Image.new("RGB", (sum(p.width for p in previews) + gap * (len(previews) - 1), previews[0].height), "white")
    for i, preview in enumerate(previews):
        strip.paste(preview, (i * (preview.width + gap), 0))
    return png_bytes(strip)


def write(name: str, data: bytes) -> None:
    (GALLERY / name).write_bytes(data)
    print(f"{name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
