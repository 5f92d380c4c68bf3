"""Preflight: what a print service would reject, or what would print badly, found before
upload. `layout` checks card layouts (knows cards and elements by name), `pdfcheck` reads
a finished PDF or PNGs, `target` checks a file, folder or pack for a service (`pnp preflight`
parses and prints it in cli/preflight.py), `render_check` draws every face and rulebook block
of a pack in memory for what `pnp build` would stop on (`pnp validate` of a pack).

May import: everything below it: core, pack, render (card resources), export, and kit
(which faces a pack prints). Imported by validate (a pack's render check), build (its warnings), web and cli
(`pnp preflight`); never imports validate, build or cli."""
