"""rules: the build validator: rule primitives a pack's game.yaml declares (checks for builds,
pack_checks for the whole pack), the context they read, the engine that runs them over a build,
and the points audit.

May import: generator.core, generator.grids, generator.pack. Never maps, render or cli."""
