"""cli: the `pnp` command, the only layer that knows the command line. Each command lives in
its own module (cli/validate.py, cli/build.py, ...) and is registered below with one line;
a new command is a new module plus one `main.add_command(...)`. Also here: finding and
validating targets (targets.py), text reports (textreport.py) and `pnp watch` (watch.py).

May import: every other layer of generator.
"""

from __future__ import annotations

import sys

import click

from generator.cli import (build, calibrate, decklist, example, layout, list_cards, new, preflight, roster, schema,
                           serve, share, sheets, validate, watch)
from generator.cli.common import EXIT_INPUT, make_console
from generator.cli.textreport import print_problems
from generator.core.errors import InputError


class PnpGroup(click.Group):
    """Usage errors exit 2 with one line, as click does; input errors never show a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            print_problems(make_console(stderr=True), exc.problems)
            sys.exit(EXIT_INPUT)


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
main.add_command(example.example)
main.add_command(decklist.decklist)
main.add_command(serve.serve)
main.add_command(layout.layout_command)
main.add_command(sheets.export_sheet)
main.add_command(sheets.fetch)
