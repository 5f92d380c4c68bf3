"""What every command shares: exit codes and a console that cannot be driven by escape
sequences hidden in a stranger's file."""

from __future__ import annotations

import re
import sys

import click
from rich.console import Console

from generator.rules.limits import parse_points

EXIT_OK, EXIT_RULES, EXIT_INPUT = 0, 1, 2


def points_option(ctx, param, value):
    """click callback of `--points N` / `--points none` (no limit)."""
    try:
        return parse_points(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


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


# `-o -`: standard output, for the commands whose output is one file
STDOUT = "-"


def is_stdout(path) -> bool:
    return path is not None and str(path) == STDOUT


def write_stdout(data: bytes | str) -> None:
    """The bytes of a single-file output on standard output, exactly (no newline added)."""
    sys.stdout.flush()  # text already written goes first
    stream = sys.stdout.buffer
    stream.write(data.encode("utf-8") if isinstance(data, str) else data)
    stream.flush()


def refuse_stdout(command: str, writes: str, fix: str = "give -o a folder to write into") -> None:
    """`-o -` where the output is not one file: an input error (exit 2), said in one line."""
    from generator.core.errors import InputError, Location, Problem
    raise InputError([Problem("cli.stdout", f"`pnp {command} -o -` cannot write to standard output: it writes "
                              f"{writes}", Location("-o"), found="-", expected="a folder", fix=fix)])
