"""Nothing acknowledged is lost when LINE servers die (issue 27), tried as an operator would.

Two real ``makruk-bot line`` processes on one PostgreSQL cluster started here (durable, so a
restart loses nothing committed); eight group chats play planned games through them, each
message sent once its sender saw the answer to the one before, redelivered to the other server
when a POST fails. Meanwhile the servers are killed with SIGKILL every 2-4 s and right after some
200s, and PostgreSQL is restarted once with ``pg_ctl restart -m immediate``. Every chat's game
and answers are then checked (``bench/chaos.py``): nothing lost, nothing twice, no game stalled.
The larger run is ``bench/chaos_line.py``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench.chaos import Plan, run_chaos

from ..pgserver import PgServer

PLAN = Plan(chats=8, plies=40, seconds=32.0, kill_every=(2.0, 4.0), restart_after=(0.5, 2.0),
            after_ok_chance=0.04, db_restarts=1, settle=90.0, seed=27)


@pytest.mark.timeout(420)
async def test_nothing_acknowledged_is_lost_while_servers_are_killed_and_the_database_restarts(
        tmp_path: Path) -> None:
    server = PgServer(durable=True).start()
    try:
        url = await server.new_database("chaos")
        report = await run_chaos(PLAN, database_url=url, folder=tmp_path,
                                 restart_database=lambda: asyncio.to_thread(server.restart))
    finally:
        server.stop()
    print(report.table(), report.details(), sep="\n")
    # The faults happened, while the games were being played: the test cannot pass vacuously.
    assert len(report.kills) >= 10, report.table()
    assert report.kills_after_ok >= 1, report.table()
    assert report.database_restarts == 1, report.table()
    assert report.redeliveries >= 10, report.table()
    assert report.events >= PLAN.chats * 2
    assert (report.lost, report.double, report.stalled) == (0, 0, 0), \
        f"{report.table()}\n{report.details()}\nthe servers' logs: {tmp_path}/server-*/bot.log"
