"""A throwaway PostgreSQL server for the tests: its own cluster in a temporary directory.

The tests never use a server they did not start. `PgServer.start()` runs `initdb` and
`pg_ctl` from Debian's `postgresql` package (as the `postgres` user when the tests run as
root, since PostgreSQL refuses to run as root), listens on 127.0.0.1 on a free port, and
`stop()` removes everything. Each test gets a database of its own (`new_database()`), so no
state is shared between tests; `migrated_database()` gives one already at today's schema, a copy
of one migrated once per run (each test's own migration from empty cost more than its copy).

Durability settings are off (fsync, synchronous_commit): a test cluster is thrown away, and
the crash tests that prove durability run on their own files. `PgServer(durable=True)`, for
the benchmarks, keeps PostgreSQL's defaults.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from itertools import count
from pathlib import Path

import asyncpg


class PgServerMissing(RuntimeError):
    """No PostgreSQL server binaries here: install Debian's `postgresql` (./test.sh does)."""


def find_bindir() -> Path:
    """The newest installed PostgreSQL's bin directory (Debian keeps it off PATH)."""
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
    if candidates:
        return candidates[-1].parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise PgServerMissing("initdb not found: install the postgresql package (./test.sh installs it as root)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PgServer:
    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable  # fsync and synchronous commits on: for benchmarks, not tests
        self.bindir = find_bindir()
        self.root = Path(tempfile.mkdtemp(prefix="makruk-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        self._names = count(1)
        self._migrated: str | None = None  # the database migrated once, the template of the others

    @property
    def admin_url(self) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def _run(self, *argv: str) -> str:
        command = [str(self.bindir / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        # LC_ALL=C: the output read back (pg_controldata's) is in English whatever the locale.
        result = subprocess.run(command, capture_output=True, text=True, cwd=self.root,
                                env={**os.environ, "LC_ALL": "C"})
        if result.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
        return result.stdout

    def start(self) -> PgServer:
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", self.user, "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        durability = "" if self.durable else "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                   f"-c unix_socket_directories={self.root} {durability}"
                   "-c max_connections=200 -c shared_buffers=64MB")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "server.log"),
                  "-w", "-t", "60", "start")
        return self

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    async def new_database(self, prefix: str = "t", *, template: str = "template0") -> str:
        """A new database's URL: empty (from template0, so nothing is inherited), or a copy of
        ``template``."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        finally:
            await conn.close()
        return self.url(name)

    async def migrated_database(self) -> str:
        """A new database at today's schema and with nothing in it, as `open_storage` leaves an
        empty one."""
        if self._migrated is None:
            from storage import open_storage  # here: the server itself needs none of the project

            url = await self.new_database("migrated")
            await (await open_storage(url)).close()
            self._migrated = url.rsplit("/", 1)[1]
        return await self.new_database(template=self._migrated)

    def restart(self, *, immediate: bool = True) -> None:
        """Restarts the server with the options it was started with; ``immediate`` as after a
        crash (``pg_ctl restart -m immediate``: no checkpoint, open connections cut, WAL replayed)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate" if immediate else "fast",
                  "-l", str(self.root / "server.log"), "-w", "-t", "60", "restart")

    def stop_server(self, *, immediate: bool = False) -> None:
        """Stops the server and keeps its cluster (`start_server` brings it back); `immediate`
        as a crash would: no checkpoint, recovery at the next start."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate" if immediate else "fast", "-w", "stop")

    def start_server(self, *, wait: bool = True) -> None:
        """Starts the stopped server again on the same port, with the options `start` gave it
        (pg_ctl's restart of a stopped server reads them back from postmaster.opts); with `wait`,
        returns once it takes connections. Without, at once, while it is still starting up."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"),
                  "-w" if wait else "-W", "-t", "60", "restart")
        if wait:
            self.wait_until_ready()

    def wait_until_ready(self, timeout: float = 60.0) -> None:
        """Waits until the server takes connections. `pg_ctl -w` returns earlier after a crash
        (`-m immediate`): as soon as recovery starts, while connections still get 57P03."""
        ready = [str(self.bindir / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)]
        self._poll(lambda: subprocess.run(ready, check=False).returncode == 0, "takes no connections", timeout)

    def _poll(self, done: Callable[[], bool], failing: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL on port {self.port} {failing} after {timeout:g} s")
            time.sleep(0.05)

    def start_in_recovery(self) -> None:
        """Starts the stopped server as a standby without hot standby: it is up but refuses
        every connection with 57P03 ("the database system is not accepting connections"), as
        a server starting up does, until `promote()`."""
        (self.data / "standby.signal").touch()
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write("hot_standby = off\n")
        # pg_ctl -w returns once recovery runs: up, refusing connections. After a crash it may
        # return while the cluster still recovers from the crash, and `pg_ctl promote` refuses
        # a server not yet in standby: so wait for that.
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w", "-t", "60", "restart")
        self._poll(lambda: "in archive recovery" in self._run("pg_controldata", "-D", str(self.data)),
                   "is not in standby")

    def promote(self) -> None:
        """Ends the recovery `start_in_recovery` began: the server takes connections again."""
        self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "promote")
