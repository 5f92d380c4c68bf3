"""render.base: the drawing toolkit every document uses: fonts, text fitting, icons, art,
card layout templates, PDF canvas set-up, sheet imposition with its cut guides and footer,
and ReportLab graphics drawn without naming an unembedded font.

May import: generator.core, generator.grids, generator.pack. Never another render package."""
