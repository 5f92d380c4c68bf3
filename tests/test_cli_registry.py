"""The CLI's registry: each row of COMMANDS names a module and a click command in it, loaded
when that command runs; a row that names anything else is refused by name."""

from __future__ import annotations

import click
import pytest

from generator import cli


def test_every_row_loads_a_click_command_of_its_name():
    group = cli.main
    with click.Context(group) as ctx:
        for name in cli.COMMANDS:
            command = group.get_command(ctx, name)
            assert isinstance(command, click.Command) and command.name == name, name


def test_a_row_naming_something_else_is_refused(monkeypatch):
    group = cli.main
    monkeypatch.setitem(cli.COMMANDS, "planted", ("common", "EXIT_OK"))
    monkeypatch.delitem(group.commands, "planted", raising=False)
    with click.Context(group) as ctx, pytest.raises(RuntimeError, match="not a click command"):
        group.get_command(ctx, "planted")
