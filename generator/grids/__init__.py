"""grids: pure geometry of hex and square grids (coordinates, neighbours, layouts in millimetres)
and the flood fill both use. No files, no drawing, no game rules.

May import: generator.core only (in practice nothing of ours)."""
