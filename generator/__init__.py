"""pnp: a print-and-play card, map and rulebook generator driven by YAML game packs."""

__version__ = "0.1.0"
