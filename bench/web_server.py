"""The bot's side of bench_web.py, in a process of its own: a SQLite database with GAMES games
between two people each, the real web board served on loopback, and a line of JSON on stdout
(the port and, per game, its id and both players' tokens) once it listens. It serves until its
stdin closes.

    .venv/bin/python bench/web_server.py --games 100 [--db PATH_OR_URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import open_app  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.engines import RandomMover  # noqa: E402
from bot.web.server import serving_board  # noqa: E402
from bot.web.tokens import make_token  # noqa: E402
from makruk import starting_fen  # noqa: E402
from storage.records import NewGame, Seat  # noqa: E402

SECRET = "bench-web-secret"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--db", help="a SQLite path or postgresql:// URL (default: a new SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(serve(args.games, args.db or str(Path(folder) / "web.db")))


async def serve(count: int, database: str) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = Settings(database_path=Path(database), database_url=database if "://" in database else None,
                        web_secret=SECRET, public_base_url=f"http://127.0.0.1:{port}")
    async with open_app(settings, engine=RandomMover(seed=1)) as app:
        now = app.games.clock.now()
        games = []
        for i in range(count):
            white = await app.storage.get_or_create_player("console", f"w{i}", f"White {i}")
            black = await app.storage.get_or_create_player("console", f"b{i}", f"Black {i}")
            game = await app.storage.create_game(NewGame(
                platform="console", channel=f"bench-{i}", white=Seat.human(white.id), black=Seat.human(black.id),
                start_fen=starting_fen("makruk"), promotion="forced", perpetual="forbid", move_seconds=86400,
                status="active"))
            expires = now + timedelta(hours=1)
            games.append({"id": game.id, "w": make_token(SECRET, game.id, "console", f"w{i}", expires),
                          "b": make_token(SECRET, game.id, "console", f"b{i}", expires)})
        async with serving_board(app.games, settings, app.games.clock, port, host="127.0.0.1"):
            print(json.dumps({"port": port, "games": games}), flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent goes


if __name__ == "__main__":
    main()
