"""The wheel carries the shared templates and the example games: the repository keeps them in
the top-level `templates/` and `card_data/` folders, and this build step copies both into the
package as `generator/_data/`, where `generator.core.resources` finds them. Everything else is
declared in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_FOLDERS = ("templates", "card_data")
# fetched sheets, editor locks; and the examples' translations (card_data/*/translations: Boss Fight's
# German, 0.41 MB) stay in the repository: the default install is at its 150 MB budget without them
SKIP = shutil.ignore_patterns(".cache", "__pycache__", "*.pyc", ".~lock*", "translations")


class BuildWithData(build_py):
    def run(self):
        super().run()
        if self.editable_mode:  # an editable install reads the folders where they are
            return
        here = Path(__file__).resolve().parent
        target = Path(self.build_lib) / "generator" / "_data"
        for name in DATA_FOLDERS:
            shutil.rmtree(target / name, ignore_errors=True)
            shutil.copytree(here / name, target / name, ignore=SKIP)


setup(cmdclass={"build_py": BuildWithData})
