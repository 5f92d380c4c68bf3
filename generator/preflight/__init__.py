"""Preflight: what a print service would reject, or what would print badly, found before
upload. `layout` checks card layouts (knows cards and elements by name), `pdfcheck` reads
a finished PDF, `command` is `pnp preflight`."""
