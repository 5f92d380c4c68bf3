"""Worker processes that stop when the build stops.

A build runs its parts in two worker processes (two cores, single-threaded ReportLab). When
the build fails, or is stopped with SIGINT (Ctrl-C) or SIGTERM, the workers are terminated
at once, not left running and writing files after the build has gone; the build then removes
the temporary files they made (core/staging.py).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal

from generator.core import progress


class Stopped(KeyboardInterrupt):
    """The build was stopped by a signal. A KeyboardInterrupt (so no `except Exception` eats it,
    and `pnp watch` ends on it as on Ctrl-C)."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")


def _worker_init(progress_queue=None) -> None:
    # The parent decides what a Ctrl-C means; SIGTERM (from the parent's terminate) ends the
    # worker at once, whatever it is doing.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # progress events go to the parent through the queue (or nowhere: not the parent's listener)
    progress.set_listener(progress_queue.put if progress_queue is not None else None)


def progress_queue():
    """A queue the workers of `worker_pool(..., progress_queue=q)` put their progress events on."""
    return multiprocessing.get_context("fork").Queue()


@contextlib.contextmanager
def worker_pool(processes: int, progress_queue=None):
    """A process pool that is terminated (not waited for) if the block raises or is stopped."""
    pool = multiprocessing.get_context("fork").Pool(processes, initializer=_worker_init, initargs=(progress_queue,))
    try:
        yield pool
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    pool.close()
    pool.join()


@contextlib.contextmanager
def stop_on_signals():
    """Turn SIGINT and SIGTERM into `Stopped` in this (main) thread for the block, so cleanup
    runs; the previous handlers come back afterwards."""
    def handler(signum, frame):
        raise Stopped(signum)

    try:
        previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:  # not the main thread: signals cannot be caught here
        yield
        return
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
