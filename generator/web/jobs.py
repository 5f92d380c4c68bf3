"""Heavy jobs: the PDFs the builder makes for a build (roster, cards, pieces) take from a
tenth of a second to a few seconds of CPU, where a click in the editor takes milliseconds.
So that a few players printing (or one script asking again and again) cannot slow everyone
else down:

- a client has at most one heavy job at a time: a second one asked while the first runs
  (in any worker process: the claim is a lock on a file per client, shared by the workers
  through ENV_JOBS) is refused with 429 and a message;
- each worker process runs one heavy job at a time, on a thread of its own at a lower CPU
  priority (nice JOB_NICENESS, where the system allows it), so the editor's requests, in this
  process and the others, come first; the other jobs wait for their turn without holding a
  thread (the editor's requests need the threads), up to WAIT_SECONDS, then 503.

The client is the address uvicorn reports (behind a proxy on this computer, the address the
proxy passes on in X-Forwarded-For).
"""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import ThreadPoolExecutor
import hashlib
import os
import tempfile
import threading
import time
from pathlib import Path

from generator.core.errors import InputError, Location, Problem

try:
    import fcntl
except ImportError:  # Windows: claims are kept per process only
    fcntl = None  # type: ignore[assignment]  # mypy reads the module as Linux's

ENV_JOBS = "PNP_JOBS_DIR"  # the folder of the per-client lock files, shared by the worker processes
JOBS_PER_PROCESS = 1
WAIT_SECONDS = 60.0
POLL_SECONDS = 0.02  # how often a waiting job looks for a free turn (no thread is held meanwhile)
JOB_NICENESS = 10


def _lower_priority() -> None:
    """The job thread's own CPU priority (Linux: a thread's niceness is its own)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), JOB_NICENESS)


def _refused(status: int, message: str, fix: str) -> InputError:
    exc = InputError([Problem("request.busy", message, Location("request"), fix=fix)])
    exc.status = status
    return exc


class Jobs:
    def __init__(self, folder: Path | None = None, per_process: int = JOBS_PER_PROCESS):
        self._own = None
        if folder is None:  # an app made without `pnp serve` (one process): a folder of its own
            self._own = tempfile.TemporaryDirectory(prefix="pnp-jobs-")
            folder = Path(self._own.name)
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.turns = threading.BoundedSemaphore(per_process)
        self.threads = ThreadPoolExecutor(per_process, thread_name_prefix="pnp-job", initializer=_lower_priority)
        self._held: set[str] = set()  # without fcntl
        self._held_lock = threading.Lock()

    @classmethod
    def from_env(cls) -> "Jobs":
        folder = os.environ.get(ENV_JOBS)
        return cls(Path(folder) if folder else None)

    def _claim(self, client: str):
        """Claim the client's one job, or raise 429: an open, locked file (closing it frees the claim)."""
        key = hashlib.sha256(client.encode("utf-8", "replace")).hexdigest()[:32]
        busy = _refused(429, "this browser is already making a PDF; it can ask for the next one when that one is "
                             "done", "wait for the download to finish, then ask again")
        if fcntl is None:
            with self._held_lock:
                if key in self._held:
                    raise busy
                self._held.add(key)
            return key
        fd = os.open(self.folder / key, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise busy from None
        return fd

    def _release(self, claim) -> None:
        if isinstance(claim, str):
            with self._held_lock:
                self._held.discard(claim)
        else:
            os.close(claim)

    @contextlib.asynccontextmanager
    async def client(self, client: str):
        """The block is the client's one heavy job (429 if it has one running already)."""
        claim = self._claim(client)
        try:
            yield
        finally:
            self._release(claim)

    @contextlib.asynccontextmanager
    async def turn(self):
        """Run the block when this process has a free turn; wait for one without holding a
        thread, up to WAIT_SECONDS (then 503)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while not self.turns.acquire(blocking=False):
            if time.monotonic() > deadline:
                raise _refused(503, "the builder is busy making other players' PDFs", "ask again in a minute")
            await asyncio.sleep(POLL_SECONDS)
        try:
            yield
        finally:
            self.turns.release()

    async def run(self, fn, *args):
        """fn(*args) on a job thread, in this process's turn; its result."""
        async with self.turn():
            return await asyncio.wrap_future(self.threads.submit(fn, *args))
