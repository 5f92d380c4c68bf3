"""cli: the `pnp` command, the only layer that knows the command line. Each command lives in
its own module (cli/validate.py, cli/build.py, ...) and is registered below with one line of
COMMANDS; a new command is a new module plus one row. A command's module is imported only when
that command runs (or help lists it), so `pnp --version` and `pnp validate` load no renderer. Also here: finding and
validating targets (targets.py), text reports (textreport.py), the points audit as printed
(audit.py) and `pnp watch` (watch.py); preflighting a target is preflight/target.py's.

May import: every other layer of generator.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading




def _stopped_while_starting(signum, frame):
    # Nothing is written yet, so nothing to clean up: end at once. (An exception raised here
    # could land in an import machinery callback, which would print it and carry on.)
    os._exit(128 + signum)


# Loading `pnp` and then its command takes a moment (ReportLab, pydantic): a Ctrl-C or SIGTERM
# meanwhile ends `pnp` quietly with 130 or 143. The guard covers this module's own imports, and
# again PnpGroup.main up to the moment the command is loaded (get_command); from then on the
# command's own handling stops the work, and the previous handlers are back.
_PREVIOUS: dict = {}


def _starting() -> None:
    if threading.current_thread() is threading.main_thread() and not _PREVIOUS:
        _PREVIOUS.update({s: signal.signal(s, _stopped_while_starting) for s in (signal.SIGINT, signal.SIGTERM)})


def _started() -> None:
    while _PREVIOUS:
        signum, handler = _PREVIOUS.popitem()
        signal.signal(signum, handler)


_starting()

import click  # noqa: E402

from generator import __version__  # noqa: E402
from generator.cli.common import EXIT_INPUT, make_console  # noqa: E402
from generator.core.errors import InputError  # noqa: E402

_started()


# command name -> (module under generator.cli, the click command's name in it), in help order
COMMANDS = {
    "validate": ("validate", "validate"),
    "schema": ("schema", "schema"),
    "list": ("list_cards", "list_cards"),
    "build": ("build", "build"),
    "calibrate": ("calibrate", "calibrate"),
    "preflight": ("preflight", "preflight"),
    "watch": ("watch", "watch_command"),
    "roster": ("roster", "roster"),
    "share": ("share", "share"),
    "unshare": ("share", "unshare"),
    "new": ("new", "new"),
    "example": ("example", "example"),
    "decklist": ("decklist", "decklist"),
    "serve": ("serve", "serve"),
    "layout": ("layout", "layout_command"),
    "export-sheet": ("sheets", "export_sheet"),
    "fetch": ("sheets", "fetch"),
}


class PnpGroup(click.Group):
    """Usage errors exit 2 with one line, as click does; input errors never show a traceback;
    Ctrl-C (or a stop a command turned into `Stopped`) ends with 128 + the signal, one line.
    Commands load lazily from COMMANDS (each module pulls in what its command needs)."""

    def list_commands(self, ctx):
        return sorted(set(COMMANDS) | set(self.commands))

    def main(self, *args, **kwargs):
        _starting()
        try:
            return super().main(*args, **kwargs)
        finally:
            _started()

    def get_command(self, ctx, name):
        if name not in self.commands and name in COMMANDS:
            module, attr = COMMANDS[name]
            self.commands[name] = getattr(importlib.import_module(f"generator.cli.{module}"), attr)
        _started()
        return self.commands.get(name)

    def invoke(self, ctx):
        # deferred into main()'s start-up guard: multiprocessing loads here, not at import
        from generator.core.workers import WorkerDied

        try:
            return super().invoke(ctx)
        except InputError as exc:
            from generator.cli.textreport import print_problems  # deferred with rich (common.make_console)
            print_problems(make_console(stderr=True), exc.problems)
            sys.exit(EXIT_INPUT)
        except WorkerDied as exc:  # killed from outside (`kill -9`, out of memory); the build cleaned up
            click.echo(f"pnp: {exc}; no output was changed", err=True)
            sys.exit(EXIT_INPUT)
        except KeyboardInterrupt as exc:
            signum = getattr(exc, "signum", signal.SIGINT)
            click.echo(f"pnp: stopped ({signal.Signals(signum).name})", err=True)
            sys.exit(128 + signum)


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")  # not package metadata: that lookup costs 25 ms
def main():
    """Print-and-play card, map and rulebook generator for YAML game packs."""


