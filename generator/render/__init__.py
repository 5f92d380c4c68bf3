"""render: ReportLab drawing of every PDF: cards, sheets, maps, pieces, rulebook, roster.
Millimetres outside, points only here. Sub-packages, lowest first: base (the toolkit),
maps, pieces, rulebook, cards, roster; each imports only those before it.

May import: generator.core, grids, pack, rules, maps, share. Never export, kit, build or cli."""
