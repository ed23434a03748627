"""Child process of the crash test: appends moves forever, printing each after its commit.

Usage: python storage_crash_child.py DATABASE CHANNEL  (a SQLite path or a postgresql:// URL)
Prints "PLY UCI" once append_move has returned, i.e. once the move is reported stored.
"""

from __future__ import annotations

import asyncio
import sys


async def append_forever(database: str, channel: str) -> None:
    from storage import NewGame, NewMove, Seat, open_storage

    storage = await open_storage(database)
    player = await storage.get_or_create_player("console", channel, channel)
    game = await storage.active_game("console", channel)
    if game is None:
        game = await storage.create_game(
            NewGame(
                platform="console",
                channel=channel,
                white=Seat.human(player.id),
                black=Seat.engine(1),
                start_fen="8/8/8/8/8/8/8/8 w 0 1",
                promotion="forced",
                perpetual="forbid",
                move_seconds=0,
                status="active",
            )
        )
    while True:
        ply = len(game.moves) + 1
        uci = f"{channel}:{ply}"
        game = await storage.append_move(
            game.id, game.version, NewMove(uci, uci, "w" if ply % 2 else "b")
        )
        print(ply, uci, flush=True)


if __name__ == "__main__":
    asyncio.run(append_forever(sys.argv[1], sys.argv[2]))
