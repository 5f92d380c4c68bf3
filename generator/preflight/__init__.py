"""Preflight: what a print service would reject, or what would print badly, found before
upload. `layout` checks card layouts (knows cards and elements by name), `pdfcheck` reads
a finished PDF, `command` is `pnp preflight`.

May import: the core modules (errors), the pack model, render (card resources), export
(to make the file a service would get) and kit (which faces a pack prints). Imported by
build (its warnings) and the command line; sits between kit and build."""
