"""The `pnp` command: parse arguments, call one function, print the result."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click
from rich.console import Console

from generator.build_options import apply_service, export_options
from generator.errors import InputError
from generator.rules.report import reports_document
from generator.targets import DEFAULT_PACK, validate_target
from generator.textreport import print_problems, print_reports

EXIT_OK, EXIT_RULES, EXIT_INPUT = 0, 1, 2


# control characters a build or pack may carry in its text (an ESC could drive the terminal)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class SafeConsole(Console):
    """A console that shows control characters in names and messages as visible escapes
    (`\\x1b`), so text from a stranger's file cannot move the cursor or retitle the terminal."""

    def print(self, *objects, **kwargs):
        return super().print(*(_CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), o)
                               if isinstance(o, str) else o for o in objects), **kwargs)


def _console(stderr: bool = False) -> Console:
    return SafeConsole(stderr=stderr, highlight=False, soft_wrap=True)


class PnpGroup(click.Group):
    """Usage errors exit 2 with one line, as click does; input errors never show a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            print_problems(_console(stderr=True), exc.problems)
            sys.exit(EXIT_INPUT)


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp-generator", prog_name="pnp")
def main():
    """Print-and-play card, map and rulebook generator for YAML game packs."""


@main.command()
@click.argument("targets", nargs=-1, type=click.Path(path_type=Path))
@click.option("--points", type=click.IntRange(0, 99999), help="Points limit; overrides the build's own.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--pack", "pack_option", type=click.Path(path_type=Path, file_okay=False),
              help="The pack a build belongs to (default: the pack folder holding it, or its `pack:` key).")
@click.option("--build", "boss_build", type=click.Path(path_type=Path, dir_okay=False),
              help="With a map TARGET: check that this boss build fits on the map.")
@click.option("--audit", is_flag=True, help="Also list cards whose points are far from what their statistics predict.")
def validate(targets, points, fmt, pack_option, boss_build, audit):
    """Check packs, builds and maps. TARGET: a pack folder, a build file or a map file
    (default: card_data/boss_fight). Exit 0 legal, 1 rule violations, 2 unreadable input."""
    targets = list(targets) or [DEFAULT_PACK]
    reports, problems, cache = [], [], {}
    for target in targets:
        try:
            reports.extend(validate_target(target, points, pack_option, boss_build, cache))
        except InputError as exc:
            problems.extend(exc.problems)
    audit_rows = []
    if audit:
        from generator.audit import audit_pack
        for pack in cache.values():
            audit_rows.extend(audit_pack(pack))
    if fmt == "json":
        document = reports_document(reports, problems)
        if audit:
            document["audit"] = [row.as_dict() for row in audit_rows]
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        console = _console()
        if problems:
            print_problems(_console(stderr=True), problems)
        if reports:
            print_reports(console, reports)
        if audit:
            from generator.audit import print_audit
            print_audit(console, audit_rows)
    if problems:
        sys.exit(EXIT_INPUT)
    sys.exit(EXIT_OK if all(r.legal for r in reports) else EXIT_RULES)


@main.command()
@click.option("--pack", "pack_dir", type=click.Path(path_type=Path, file_okay=False), default=str(DEFAULT_PACK),
              show_default=True)
@click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default="schemas",
              show_default=True)
def schema(pack_dir, out_dir):
    """Write JSON Schemas for game.yaml, card files and builds (for YAML editors)."""
    from generator.load import load_pack
    from generator.schema_export import write_schemas
    for path in write_schemas(load_pack(pack_dir), out_dir):
        click.echo(str(path))


@main.command(name="list")
@click.argument("pack_dir", required=False, type=click.Path(path_type=Path, file_okay=False),
                default=str(DEFAULT_PACK))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True)
def list_cards(pack_dir, fmt):
    """List every card of a pack: id, name, set, type, points and key statistics."""
    from generator.cardlist import render_card_list
    from generator.load import load_pack
    click.echo(render_card_list(load_pack(pack_dir), fmt), nl=False)


def _offset(value: str) -> tuple[float, float]:
    try:
        dx, dy = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter("expected DX,DY in millimetres, e.g. 0.5,-1") from None
    return dx, dy


@main.command()
@click.argument("pack_dir", required=False, type=click.Path(path_type=Path, file_okay=False),
                default=str(DEFAULT_PACK))
@click.option("--build", "build_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Print only this build's cards (and its pieces).")
@click.option("--profile", type=click.Choice(["home", "gutterfold", "print-shop", "png", "tts", "dtc", "cut",
                                             "printplaygames"]), default="home", show_default=True,
              help="What to make: home sheets, gutterfold, print-shop PDF, PNG per card, TTS sheets and save, "
                   "DriveThruCards decks, cutting-machine sheets, PrintPlayGames sheets.")
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
@export_options
def build(pack_dir, build_file, profile, paper, duplex, back_offset, png_size, only, out_dir, service, color, icc,
          ink_limit, cut, cut_inset, tts_url_base):
    """Build the print kit of a pack: cards, maps, rulebook and play pieces."""
    from generator.build import run_build
    eff = apply_service(profile, service, color, png_size, cut, ink_limit)
    extra = {"color": eff["color"], "icc": str(icc) if icc else None, "ink_limit": eff["ink_limit"], "cut": cut,
             "cut_inset": cut_inset, "tts_url_base": tts_url_base}
    for line in run_build(pack_dir, build_file=build_file, profile=eff["profile"], paper=paper, duplex=duplex,
                          back_offset=_offset(back_offset), png_size=eff["png_size"], only=only, out_dir=out_dir,
                          extra=extra):
        click.echo(line)


@main.command()
@click.argument("pack_dir", required=False, type=click.Path(path_type=Path, file_okay=False),
                default=str(DEFAULT_PACK))
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path, file_okay=False))
def watch(pack_dir, paper, out_dir):
    """Rebuild the kit's outputs whenever a pack or template file changes."""
    from generator.watch import watch as run_watch
    try:
        run_watch(pack_dir, click.echo, paper=paper, out_dir=out_dir)
    except KeyboardInterrupt:
        pass


@main.command()
@click.argument("build_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("-o", "--out", "out_file", type=click.Path(path_type=Path, dir_okay=False),
              help="The PDF to write (default: output/<pack id>/<build>-roster.pdf).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--points", type=click.IntRange(0, 99999), help="Points limit; overrides the build's own.")
@click.option("--pack", "pack_option", type=click.Path(path_type=Path, file_okay=False),
              help="The pack the build belongs to (default: found as `pnp validate` finds it).")
def roster(build_file, out_file, paper, points, pack_option):
    """Print a build's roster sheet: characters, points, the verdict, the share code and its QR code."""
    from generator.render.roster import write_roster
    from generator.share import load_target
    pack, build = load_target(build_file, pack_option)
    out = out_file or Path("output") / pack.spec.id / f"{build_file.stem}-roster.pdf"
    info = write_roster(pack, build, out, paper=paper, points_override=points)
    limit = f"/{info['limit']}" if info["limit"] is not None else ""
    click.echo(f"{info['path']}: {info['pages']} page(s), {'LEGAL' if info['legal'] else 'NOT LEGAL'}, "
               f"{info['points']}{limit} points, build hash {info['hash']}")


@main.command()
@click.argument("build_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--pack", "pack_option", type=click.Path(path_type=Path, file_okay=False),
              help="The pack the build belongs to (default: found as `pnp validate` finds it).")
def share(build_file, pack_option):
    """Print a build as a short share code (PNP1-…); `pnp unshare CODE` turns it back into the build."""
    from generator.share import load_target, share_code
    pack, build = load_target(build_file, pack_option)
    click.echo(share_code(pack, build))


@main.command()
@click.argument("code")
@click.option("--pack", "pack_dir", type=click.Path(path_type=Path, file_okay=False), default=str(DEFAULT_PACK),
              show_default=True, help="The pack the code was made for (same id and version).")
@click.option("-o", "--out", "out_file", type=click.Path(path_type=Path, dir_okay=False),
              help="The build file to write (default: print it).")
def unshare(code, pack_dir, out_file):
    """Turn a share code back into a build file (YAML)."""
    from generator.load import load_pack
    from generator.share import unshare_text, write_text
    pack = load_pack(pack_dir)
    text = unshare_text(code, pack, out_file)
    if out_file is None:
        click.echo(text, nl=False)
    else:
        write_text(out_file, text)
        click.echo(f"wrote {out_file}")


@main.command()
@click.argument("name")
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), default="card_data", show_default=True)
def new(name, root):
    """Start a new game pack: one card type, its layout, one card and a rules chapter."""
    from generator.scaffold import create_pack
    target = create_pack(name, root)
    click.echo(f"created {target}: edit {target}/game.yaml and {target}/cards/units.yaml, then run\n"
               f"  pnp validate {target}\n  pnp build {target}")


from generator.preflight.command import preflight  # noqa: E402 - a command in its own module

main.add_command(preflight)

if __name__ == "__main__":
    main()
