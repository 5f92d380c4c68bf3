"""render.maps: map documents: the page machinery any grid shares (sheets, windows, crosses,
assembly page, overview), the hex and square painters, tiles, and the map PNG export.

May import: core, grids, pack, maps, render.base."""
