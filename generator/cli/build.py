"""`pnp build`: the print kit of a pack or a build, in one of the output profiles."""

from __future__ import annotations

from pathlib import Path

import click

from generator.pack.locate import DEFAULT_PACK


def _offset(value: str) -> tuple[float, float]:
    try:
        dx, dy = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter("expected DX,DY in millimetres, e.g. 0.5,-1") from None
    return dx, dy


@click.command()
@click.argument("pack_dir", required=False, type=click.Path(path_type=Path, file_okay=False),
                default=str(DEFAULT_PACK))
@click.option("--build", "build_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Print only this build's cards (and its pieces).")
@click.option("--profile", type=click.Choice(["home", "gutterfold", "print-shop", "png", "tts"]), default="home",
              show_default=True, help="What to make: home sheets, gutterfold, print-shop PDF, PNG per card, TTS sheets.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--duplex", type=click.Choice(["long-edge", "short-edge", "none"]), default="long-edge", show_default=True)
@click.option("--back-offset", default="0,0", show_default=True,
              help="Move backs DX,DY mm (right, up) to match your printer; see calibration.pdf.")
@click.option("--size", "png_size", type=click.Choice(["mpc", "tgc"]), default="mpc", show_default=True,
              help="png profile: MakePlayingCards 822×1122 or The Game Crafter 825×1125 pixels.")
@click.option("--only", type=click.Choice(["cards", "maps", "rulebook", "pieces", "all"]), default="all",
              show_default=True, help="Home profile: which parts of the kit to build.")
@click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path, file_okay=False),
              help="Output folder (default: output/<pack id>).")
@click.option("--fetch", "fetch_first", is_flag=True, help="First download the pack's published sheets (cards/*.url).")
def build(pack_dir, build_file, profile, paper, duplex, back_offset, png_size, only, out_dir, fetch_first):
    """Build the print kit of a pack: cards, maps, rulebook and play pieces."""
    if fetch_first:
        from generator.cli.sheets import fetch_lines
        for line in fetch_lines(pack_dir):
            click.echo(line)
    from generator.build import run_build  # deferred: ReportLab takes a second to load
    for line in run_build(pack_dir, build_file=build_file, profile=profile, paper=paper, duplex=duplex,
                          back_offset=_offset(back_offset), png_size=png_size, only=only, out_dir=out_dir):
        click.echo(line)
