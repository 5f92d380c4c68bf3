"""render.cards: card faces (CardShared, CardPainter) and the card sheets (home duplex,
gutterfold, print-shop, calibration).

May import: core, grids, pack, rules, maps, render.base, render.maps, render.rulebook
(the reference card reuses the quick reference)."""
