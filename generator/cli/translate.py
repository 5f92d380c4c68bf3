"""`pnp translate`: make or update a pack's translation files (translations/<lang>.po, and with
`--format xlsx` the same as a spreadsheet), or report how far each language is (`--report`)."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import current_pack


@click.command()
@click.argument("pack_dir", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--lang", "langs", multiple=True, metavar="LANG",
              help="The language (de, fr, pt-BR); again for more. Default: every language the pack has.")
@click.option("--format", "fmt", type=click.Choice(["po", "xlsx"]), default="po", show_default=True,
              help="xlsx: also read translations/<lang>.xlsx (when there is one) into the PO file, and write it "
                   "again beside it, for translators who work in a spreadsheet.")
@click.option("--report", is_flag=True,
              help="Write nothing: count per language the strings done, fuzzy (stale), missing and broken, and "
                   "the card texts that do not fit (drawn in memory).")
def translate(pack_dir, langs, fmt, report):
    """Make or update the translation files of a pack (PACK_DIR, default the current folder): every
    string a player reads, new ones added, changed ones marked fuzzy with the old source beside
    them, removed ones kept as obsolete."""
    # deferred: Babel (the `translations` extra) and the pack loader
    from generator.core.errors import InputError, Location, Problem
    from generator.pack.load import load_pack
    from generator.pack.translations.catalog import languages, need_babel

    pack_dir = Path(pack_dir or current_pack())
    need_babel("`pnp translate`")
    pack = load_pack(pack_dir)
    langs = list(dict.fromkeys(langs)) or languages(pack_dir)
    if not langs:
        raise InputError([Problem("translation.language", f"{pack.spec.name} has no translations yet: say which "
                                  "language to start", Location("command line"), expected="--lang LANG",
                                  fix=f"e.g. `pnp translate {pack_dir} --lang de`")])
    for lang in langs:
        if lang == pack.spec.language:
            raise InputError([Problem("translation.language", f"{pack.spec.name} is written in `{lang}`: there is "
                                      "nothing to translate into it", Location("command line"), found=lang,
                                      expected="another language than game.yaml's `language:`")])
    if report:
        from generator.cli.translate_report import print_report
        print_report(pack, langs)
        return
    if fmt == "xlsx":  # before any file is touched: the sheet is written with the `xlsx` extra
        from generator.pack.sheets.write import xlsx_available, xlsx_missing
        from generator.pack.translations.catalog import po_file
        if not xlsx_available():
            raise xlsx_missing(po_file(pack_dir, langs[0]).with_suffix(".xlsx"))
    from generator.cli.translate_report import update_lines
    for lang in langs:
        for line in update_lines(pack, lang, fmt):
            click.echo(line, err=line.startswith("warning"))
