"""rules: the build validator: rule primitives a pack's game.yaml declares (checks for builds,
pack_checks for the whole pack), the context they read, the engine that runs them over a build,
the points audit, and the odds of a deck's opening draw (draw_odds).

May import: generator.core, generator.grids, generator.pack. Never maps, render or cli."""
