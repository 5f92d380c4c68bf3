"""Preflight: what a print service would reject, or what would print badly, found before
upload. `layout` checks card layouts (knows cards and elements by name), `pdfcheck` reads
a finished PDF or PNGs; the command `pnp preflight` is in cli/preflight.py.

May import: everything below it: core, pack, render (card resources), export, and kit
(which faces a pack prints). Imported by build (its warnings) and cli (`pnp preflight`,
which also makes the file a service would get); never imports build or cli."""
