"""cli: the `pnp` command, the only layer that knows the command line. Each command lives in
its own module (cli/validate.py, cli/build.py, ...) and is registered below with one line;
a new command is a new module plus one `main.add_command(...)`. Also here: finding and
validating targets (targets.py), text reports (textreport.py) and `pnp watch` (watch.py).

May import: every other layer of generator.
"""

from __future__ import annotations

import os
import signal
import sys
import threading


def _stopped_while_starting(signum, frame):
    # Nothing is written yet, so nothing to clean up: end at once. (An exception raised here
    # could land in an import machinery callback, which would print it and carry on.)
    os._exit(128 + signum)


# Loading the commands takes a moment (ReportLab, pydantic): a Ctrl-C or SIGTERM meanwhile
# ends `pnp` quietly with 130 or 143. The previous handlers come back once they are loaded.
_ON_MAIN_THREAD = threading.current_thread() is threading.main_thread()
_STARTING = (signal.SIGINT, signal.SIGTERM)
_PREVIOUS = {s: signal.signal(s, _stopped_while_starting) for s in _STARTING} if _ON_MAIN_THREAD else {}

import click  # noqa: E402

from generator.cli import (build, calibrate, decklist, layout, list_cards, new, preflight, roster, schema,  # noqa: E402
                           serve, share, sheets, validate, watch)
from generator.cli.common import EXIT_INPUT, make_console  # noqa: E402
from generator.cli.textreport import print_problems  # noqa: E402
from generator.core.errors import InputError  # noqa: E402
from generator.core.workers import WorkerDied  # noqa: E402

for _signum, _handler in _PREVIOUS.items():
    signal.signal(_signum, _handler)


class PnpGroup(click.Group):
    """Usage errors exit 2 with one line, as click does; input errors never show a traceback;
    Ctrl-C (or a stop a command turned into `Stopped`) ends with 128 + the signal, one line."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
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
@click.version_option(package_name="pnp-generator", prog_name="pnp")
def main():
    """Print-and-play card, map and rulebook generator for YAML game packs."""


main.add_command(validate.validate)
main.add_command(schema.schema)
main.add_command(list_cards.list_cards)
main.add_command(build.build)
main.add_command(calibrate.calibrate)
main.add_command(preflight.preflight)
main.add_command(watch.watch_command)
main.add_command(roster.roster)
main.add_command(share.share)
main.add_command(share.unshare)
main.add_command(new.new)
main.add_command(decklist.decklist)
main.add_command(serve.serve)
main.add_command(layout.layout_command)
main.add_command(sheets.export_sheet)
main.add_command(sheets.fetch)
