"""The engine behind the game service: other channels stay responsive, hints, reviews, ratings."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from PIL import Image

from bot.config import Settings
from bot.engines import Analysis, BuiltinEngine, Engine, EnginePosition, LevelledEngine
from bot.engines.levels import rating as level_rating
from bot.services.games import GameService
from makruk import Board, Move
from renderers import square_box
from tests.bot.support import Chat, no_image

from .support import hold_until, legal_ucis, push_uci

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def service(storage, clock, engine) -> GameService:
    return GameService(storage, Settings(language="en"), clock=clock, engine=engine, render=None)


class OwnMoves:
    """An engine whose moves the test decides; hints and reviews are the real engine's."""

    name = "test"

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    async def best_move(self, position: EnginePosition, *, level: int) -> str:
        raise NotImplementedError

    async def wants_count(self, position: EnginePosition) -> bool:
        return False

    async def accepts_draw(self, position: EnginePosition, *, level: int) -> bool:
        return False

    async def analyse(self, position: EnginePosition, *, depth: int | None = None,
                      seconds: float | None = None) -> Analysis:
        return await self.engine.analyse(position, depth=depth, seconds=seconds)

    async def analyse_game(self, position: EnginePosition, *, seconds: float) -> list[Analysis]:
        return await self.engine.analyse_game(position, seconds=seconds)


class HeldThinker(OwnMoves):
    """The built-in engine's worker process kept busy until the test lets it go (as a level 4
    search is for 2.5 s in a hard position), then a quick move."""

    def __init__(self, builtin: BuiltinEngine, directory: Path) -> None:
        super().__init__(builtin)
        self.builtin = builtin
        self.started, self.release = directory / "search-started", directory / "search-release"
        self.thinking = asyncio.Event()

    async def best_move(self, position: EnginePosition, *, level: int) -> str:
        self.thinking.set()
        assert await self.builtin.pool.run(hold_until, str(self.started), str(self.release), timeout=150)
        return (await self.builtin.think(position, depth=1)).move


class ScriptedReplies(OwnMoves):
    """Plays the given replies in turn, each checked against our rules."""

    def __init__(self, engine: Engine, replies: list[str]) -> None:
        super().__init__(engine)
        self.replies = iter(replies)

    async def best_move(self, position: EnginePosition, *, level: int) -> str:
        reply = next(self.replies)
        assert reply in legal_ucis(position), f"the scripted reply {reply} is illegal in {position.board().fen()}"
        return reply


async def test_a_move_elsewhere_is_answered_while_the_engine_thinks(storage, clock, builtin, tmp_path):
    engine = HeldThinker(builtin, tmp_path)
    service = GameService(storage, Settings(language="en"), clock=clock, engine=engine, render=no_image)
    bot_channel, people = Chat(service, "bot-channel"), Chat(service, "people")
    await bot_channel.ok("alice", "new bot 4 white")
    await people.ok("bob", "new @carol", "carol")
    await people.ok("carol", "accept")

    thinking = asyncio.create_task(bot_channel.ok("alice", "e4"))
    await engine.thinking.wait()
    while not engine.started.exists():  # the worker process is busy with the bot's move
        await asyncio.sleep(0.01)
    replies = await people.ok("bob", "d4")
    assert replies[0].kind == "game" and not thinking.done()
    engine.release.touch()
    await thinking
    game = await storage.active_game("console", "bot-channel")
    assert game is not None and len(game.moves) == 2


async def test_hint_draws_an_arrow_and_names_the_move(service):
    chat = Chat(service)
    await chat.ok("alice", "new bot 1 white")
    plain = (await chat.ok("alice", "board"))[0]
    hint = (await chat.ok("alice", "hint"))[0]
    assert hint.kind == "hint" and hint.image.startswith(PNG) and plain.image.startswith(PNG)
    (uci,) = hint.board.arrows
    move = Move.from_uci(uci)
    assert move in Board().legal_moves()
    assert Board().san(move) in hint.text.splitlines()[0]
    # The arrow changes the pixels of its squares; the rest of the board is drawn as before.
    with_arrow, without = (Image.open(io.BytesIO(r.image)).convert("RGB") for r in (hint, plain))
    assert with_arrow.size == without.size
    size = with_arrow.size[0]
    for square in (move.from_square, move.to_square):
        box = square_box(square, size, hint.board.flip)
        assert with_arrow.crop(box).tobytes() != without.crop(box).tobytes()
    far = square_box(63 if move.to_square < 32 else 0, size, hint.board.flip)
    assert with_arrow.crop(far).tobytes() == without.crop(far).tobytes()


async def test_hint_in_thai_uses_thai_notation(service):
    chat = Chat(service)
    await chat.ok("somchai", "lang th")
    await chat.ok("somchai", "new bot 1 white")
    hint = (await chat.ok("somchai", "ใบ้"))[0]
    move = Move.from_uci(hint.board.arrows[0])
    assert Board().thai_san(move) in hint.text and hint.text.startswith("คำใบ้")


async def test_hint_is_refused_outside_games_against_the_bot(service):
    chat = Chat(service)
    await chat.refused("alice", "hint", "no_game")
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    await chat.refused("alice", "hint", "hint_bot_only")


# Alice (White) hangs a Bia, her Rua and her Ma to Black's Bia; the bot takes them.
REVIEWED_GAME = [
    ("a3a4", "h6h5"),
    ("a4a5", "b6a5"),  # a5?: the Bia is taken
    ("a1a4", "h5h4"),
    ("a4b4", "a5b4"),  # Rb4??: the Rua is taken
    ("b1d2", "g8e7"),
    ("d2c4", "a6a5"),
    ("c4e5", "d6e5"),  # Ne5??: the Ma is taken
]


async def test_review_after_a_game_shows_a_graph_and_the_mistakes(storage, clock, engine):
    bot = ScriptedReplies(engine, [reply for _, reply in REVIEWED_GAME])
    chat = Chat(GameService(storage, Settings(language="en"), clock=clock, engine=bot, render=None))
    await chat.ok("alice", "new bot 2 white")
    await chat.refused("alice", "review", "review_not_finished")
    board = Board()
    for move, reply in REVIEWED_GAME:
        push_uci(board, move)  # fails here if the script is not a legal game
        push_uci(board, reply)
        await chat.ok("alice", move)
    game = await storage.active_game("console", "c1")
    assert game is not None and [m.uci for m in game.moves] == [u for pair in REVIEWED_GAME for u in pair]
    await chat.ok("alice", "resign")

    review = (await chat.ok("alice", "review"))[0]
    assert review.kind == "review" and review.image is not None and review.image.startswith(PNG)
    assert Image.open(io.BytesIO(review.image)).size == (800, 300)
    lines = review.text.splitlines()
    assert "Biggest mistakes:" in lines
    mistakes = lines[lines.index("Biggest mistakes:") + 1:]
    assert 1 <= len(mistakes) <= 3 and all("better was" in line for line in mistakes)

    await chat.ok("alice", "lang th")
    thai = (await chat.ok("alice", "วิเคราะห์"))[0]
    assert "ควรเดิน" in thai.text and any(ch in thai.text for ch in "กขคงจฉชญ")


async def test_games_against_the_bot_are_rated_for_the_person_only(service, storage):
    chat = Chat(service)
    await chat.ok("alice", "new bot 3 black")
    game = await storage.active_game("console", "c1")
    assert game.rated
    await chat.ok("alice", "resign")
    alice = await storage.get_rating((await storage.find_player("console", "alice")).id, "makruk")
    assert alice.games_played == 1 and alice.rating < 1500
    # A loss to a level rated below 1500 costs more than a loss to an even opponent would.
    assert level_rating(3) < 1500 and 1500 - alice.rating > 150


async def test_review_of_no_game_is_refused(service):
    await Chat(service).refused("alice", "review", "no_game")


def test_the_service_engine_fixture_has_both_engines(engine):
    assert isinstance(engine, LevelledEngine) and engine.fairy is not None
