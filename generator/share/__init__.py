"""share: share codes (PNP1-...) that carry a build in a short text, and back again; text deck
lists (`3x Basic Attack`) both ways, and build files that may be either YAML or a deck list.

May import: generator.core, generator.pack. Never render or cli."""
