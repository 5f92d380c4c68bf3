"""export: outputs derived from the rendered pages: PNG per card face, Tabletop Simulator deck
sheets (print-shop PDFs are written by render.cards.sheets).

May import: everything below it (core, grids, pack, rules, maps, share, render). Never cli."""
