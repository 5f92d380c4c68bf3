"""A real PostgreSQL server for the community tests: Debian's postgresql binaries, a data
folder in a temporary directory, started on a free port and stopped at the end. As root
(initdb refuses to run as root) the server runs as the `postgres` system user. Skipped, with
the reason, when there are no PostgreSQL binaries."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest


def _bindir() -> Path | None:
    for found in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(found, "initdb").exists() and Path(found, "pg_ctl").exists():
            return Path(found)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Postgres:
    def __init__(self):
        self.bindir = _bindir()
        if self.bindir is None:
            pytest.skip("no PostgreSQL binaries (initdb, pg_ctl): apt-get install postgresql")
        try:
            import psycopg  # noqa: F401
        except ImportError:
            pytest.skip("psycopg is not installed: the `postgres` extra (pip install './pnp[postgres]')")
        self.root = Path(tempfile.mkdtemp(prefix="pnp-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            if shutil.which("runuser") is None:
                pytest.skip("running as root without runuser: initdb refuses root")
            shutil.chown(self.root, "postgres", "postgres")
            os.chmod(self.root, 0o700)
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.start()

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "-l", str(self.root / "log"), "-o",
                  f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                  f"-c max_connections=200", "start")

    def halt(self) -> None:
        """Stop the server (the data stays: start() brings it back), as a database that goes down."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def sql(self, url: str, statement: str) -> None:
        """Run one statement as the superuser on the database of `url` (autocommit)."""
        import psycopg
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname={url.rsplit('/', 1)[1]}",
                             autocommit=True) as conn:
            conn.execute(statement)

    def _run(self, tool: str, *args: str) -> None:
        result = subprocess.run([*self.prefix, str(self.bindir / tool), *args], capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"{tool} failed: {result.stdout}{result.stderr}")

    def new_database(self) -> str:
        """A new empty database: its URL."""
        import psycopg
        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        except RuntimeError:
            pass  # stopped already (halt)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


# the fixtures the database tests share: a PostgreSQL server per test module, and each test run
# once on a fresh SQLite file and once on a fresh PostgreSQL database
@pytest.fixture(scope="module")
def postgres():
    server = Postgres()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'site.sqlite3'}"
    return request.getfixturevalue("postgres").new_database()
