"""Where the shipped data lives: the shared templates (card layouts, sheet impositions, rulebook
templates) and the example games. The repository keeps them in the top-level `templates/` and
`card_data/` folders; a wheel or sdist carries the same folders inside the package, as
`generator/_data/` (setup.py copies them there at build time). This is the one place that knows
which: an installed package finds `_data/`, a checkout (or an editable install) the top-level
folders next to `generator/`."""

from __future__ import annotations

from pathlib import Path

# the `generator` package folder (a wheel installs it as files on disk): what
# importlib.resources.files("generator") gives, without loading importlib.resources at every start
PACKAGE = Path(__file__).parent.parent
DATA_ROOT = PACKAGE / "_data" if (PACKAGE / "_data").is_dir() else PACKAGE.parent
TEMPLATES = DATA_ROOT / "templates"  # cards/, sheets/, rulebook/
EXAMPLES = DATA_ROOT / "card_data"  # the example games, one pack folder each
