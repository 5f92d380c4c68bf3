"""`pnp export-sheet` and `pnp fetch` (cards in spreadsheets, generator/pack/sheets), and the
conversion behind `pnp new --sheet`."""

from __future__ import annotations

from pathlib import Path

import click

SUFFIXES = (".xlsx", ".ods", ".csv")


@click.command(name="export-sheet")
@click.argument("pack_dir", type=click.Path(path_type=Path, file_okay=False))
@click.option("-o", "--out", "out_file", type=click.Path(path_type=Path, dir_okay=False),
              help="The spreadsheet to write: .xlsx, .ods or .csv (default: output/<pack id>/cards.xlsx, or "
                   "cards.ods when the `xlsx` extra is not installed); "
                   "`-`: CSV to stdout.")
def export_sheet(pack_dir, out_file):
    """Write a pack's cards to a spreadsheet (a sheet per card type) that reads back to the same cards."""
    from generator.cli.common import is_stdout, write_stdout
    from generator.pack.load import load_pack
    from generator.pack.sheets.write import export_pack, sheet_bytes, xlsx_available

    to_stdout = is_stdout(out_file)
    if out_file is not None and not to_stdout and out_file.suffix.lower() not in SUFFIXES:
        raise click.BadParameter(f"the file must end in {', '.join(SUFFIXES)}", param_hint="-o")
    pack = load_pack(pack_dir)
    out = out_file or Path("output") / pack.spec.id / ("cards.xlsx" if xlsx_available() else "cards.ods")
    if to_stdout:  # a pipe takes text: the one-table CSV
        write_stdout(sheet_bytes(pack, ".csv"))
    else:
        export_pack(pack, out)
    click.echo(f"wrote {'CSV to stdout' if to_stdout else out}: {len(pack.cards)} cards of "
               f"{len({c.type for c in pack.cards.values()})} types", err=to_stdout)


@click.command()
@click.argument("pack_dir", type=click.Path(path_type=Path, file_okay=False))
@click.option("--timeout", type=click.FloatRange(0.1, 600), default=20.0, show_default=True,
              help="Seconds the whole download of one sheet may take.")
def fetch(pack_dir, timeout):
    """Download a pack's published sheets (cards/*.url) into its cache, .cache/sheets/."""
    for line in fetch_lines(pack_dir, timeout):
        click.echo(line)


def fetch_lines(pack_dir: Path, timeout: float = 20.0) -> list[str]:
    from generator.pack.sheets.fetch import fetch_pack
    return fetch_pack(Path(pack_dir), timeout=timeout)


def cards_to_sheet(pack_dir: Path, fmt: str) -> Path:
    """Move a pack's YAML cards into one spreadsheet, cards/cards.FMT (for `pnp new --sheet`)."""
    from generator.pack.load import load_pack
    from generator.pack.sheets.write import export_pack

    pack = load_pack(pack_dir)
    out = Path(pack_dir) / "cards" / f"cards.{fmt}"
    export_pack(pack, out)
    for path in (Path(pack_dir) / "cards").glob("*.yaml"):
        path.unlink()
    load_pack(pack_dir)  # the pack must read back the same from its sheet
    return out
