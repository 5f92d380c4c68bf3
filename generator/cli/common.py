"""What every command shares: exit codes and a console that cannot be driven by escape
sequences hidden in a stranger's file."""

from __future__ import annotations

import re

from rich.console import Console

EXIT_OK, EXIT_RULES, EXIT_INPUT = 0, 1, 2


# control characters a build or pack may carry in its text (an ESC could drive the terminal)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class SafeConsole(Console):
    """A console that shows control characters in names and messages as visible escapes
    (`\\x1b`), so text from a stranger's file cannot move the cursor or retitle the terminal."""

    def print(self, *objects, **kwargs):
        return super().print(*(_CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), o)
                               if isinstance(o, str) else o for o in objects), **kwargs)


def make_console(stderr: bool = False) -> Console:
    return SafeConsole(stderr=stderr, highlight=False, soft_wrap=True)
