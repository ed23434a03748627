"""The LINE door through chaos, black-box (issue 27): is anything acknowledged lost?

Two real ``makruk-bot line`` server processes on one PostgreSQL database (a throwaway cluster
on loopback, durable settings, started here); this process is LINE (a fake Messaging API) and
the people: group chats, each a game between two people who send their next move once they saw
the answer to the last one, as signed webhooks to a random server, sent again to the other
server when a POST fails, as LINE redelivers. Meanwhile one server is killed with SIGKILL every
few seconds and started again a moment later, and PostgreSQL is restarted with
``pg_ctl restart -m immediate``. Then every chat's game and every answer it was shown are
checked (see ``bench/chaos.py``).

    .venv/bin/python bench/chaos_line.py [--chats 30] [--plies 68] [--seconds 150]
        [--kill-every 2 4] [--restart-after 0.5 2] [--kill-after-ok 0.0] [--db-restarts 1]
        [--settle 120] [--seed 27] [--keep DIR]

Prints the table (chats, kills, database restarts, events, redeliveries, lost, double,
stalled) and the first problems found. Exits 1 if something was lost, doubled or stalled.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.chaos import Plan, run_chaos  # noqa: E402


def main() -> int:
    defaults = Plan()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--chats", type=int, default=defaults.chats, help="group chats, one game each")
    parser.add_argument("--plies", type=int, default=defaults.plies, help="plies each game is planned to last")
    parser.add_argument("--seconds", type=float, default=defaults.seconds, help="how long the chaos lasts")
    parser.add_argument("--kill-every", type=float, nargs=2, default=defaults.kill_every, metavar=("MIN", "MAX"),
                        help="seconds between two kills")
    parser.add_argument("--restart-after", type=float, nargs=2, default=defaults.restart_after,
                        metavar=("MIN", "MAX"), help="seconds a killed server stays down")
    parser.add_argument("--kill-after-ok", type=float, default=defaults.after_ok_chance, metavar="CHANCE",
                        help="chance that a server is also killed 0-40 ms after it answered a webhook 200")
    parser.add_argument("--db-restarts", type=int, default=defaults.db_restarts,
                        help="PostgreSQL restarts (pg_ctl restart -m immediate)")
    parser.add_argument("--settle", type=float, default=defaults.settle,
                        help="seconds at most, after the chaos, for the games and the outbox to finish")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--keep", type=Path, help="keep the servers' logs in this folder")
    args = parser.parse_args()
    plan = Plan(chats=args.chats, plies=args.plies, seconds=args.seconds,
                kill_every=(args.kill_every[0], args.kill_every[1]),
                restart_after=(args.restart_after[0], args.restart_after[1]), after_ok_chance=args.kill_after_ok,
                db_restarts=args.db_restarts, settle=args.settle, seed=args.seed)
    return asyncio.run(run(plan, args.keep))


async def run(plan: Plan, keep: Path | None) -> int:
    from tests.pgserver import PgServer  # the throwaway cluster the tests use (as bench_service.py does)

    server = PgServer(durable=True).start()  # a restart must not lose what was committed
    try:
        url = await server.new_database("chaos")
        with tempfile.TemporaryDirectory() as temporary:
            folder = keep or Path(temporary)
            report = await run_chaos(plan, database_url=url, folder=folder,
                                     restart_database=lambda: asyncio.to_thread(server.restart))
    finally:
        server.stop()
    print(report.table())
    if report.problems or report.notes:
        print()
        print(report.details())
    return 1 if report.lost or report.double or report.stalled else 0


if __name__ == "__main__":
    sys.exit(main())
