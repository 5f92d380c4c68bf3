"""`pnp icons`: find the bundled icons (game-icons.net) a card's `art: {icon: NAME}` can name."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import EXIT_INPUT


@click.group()
def icons():
    """Find icons of the bundled set (game-icons.net, CC BY 3.0) for `art: {icon: NAME}`."""


@icons.command()
@click.argument("words", nargs=-1, required=True)
@click.option("--limit", type=click.IntRange(1, 5000), default=60, show_default=True,
              help="Show at most this many names.")
@click.option("--authors", is_flag=True, help="Name each icon's author beside it.")
def search(words, limit, authors):
    """Icons whose names hold every WORD (`pnp icons search skull lantern`)."""
    from generator.pack.gameicons import icon_set
    found = icon_set().search(" ".join(words))
    if not found:
        guess = icon_set().suggest("-".join(words))
        click.echo(f"no icon name holds {' and '.join(repr(w) for w in words)}"
                   + (f"; the closest name is {guess}" if guess else ""), err=True)
        raise SystemExit(1)
    for name in found[:limit]:
        click.echo(f"{name:40} {icon_set().author(name).name}" if authors else name)
    if len(found) > limit:
        click.echo(f"... and {len(found) - limit} more (--limit {len(found)} shows them all)", err=True)


@icons.command()
@click.argument("name")
@click.option("--svg", "svg_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Also write the icon as an SVG file (`-`: print it).")
def show(name, svg_file):
    """An icon's author, licence and page, and how a card names it."""
    from generator.cli.common import is_stdout, write_stdout
    from generator.core.files import atomic_output
    from generator.pack.gameicons import icon_set, svg_text
    icons = icon_set()
    key = icons.resolve(name)
    if key is None:
        guess = icons.suggest(name)
        click.echo(f"pnp icons: `{name}` is no icon of the bundled set" + (f"; did you mean `{guess}`?" if guess else
                   f"; try `pnp icons search {name.split('-')[0]}`"), err=True)
        raise SystemExit(EXIT_INPUT)
    author = icons.author(key)
    if svg_file is not None and is_stdout(svg_file):
        write_stdout(svg_text(key))
        return
    click.echo(f"{key}" + (f" (the set's new name for {name})" if key != name else ""))
    click.echo(f"  by {author.name}" + (f", {author.url}" if author.url else "") + f"; licence {author.licence}")
    click.echo(f"  {icons.page(key)}")
    click.echo(f"  on a card: art: {{icon: {key}}}")
    if svg_file is not None:
        with atomic_output(svg_file, suffix=".svg") as tmp:
            Path(tmp).write_text(svg_text(key), encoding="utf-8")
        click.echo(f"wrote {svg_file}")
