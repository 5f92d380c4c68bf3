"""render.base: the drawing toolkit every document uses: fonts, text fitting, icons, art,
card layout templates, PDF canvas set-up and sheet imposition.

May import: generator.core, generator.grids, generator.pack. Never another render package."""
