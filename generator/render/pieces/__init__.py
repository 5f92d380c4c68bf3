"""render.pieces: the play pieces document: figures and their model, counters, trackers,
the board, and the drawing helpers they share.

May import: core, grids, pack, rules, maps, render.base, render.maps."""
