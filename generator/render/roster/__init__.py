"""render.roster: the roster sheet of one build (characters, points, verdict, share code and QR).

May import: core, grids, pack, rules, share, render.base."""
