"""Players' own games through the Discord door: ``/makruk new fen:``, ``/makruk games``,
``/makruk export game: gif:`` and ``/makruk-server notation``."""

from __future__ import annotations

from .fakes import FakeDiscord
from .payloads import ALICE, BOB, CHANNEL_ID


async def finished_game(api: FakeDiscord) -> None:
    await api.slash(ALICE, "new", opponent=BOB)
    await api.click(BOB, api.sent[-1], "makruk:btn:accept")
    await api.slash(ALICE, "move", move="e3e4")
    await api.slash(BOB, "resign")


async def test_new_from_a_fen(bot, discord_api, storage):
    fen = "4k3/8/8/8/8/8/3R4/4K3 w - - 0 1"
    await discord_api.slash(ALICE, "new", opponent=BOB, fen=fen)
    await discord_api.click(BOB, discord_api.sent[-1], "makruk:btn:accept")
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert game.start_fen == fen


async def test_games_and_an_exported_replay(bot, discord_api, storage):
    api = discord_api
    await finished_game(api)
    api.clear()
    await api.slash(ALICE, "games")
    assert "#1 " in api.sent[-1].text
    api.clear()
    await api.slash(ALICE, "export", game=1, gif=True)
    replay = next(s for s in api.sent if s.files)
    assert replay.files[0][0] == "replay.gif" and replay.files[0][1].startswith(b"GIF8")
    api.clear()
    await api.slash(ALICE, "export", game=1)
    pgn = next(s for s in api.sent if s.files)
    assert pgn.files[0][0].endswith(".pgn") and b"1. e4" in pgn.files[0][1]


async def test_review_of_an_attached_pgn_and_analyse_of_a_typed_fen(bot, discord_api):
    api = discord_api
    pgn = b'[White "somchai"]\n[Black "ann"]\n\n1. Bg2 Bd7 2. Bb2 Bf7 3. Bf1 Bc8 *\n'
    await api.slash(ALICE, "review", file=api.attachment("game.pgn", pgn))
    review = next(s for s in reversed(api.sent) if s.text)
    assert "somchai vs ann" in review.text
    api.clear()
    await api.slash(ALICE, "analyse", position="4k3/8/8/8/8/8/3R4/4K3 w - - 0 1")
    assert any("Evaluation" in (s.text or "") for s in api.sent), [(s.kind, s.text, s.json) for s in api.sent]
    api.clear()
    await api.slash(ALICE, "analyse", position="4k3/8/8/8/8/8/8/4K2K w - - 0 1")
    assert any("exactly one Khun" in (s.text or "") for s in api.sent), [(s.kind, s.text) for s in api.sent]
