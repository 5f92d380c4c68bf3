"""render.maps: map documents: the page machinery any grid shares (sheets, windows, crosses,
assembly page, overview), the hex and square painters, tiles, the map PNG export, and a map as SVG for screens (svg.py).

May import: core, grids, pack, maps, render.base."""
