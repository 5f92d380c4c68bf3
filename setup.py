"""The wheel carries the shared templates and the example games: the repository keeps them in
the top-level `templates/` and `card_data/` folders, and this build step copies them into the
package as `generator/_data/`, where `generator.core.resources` finds them. Each example game goes
in as one archive, `_data/card_data/<game>.tar.xz`, that `pnp example` unpacks
(generator/pack/examples.py): 0.9 MB of YAML, Markdown and PO text is 0.2 MB so, in an install
that has 151 MB to spend (tests/test_install.py), and nothing else reads the examples. Everything
else is declared in pyproject.toml."""

import fnmatch
import shutil
import tarfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

EXAMPLES = "card_data"
ARCHIVE = ".tar.xz"  # generator/pack/examples.py reads the same suffix
# fetched sheets, editor locks, bytecode: never part of a game
SKIPPED = (".cache", "__pycache__", "*.pyc", ".~lock*")
SKIP = shutil.ignore_patterns(*SKIPPED)


def archive_example(folder: Path, target: Path) -> None:
    """The example game at `folder` as a .tar.xz at `target`: its files by their paths in the
    game, game.yaml first (`pnp example --list` reads only that), the rest sorted; no owner names."""
    files = [path.relative_to(folder) for path in folder.rglob("*") if path.is_file()]
    files = [rel for rel in files if not any(fnmatch.fnmatch(part, skip) for part in rel.parts for skip in SKIPPED)]
    files.sort(key=lambda rel: (rel.as_posix() != "game.yaml", rel.as_posix()))

    def anonymous(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        return info

    with tarfile.open(target, "w:xz", preset=9) as tar:
        for rel in files:
            tar.add(folder / rel, arcname=rel.as_posix(), recursive=False, filter=anonymous)


class BuildWithData(build_py):
    def run(self):
        super().run()
        if self.editable_mode:  # an editable install reads the folders where they are
            return
        here = Path(__file__).resolve().parent
        target = Path(self.build_lib) / "generator" / "_data"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(here / "templates", target / "templates", ignore=SKIP)
        (target / EXAMPLES).mkdir(parents=True)
        for game in sorted((here / EXAMPLES).glob("*/game.yaml")):
            archive_example(game.parent, target / EXAMPLES / f"{game.parent.name}{ARCHIVE}")


if __name__ == "__main__":  # as setuptools runs it; tests/test_example.py imports archive_example
    setup(cmdclass={"build_py": BuildWithData})
