"""Make or update the deck builder's own translation, generator/web/locale/<lang>.po: every word
the builder's templates mark with `_()` (generator/web/words.py), as `pnp translate` does for a
pack (the same `updated_catalog`: new words added empty, changed ones marked fuzzy with the old
source kept, removed ones kept as obsolete). Translate the file in a PO editor (Poedit) and run
tests/test_web_words.py, which holds it to the templates.

    .venv/bin/python tools/builder_words.py --lang de
"""

from __future__ import annotations

import argparse

from generator import __version__
from generator.pack.translations.catalog import forms_of, read_catalog, updated_catalog, write_catalog
from generator.web.words import LOCALE, builder_sources


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", required=True, help="the language, e.g. de")
    lang = parser.parse_args().lang
    path = LOCALE / f"{lang}.po"
    old = read_catalog(path, lang) if path.is_file() else None
    new = updated_catalog(old, builder_sources(), "the pnp deck builder", __version__, "pnp", lang)
    if old is None:
        new.header_comment = (f"# The pnp deck builder's own words in {lang}: buttons, menus, headings, form labels.\n"
                              f"# Made and updated by `python tools/builder_words.py --lang {lang}`; keep each entry's "
                              "{names} and <markup>.")
    LOCALE.mkdir(exist_ok=True)
    write_catalog(new, path)
    done = sum(1 for m in new if m.id and all(forms_of(m)) and not m.fuzzy)
    print(f"wrote {path}: {done} of {sum(1 for m in new if m.id)} words translated")


if __name__ == "__main__":
    main()
