"""export: outputs derived from the rendered pages: PNG per card face with its order manifest
(order.py), Tabletop Simulator deck sheets, one card face as a cached PNG for screens
(cardimage.py); print-shop PDFs are written by render.cards.sheets.

May import: everything below it (core, grids, pack, rules, maps, share, render). Never cli."""
