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
    (kit.preload_drawing, through `in_command`)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def in_command() -> contextlib.AbstractContextManager[None]:
    """`lasting` where the process already freezes what lives as long as it (the pnp command has
    frozen its imports: cli/common.py), else nothing: a library caller's or a test's process may
    build many times and drop what a build made, and a frozen cycle is never freed. For a kit's
    drawing read ahead (kit.preload_drawing): on a first run of Boss Fight's kit a young-generation
    pass walked its ~50,000 objects in the middle of it (10 ms of CPU), for 1,200 unreachable."""
    return lasting() if gc.get_freeze_count() else contextlib.nullcontext()
