"""The builds folder in and out of the database: `pnp serve --import-builds DIR` reads every
build file of a folder (each must load, as `pnp validate` loads it), `pnp builds export DIR`
writes every saved build back as the YAML file it was saved as."""

from __future__ import annotations

from pathlib import Path

from generator.core.errors import InputError, Location, Problem
from generator.web.storage import Builds, slug
from generator.community.store import Conflict, Store


def import_builds(store: Store, folder: Path, owner: int = 0) -> list[str]:
    """Every build file of `folder` as a saved build of `owner` (a new version of the build of
    the same name, if there is one); the names imported."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError([Problem("builds.import", "not a folder of builds", Location(str(folder)),
                                  expected="a folder of .yaml build files")])
    source = Builds(folder)
    done = []
    for entry in source.entries():
        text = source.read(entry.stem)
        try:
            store.insert(owner, entry.stem, text)
        except Conflict:
            existing = store.build(owner, entry.stem)
            if existing is None or existing.text != text:
                store.save(owner, entry.stem, text)
        done.append(entry.stem)
    return done


def export_builds(store: Store, folder: Path, owner: int | None = None) -> list[Path]:
    """Every saved build (of `owner`, or everyone's: then in a folder per account) as a YAML
    file in `folder`; the files written."""
    folder = Path(folder)
    written = []
    names = {u.id: u.name for u in store.users()}
    owners = [owner] if owner is not None else store.owners()
    for who in owners:
        sub = folder if who == 0 or owner is not None else folder / slug(names.get(who, f"user-{who}"))
        target = Builds(sub)
        for b in store.builds(who):
            target.write(b.stem, b.text)
            written.append(target.path_of(b.stem))
    return written
