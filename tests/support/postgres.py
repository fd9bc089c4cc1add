"""A throwaway PostgreSQL cluster from the Debian binaries, for the store's tests.

initdb and pg_ctl come from /usr/lib/postgresql/<version>/bin (the `postgresql` package;
`.ci/run` installs it). PostgreSQL refuses to run as root, so as root the cluster runs as
the `postgres` user. It listens only on a unix socket in its temporary folder: no port to
collide with another run. Each test gets a database of its own.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))


class PostgresCluster:
    def __init__(self, root: Path) -> None:
        if not _BIN_DIRS:
            raise RuntimeError("PostgreSQL is not installed: apt-get install -y postgresql")
        self.bin = _BIN_DIRS[-1]
        self.root = root
        self.data = root / "data"
        self.socket_dir = root
        self._names = itertools.count(1)

    def _run(self, *argv: str) -> None:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        self.resume()

    def resume(self) -> None:
        """Start a cluster stopped by `stop` again, on the same data and socket."""
        options = f"-k {self.socket_dir} -c listen_addresses='' -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-w", "-l", str(self.root / "log"), "-o",
                  options, "start")  # fmt: skip

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, database: str) -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    def new_database(self) -> str:
        """A fresh empty database; its URL in the libpq form DATABASE_URL takes."""
        name = f"lockin_{next(self._names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    root = Path(tempfile.mkdtemp(prefix="lockin-pg-"))
    cluster = PostgresCluster(root)
    try:
        cluster.start()
        yield cluster
    finally:
        try:
            cluster.stop()
        finally:
            shutil.rmtree(root, ignore_errors=True)
