"""cli: the `pnp` command, the only layer that knows the command line. Each command lives in
its own module (cli/validate.py, cli/build.py, ...) and is registered below with one line of
COMMANDS; a new command is a new module plus one row. A command's module is imported only when
that command runs (or help lists it), so `pnp --version` and `pnp validate` load no renderer. Also here: finding and
validating targets (targets.py), text reports (textreport.py) and `pnp watch` (watch.py).

May import: every other layer of generator.
"""

from __future__ import annotations

import importlib
import sys

import click

from generator import __version__
from generator.cli.common import EXIT_INPUT, make_console
from generator.core.errors import InputError


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
    "decklist": ("decklist", "decklist"),
    "serve": ("serve", "serve"),
    "layout": ("layout", "layout_command"),
    "export-sheet": ("sheets", "export_sheet"),
    "fetch": ("sheets", "fetch"),
}


class PnpGroup(click.Group):
    """Usage errors exit 2 with one line, as click does; input errors never show a traceback.
    Commands load lazily from COMMANDS (each module pulls in what its command needs)."""

    def list_commands(self, ctx):
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx, name):
        if name in self.commands or name not in COMMANDS:
            return self.commands.get(name)
        module, attr = COMMANDS[name]
        command = getattr(importlib.import_module(f"generator.cli.{module}"), attr)
        self.commands[name] = command
        return command

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            from generator.cli.textreport import print_problems  # deferred with rich (common.make_console)
            print_problems(make_console(stderr=True), exc.problems)
            sys.exit(EXIT_INPUT)


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")  # not package metadata: that lookup costs 25 ms
def main():
    """Print-and-play card, map and rulebook generator for YAML game packs."""


