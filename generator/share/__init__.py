"""share: share codes (PNP1-...) that carry a build in a short text, and back again.

May import: generator.core, generator.pack. Never render or cli."""
