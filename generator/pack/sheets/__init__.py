"""Card data from spreadsheets: CSV, XLSX and ODS files in a pack's cards/ folder.

A spreadsheet row becomes the same positioned document the YAML loader makes (see
`source.SheetDocument`), so the same pydantic models, card checks and did-you-mean run on it,
and every problem names the file, sheet, row and column (`errors.SheetLocation`).

- `shape`    how a value nests (`Shape`), the shapes the field types (generator.pack.fieldtypes) give;
- `columns`  the flat column names of a card type (`stats.health`, `feat.name`,
             `abilities.1.cost`), from a nested card to a row and back;
- `read`     reading the files safely (size, zip bomb, row count, encryption, encodings);
- `odsscan`  where an .ods has merged cells or formula errors (only when it has some);
- `source`   rows to card documents for the pack loader;
- `write`    `pnp export-sheet`: a pack's cards to .xlsx, .ods or .csv (`ods` writes ODF,
             `table` is what both write);
- `fetch`    published CSV sheets (`cards/NAME.url`), fetched only on request.

The `export-sheet` and `fetch` commands are in generator/cli/sheets.py.

May import: generator.core, generator.pack.model and generator.pack.fieldtypes (this is part of the
pack layer).
"""

SHEET_SUFFIXES = (".csv", ".xlsx", ".ods")
URL_SUFFIX = ".url"
