"""An arena in a LINE group, where a push counts once per member: its first batch is pushed,
later batches ride on the replies of the games being played, and no notice is written per game
(docs/tournaments.md 3.2)."""

from __future__ import annotations

from bot.clock import FakeClock
from storage import Storage

from .tournament_support import Event


async def test_an_arena_in_a_line_group_pushes_only_its_first_batch(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock, platform="line", channel="group:G1")
    await event.ok("alice", "tournament new arena 60m 3+2")
    for name in ["alice", "bob", "cy", "dan"]:
        await event.ok(name, "join")
    await event.ok("alice", "tournament start")
    waiting = await storage.pending_notices("line", "group:G1")
    assert [n.push for n in waiting if n.kind == "tournament_pairings"] == [True]  # the first batch
    state = await event.event_state()
    for board in state.boards:  # every game ends: the four wait for the next batch
        black = await storage.get_player(board.black)
        await event.ok(black.user_id, "resign")
    clock.advance(seconds=11)
    await event.tournaments.tick("line")
    state = await event.event_state()
    assert state.tournament.last_round == 2
    waiting = await storage.pending_notices("line", "group:G1")
    later = [n for n in waiting if n.kind == "tournament_pairings" and n.key.endswith("r2")]
    assert len(later) == 1 and not later[0].push  # it rides on the next reply
    assert not [n for n in waiting if n.kind == "tournament_game"]
