"""A throwaway PostgreSQL server for the tests: its own cluster in a temporary directory.

The tests never use a server they did not start. `PgServer.start()` runs `initdb` and
`pg_ctl` from Debian's `postgresql` package (as the `postgres` user when the tests run as
root, since PostgreSQL refuses to run as root), listens on 127.0.0.1 on a free port, and
`stop()` removes everything. Each test gets a database of its own (`new_database()`), so no
state is shared between tests.

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

    @property
    def admin_url(self) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def _run(self, *argv: str) -> None:
        command = [str(self.bindir / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, cwd=self.root)
        if result.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")

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

    async def new_database(self, prefix: str = "t") -> str:
        """A new, empty database's URL (from template0, so nothing is inherited)."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        finally:
            await conn.close()
        return self.url(name)
