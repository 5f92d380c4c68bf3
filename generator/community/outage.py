"""What the site answers when its database cannot do what a request asks, instead of a 500:

- the database does not answer (PostgreSQL down or refusing connections, SQLite locked past
  its 30 s wait, a pool with no free connection): 503 with Retry-After;
- the disk is full (SQLite's SQLITE_FULL, PostgreSQL's `disk_full`, or ENOSPC/EDQUOT from a
  file the server writes): 507, the change not made;
- the SQLite file was deleted or replaced under the running server (store.DatabaseGone):
  503, the change not reported saved, until the server is restarted.

One function, `answer`, used by the app's exception handlers and by the middleware that reads
the session before any route."""

from __future__ import annotations

import errno

from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from generator.core.errors import Location, Problem
from generator.community.store import Busy, DatabaseGone

RETRY_AFTER = 30  # seconds: long enough for a restarted database, short enough for a player to wait
DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


def disk_full(exc: BaseException) -> bool:
    orig = getattr(exc, "orig", None)
    if orig is not None:
        code = getattr(orig, "sqlite_errorcode", None)
        if code is not None and code & 0xFF == 13:  # SQLITE_FULL
            return True
        if getattr(orig, "sqlstate", None) == "53100":  # PostgreSQL's disk_full
            return True
        exc = orig
    return isinstance(exc, OSError) and exc.errno in DISK_FULL


def answer(exc: BaseException) -> tuple[int, Problem] | None:
    """The status and problem for a failure of the database or the disk, None for any other."""
    where = Location("server")
    if disk_full(exc):
        return 507, Problem("server.disk-full", "the server's disk is full: this change was not saved", where,
                            fix="try again later; the site's operator has to free space on the server")
    if isinstance(exc, DatabaseGone):
        return 503, Problem("server.database-gone", f"{exc}: nothing is saved until the server is restarted, "
                            "and this change was not", where, fix="the site's operator has to restart the server")
    if isinstance(exc, (OperationalError, PoolTimeout, Busy)) or (
            isinstance(exc, DBAPIError) and exc.connection_invalidated):
        return 503, Problem("server.database", "the site's database is not answering just now; nothing was changed",
                            where, fix=f"try again in {RETRY_AFTER} seconds")
    return None


def headers(status: int) -> dict[str, str]:
    return {"Retry-After": str(RETRY_AFTER)} if status == 503 else {}
