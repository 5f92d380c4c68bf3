"""Worker processes that stop when the build stops.

A build runs its parts in two worker processes (two cores, single-threaded ReportLab). When
the build fails, or is stopped with SIGINT (Ctrl-C) or SIGTERM (to the build alone or to its
whole process group), the workers are terminated at once and reaped, not left running and
writing files after the build has gone; the build then removes the temporary files they made
(core/staging.py).

The pool is our own small one (a forked process per job, its result on a pipe) rather than
multiprocessing.Pool: that pool hangs for ever when a worker dies under it (a SIGTERM to the
process group kills the workers, and Pool waits for their lost tasks, or deadlocks in
terminate() on a queue lock a killed worker held), and its workers print tracebacks when the
build is killed. Here a worker that dies is an error at once, every worker is reaped before
the pool returns, and on Linux a worker dies with the build even when the build is killed
with SIGKILL (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from types import FrameType
from typing import TYPE_CHECKING, Literal, TypeAlias, TypeVar, cast

from generator.core import progress
from generator.core.errors import WorkerDied  # noqa: F401  (raised here; defined there so the CLI need not load this module)

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess
    from multiprocessing.queues import Queue

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
PROCESSES = 2  # workers at once: two cores, each worker's ReportLab single-threaded
REAP_SECONDS = 1.0  # how long a terminated worker may take to go before it is killed

Job = TypeVar("Job")
Result = TypeVar("Result")
# the workers' progress events, on their way to the parent (a string: multiprocessing's Queue is not generic at run time)
Events: TypeAlias = "Queue[progress.Event]"
# what a worker sends back: its result, or the exception it raised (the parent raises it)
Answer = tuple[Literal["ok"], object] | tuple[Literal["error"], BaseException]


class Stopped(KeyboardInterrupt):
    """The build was stopped by a signal. A KeyboardInterrupt (so no `except Exception` eats it,
    and `pnp watch` ends on it as on Ctrl-C)."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")




def _die_with_parent() -> None:
    """Linux: the kernel kills this worker when the process that forked it dies."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # loaded by the pool before it forks (WorkerPool), so a worker finds it loaded
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG


def _worker_signals() -> None:
    # The parent decides what a Ctrl-C means; SIGTERM (from the parent, or to the process
    # group) ends the worker at once, whatever it is doing.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def _child(fn: Callable[[Job], object], job: Job, conn: Connection, events: Events | None) -> None:
    _worker_signals()
    # what the worker inherited (modules, the loaded pack, what the parent read ahead) lives as long
    # as the worker: frozen, the collector walks only what the worker makes (a kit's rulebook worker
    # ran 2 collections over the inherited pack, ~10 ms of CPU; its pieces worker 1)
    gc.freeze()
    # progress events go to the parent through its queue (or nowhere: not the parent's listener)
    progress.set_listener(events.put if events is not None else None)
    answer: Answer
    try:
        answer = ("ok", fn(job))
    except BaseException as exc:  # handed to the parent, which raises it
        answer = ("error", exc)
    try:
        try:
            conn.send(answer)
        except (TypeError, AttributeError, ValueError, RecursionError) as exc:  # an answer pickle cannot carry
            conn.send(("error", WorkerDied(f"a worker's answer could not be sent back: {exc}")))
    except OSError:  # the build has gone: nothing to tell, nothing to print
        pass
    finally:
        with contextlib.suppress(Exception):  # stdout may be a pipe the build's reader closed
            sys.stdout.flush()
        if events is not None:  # the queue's feeder thread hands over its last events before the exit
            with contextlib.suppress(Exception):
                events.close()
                events.join_thread()
        os._exit(0)  # no atexit handlers and no tracebacks of a forked copy of the build


@contextlib.contextmanager
def signals_blocked() -> Iterator[None]:
    """SIGINT and SIGTERM wait (are delivered after the block) in this thread."""
    already = set(STOP_SIGNALS) & signal.pthread_sigmask(signal.SIG_BLOCK, [])
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        yield
    finally:  # unblocked even when a signal caught just before the block is raised in it
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(STOP_SIGNALS) - already)


class WorkerPool:
    """`map(fn, jobs)` in up to `processes` forked workers; see the module docstring."""

    def __init__(self, processes: int, progress_queue: Events | None = None):
        self.processes = max(1, processes)
        # deferred: multiprocessing loads when a pool starts; a build of one part (`--only cards`) starts none
        import multiprocessing
        if sys.platform.startswith("linux"):
            # once here rather than in each worker (_die_with_parent): a kit forks four, each
            # paying ~2.5 ms of CPU to load it while the others draw
            import ctypes  # noqa: F401
        self.running: dict[Connection, tuple[BaseProcess, int]] = {}  # connection -> (process, job index)
        self.context = multiprocessing.get_context("fork")
        self.events = progress_queue

    def map(self, fn: Callable[[Job], Result], jobs: Iterable[Job], chunksize: int = 1) -> list[Result]:
        jobs = list(jobs)
        results: list[Result | None] = [None] * len(jobs)
        for index, value in self.as_completed(fn, jobs):
            results[index] = value
        return cast(list[Result], results)  # every index was filled: as_completed yields each job once or raises

    def as_completed(self, fn: Callable[[Job], Result], jobs: Iterable[Job], idle: Callable[[], object] | None = None,
                     interval: float = 0.1) -> Iterator[tuple[int, Result]]:
        """Yield (job index, result) as each job finishes; `idle()` is called every `interval`
        seconds while none has (the build drains its workers' progress events there). A job
        appended to `jobs` (a list) while this runs, by its caller between two results (a job
        that needs what another made), is run too, after those already waiting."""
        from multiprocessing.connection import wait  # deferred: loaded with the pool (see __init__)
        jobs = jobs if isinstance(jobs, list) else list(jobs)
        begun = 0
        while begun < len(jobs) or self.running:
            while begun < len(jobs) and len(self.running) < self.processes:
                index, job = begun, jobs[begun]
                begun += 1
                recv, send = self.context.Pipe(duplex=False)
                process: BaseProcess = self.context.Process(target=_child, args=(fn, job, send, self.events), daemon=True)
                with signals_blocked():  # the worker starts with them blocked, until its own handlers are set
                    process.start()
                    self.running[recv] = (process, index)
                send.close()
            # wait() hands back some of the objects it was given (typeshed widens them to any waitable)
            ready = cast("list[Connection]", wait(list(self.running), None if idle is None else interval))
            if idle is not None:
                idle()
            for conn in ready:
                process, index = self.running[conn]  # tracked until reaped: a stop meanwhile reaps it
                try:
                    answer: Answer = conn.recv()
                except (EOFError, OSError):
                    process.join()
                    code = process.exitcode
                    how = (f"was killed by {signal.Signals(-code).name}" if code is not None and code < 0
                           else f"ended with code {code}")
                    raise WorkerDied(f"a worker process {how} before it finished") from None
                process.join()
                del self.running[conn]
                conn.close()
                if answer[0] == "error":
                    raise answer[1]
                yield index, cast(Result, answer[1])  # what fn returned, pickled and back

    def stop(self) -> None:
        """Terminate every running worker and reap it (killed if it does not go at once)."""
        running, self.running = list(self.running.items()), {}
        for _conn, (process, _index) in running:
            with contextlib.suppress(OSError, ValueError):
                process.terminate()
        deadline = time.monotonic() + REAP_SECONDS
        for conn, (process, _index) in running:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None:
                with contextlib.suppress(OSError, ValueError):
                    process.kill()
                process.join()
            conn.close()


def progress_queue() -> Events:
    """A queue the workers of `worker_pool(..., progress_queue=q)` put their progress events on."""
    import multiprocessing  # deferred: loaded with the pool that needs it (see WorkerPool)
    return multiprocessing.get_context("fork").Queue()


@contextlib.contextmanager
def worker_pool(processes: int, progress_queue: Events | None = None) -> Iterator[WorkerPool]:
    """A pool whose workers are terminated and reaped when the block ends, however it ends."""
    pool = WorkerPool(processes, progress_queue)
    try:
        yield pool
    finally:
        pool.stop()


# The signal a stop_on_signals block was asked to stop by. Kept besides the exception, which
# Python drops ("Exception ignored in ...") when the handler happens to run inside a __del__
# or a weakref callback; past_stopping() raises it again before anything is made final.
_REQUESTED: list[int] = []


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn SIGINT and SIGTERM into `Stopped` in this (main) thread for the block, so cleanup
    runs; a second signal during that cleanup is ignored (the first is being honoured). The
    previous handlers come back afterwards."""
    def handler(signum: int, frame: FrameType | None) -> None:
        for s in STOP_SIGNALS:
            signal.signal(s, signal.SIG_IGN)
        _REQUESTED.append(signum)
        raise Stopped(signum)

    try:
        previous = {s: signal.signal(s, handler) for s in STOP_SIGNALS}
    except ValueError:  # not the main thread: signals cannot be caught here
        yield
        return
    _REQUESTED.clear()
    try:
        yield
    finally:
        _REQUESTED.clear()
        for s, h in previous.items():
            signal.signal(s, h)


@contextlib.contextmanager
def past_stopping() -> Iterator[None]:
    """For the block that makes a build's outputs final (the renames): signals wait until it
    is done, and then, the build being whole, they no longer stop it. A stop asked for earlier
    whose exception was lost is raised here, before the block."""
    with signals_blocked():
        if _REQUESTED:
            raise Stopped(_REQUESTED[0])
        yield
        with contextlib.suppress(ValueError):  # not the main thread: nothing was caught here
            for s in STOP_SIGNALS:
                signal.signal(s, signal.SIG_IGN)  # a signal that arrived meanwhile is dropped
