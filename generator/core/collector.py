"""The cyclic garbage collector around work whose objects live as long as the process."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def lasting() -> Iterator[None]:
    """Run the body without the collector, and freeze what it made: objects that live as long as
    the process (and the workers it forks after) and hold few cycles. The collector would only
    walk them again and again, in this process and in every worker that inherits them: a
    command's imports (cli/common.py: modules_loading), a kit's drawing read ahead
    (kit.preload_drawing: on a first run of Boss Fight's kit a young-generation pass over its
    50,000 objects, 10 ms of CPU, for 1,200 unreachable objects)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
