"""The builds folder's interface (generator.web.storage.Builds: read, write, create, rename,
delete, entries) over the database, so the builder's save routes work unchanged. Whose
builds they are comes from the request (generator.community.middleware sets `owner`): the
signed-in player's, or with no accounts the one person's (owner 0). A player never reaches
another's builds: every query names the owner."""

from __future__ import annotations

import calendar
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import InputError, Location, Problem
from generator.web.storage import MAX_FILE_BYTES, MAX_NAME, MAX_SAME_NAME, Entry, slug
from generator.community.store import Conflict, Store

LOCAL = 0  # the owner of every build on a server without accounts


@dataclass(frozen=True)
class Asker:
    """Who is asking: a user id (LOCAL without accounts), their name and role; `anonymous`
    when accounts are on and nobody is signed in."""
    owner: int = LOCAL
    name: str = "you"
    role: str = "designer"
    anonymous: bool = False


YOU = Asker()  # frozen: one shared default is safe
asker: ContextVar[Asker] = ContextVar("pnp_asker", default=YOU)


def _problem(code, message, found=None, status=400, fix=None) -> InputError:
    exc = InputError([Problem(code, message, Location("saved builds"), found=None if found is None else str(found)[:100],
                              fix=fix)])
    exc.status = status
    return exc


def owner_now() -> int:
    who = asker.get()
    if who.anonymous:
        raise _problem("account.required", "sign in to keep builds on this site", status=401,
                       fix="sign in (or sign up) at /account/signin; share codes work without an account")
    return who.owner


class DbBuilds:
    """Saved builds in the database, named by the same slugs as the files."""

    def __init__(self, store: Store, folder: Path):
        self.store = store
        self.folder = Path(folder)  # where `pnp builds export` writes; named in messages

    def _check(self, stem: str) -> str:
        if not isinstance(stem, str) or slug(stem) != stem:
            raise _problem("builds.name", "not a build name", stem, status=404, fix="pick the build from the list")
        return stem

    def _size(self, text: str) -> None:
        if len(text.encode("utf-8")) > MAX_FILE_BYTES:
            raise _problem("builds.size", "the build is over 1 MB", status=413)

    def read(self, stem: str) -> str:
        b = self.store.build(owner_now(), self._check(stem))
        if b is None:
            raise _problem("builds.missing", f"no saved build `{stem}`", stem, status=404, fix="pick one from the list")
        return b.text

    def exists(self, stem: str) -> bool:
        return self.store.build(owner_now(), self._check(stem)) is not None

    def write(self, stem: str, text: str):
        self._size(text)
        self.store.save(owner_now(), self._check(stem), text)
        return self.folder / f"{stem}.yaml"

    def create(self, wanted: str, text: str) -> str:
        self._size(text)
        owner = owner_now()
        stem = slug(wanted)
        for candidate in [stem] + [f"{stem[:MAX_NAME - 4].rstrip('-')}-{n}" for n in range(2, MAX_SAME_NAME)]:
            try:
                self.store.insert(owner, candidate, text)
                return candidate
            except Conflict:
                continue
        raise _problem("builds.name", f"there are {MAX_SAME_NAME - 1} builds named like that already", wanted,
                       status=409, fix="pick another name")

    def rename(self, stem: str, new_stem: str, text: str) -> str:
        self._size(text)
        owner, new_stem = owner_now(), slug(new_stem)
        if new_stem == self._check(stem):
            self.store.save(owner, stem, text)
            return stem
        try:
            self.store.rename(owner, stem, new_stem, text)
        except KeyError:
            raise _problem("builds.missing", f"no saved build `{stem}`", stem, status=404) from None
        except Conflict:
            raise _problem("builds.exists", f"a build named `{new_stem}` exists already", new_stem, status=409,
                           fix="pick another name, or delete that build first") from None
        return new_stem

    def delete(self, stem: str) -> None:
        if not self.store.delete(owner_now(), self._check(stem)):
            raise _problem("builds.missing", f"no saved build `{stem}`", stem, status=404)

    def entries(self, pack_id: str | None = None) -> list[Entry]:
        who = asker.get()
        if who.anonymous:
            return []
        return [Entry(b.stem, self.folder / f"{b.stem}.yaml", b.pack, b.name, b.side, len(b.text.encode("utf-8")),
                      float(calendar.timegm(b.updated_at.timetuple())))
                for b in self.store.builds(who.owner, pack_id)]
