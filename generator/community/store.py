"""The database: one engine per worker process, migrations run on start, and every read and
write of builds, versions, publications and accounts. Nothing a second worker needs is
kept in a worker (its caches hold what never changes for its key: web.memo.Recent; the pages
of published builds are kept under the generation the database keeps, see generation()),
so any number of workers (or machines) can share one database.

URLs: `sqlite:///PATH` (the default, a file beside the builds folder) or
`postgresql://USER@HOST/DB` (psycopg 3; `postgresql+psycopg://` is used for it).
"""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import cast

import yaml
from sqlalchemy import (Integer, Table, and_, bindparam, create_engine, delete, event, exists, false, func, not_, or_,
                        select, text, update)
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import StaticPool

from generator.community.models import Build, Generation, Publication, PublicationVersion, PublishedCard, Setting, Version, now
from generator.community.users import Conflict, Users

MIGRATIONS = Path(__file__).parent / "migrations"
# the newest migration in MIGRATIONS/versions (a test checks it against alembic's own head):
# a database already there starts without importing alembic (about 0.1 s of `pnp serve`'s start)
HEAD_REVISION = "0005"
DEFAULT_FILE = "pnp-site.sqlite3"  # beside the builds folder


def engine_url(url: str) -> str:
    """psycopg 3 for PostgreSQL (SQLAlchemy's bare `postgresql://` means psycopg2)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def default_url(builds_dir: Path) -> str:
    folder = Path(builds_dir).resolve()
    return f"sqlite:///{folder.parent / DEFAULT_FILE}"


def shown(url: str) -> str:
    """The URL without its password, for messages and logs; a SQLite file by its path
    (relative to the current folder when it is under it)."""
    if url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///"):])
        try:
            return str(path.resolve().relative_to(Path.cwd().resolve()))
        except ValueError:
            return str(path)
    head, sep, tail = url.partition("://")
    if "@" in tail:
        cred, _, rest = tail.rpartition("@")
        tail = cred.split(":", 1)[0] + ":***@" + rest if ":" in cred else tail
    return head + sep + tail


# what a line of the published builds' list shows (browse reads only these); community_published.html
# unpacks each row in this order (tests/test_community_listing.py checks it)
LISTED = (Publication.public_id, Publication.name, Publication.side, Publication.points, Publication.points_limit,
          Publication.author, Publication.copies, Publication.featured, Publication.hidden, Publication.likes)
SORTS = ("newest", "liked", "copied")  # the list's orders, each read along its own index


# the published builds' generation: read before a page's data (a page drawn from data older
# than the number it is kept under could otherwise be shown after a change), raised last in
# the transaction of each change, so the row is locked only at its end
PUBLISHED = "published"
_GENERATIONS = cast(Table, Generation.__table__)  # a declarative model's table (typed as any FromClause)
_PUBLICATIONS = cast(Table, Publication.__table__)
_GENERATION_SQL = f"SELECT n FROM generations WHERE name = '{PUBLISHED}'"
GENERATION_UP = update(_GENERATIONS).where(_GENERATIONS.c.name == PUBLISHED).values(n=_GENERATIONS.c.n + 1)


# a publication by its public id (built once: building a statement costs more than running it)
_PUBLICATION = select(*Publication.__table__.c).where(Publication.public_id == bindparam("public_id"))


class SchemaTooNew(Exception):
    """The database was made or migrated by a newer pnp: this one must not touch it."""

    def __init__(self, url: str, found: str):
        super().__init__(f"the database {shown(url)} is at schema revision {found}, newer than this pnp knows "
                         f"(its newest is {HEAD_REVISION})")
        self.found, self.head = found, HEAD_REVISION


class DatabaseGone(Exception):
    """The SQLite file this server opened was deleted or replaced while it ran: what is written
    now would go to a file nobody can open again (or past another's back), so nothing is
    answered as saved until the server is restarted."""


def known_revisions() -> set[str]:
    """The revisions this pnp's migrations know (the files are named REVISION_what.py; a test
    holds each file's `revision` to its name)."""
    return {p.name.split("_", 1)[0] for p in (MIGRATIONS / "versions").glob("[0-9]*_*.py")}


class Store(Users):
    def __init__(self, url: str):
        self.url = engine_url(url)
        sqlite = self.url.startswith("sqlite")
        kwargs = {"connect_args": {"timeout": 30}} if sqlite else {"pool_pre_ping": True, "pool_size": 5,
                                                                     "max_overflow": 10}
        # a SQLite file: which file it is (device, inode) when first opened, checked after every
        # transaction and at every new connection (check_file)
        self.file: Path | None = None
        self.identity: tuple[int, int] | None = None
        if sqlite and ":///" in self.url and not self.url.endswith(":memory:"):
            self.file = Path(self.url.split(":///", 1)[1])
            self.file.parent.mkdir(parents=True, exist_ok=True)
        self.engine = create_engine(self.url, **kwargs)
        if sqlite:
            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi, _record):  # WAL: readers never wait for the one writer
                cur = dbapi.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA busy_timeout=30000")
                cur.close()
                self.check_file()
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        # single-statement reads (the published list, a publication) need no transaction: on
        # PostgreSQL that saves a BEGIN and a ROLLBACK round trip per page
        self.reader = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        # the generation is read before every community page: on PostgreSQL a pooled connection
        # costs a ping before the read, a BEGIN with it and a ROLLBACK after, so it has one
        # connection of its own per worker, in autocommit, neither pinged nor reset (psycopg's
        # connections may be shared by threads; each read has its own cursor); a broken one is
        # replaced and the read tried once more (generation)
        self.probe = None if sqlite else create_engine(self.url, poolclass=StaticPool, isolation_level="AUTOCOMMIT",
                                                       pool_reset_on_return=None)

    # ---- set-up -----------------------------------------------------------------------------

    def migrate(self, revision: str = "head") -> None:
        """Bring the tables up to the newest migration (from empty, or from any older one; the
        tests name an older `revision`). On PostgreSQL an advisory lock lets only one worker
        migrate at a time. A database from a newer pnp is SchemaTooNew, and left as it is."""
        current = self.revision()
        if revision == "head" and current == HEAD_REVISION:
            return
        if current is not None and current not in known_revisions():
            raise SchemaTooNew(self.url, current)
        # alembic is imported only when there is something to migrate (see HEAD_REVISION)
        from alembic import command
        # deferred: Alembic loads only when the database needs a migration
        from alembic.config import Config
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7021)")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)

    def revision(self) -> str | None:
        """The migration the database is at (alembic's version table), None when it has none."""
        try:
            with self.reader.connect() as conn:
                return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        except DBAPIError:  # no table yet: an empty database
            return None

    def secret(self) -> str:
        """The cookie secret every worker shares: made once, kept in the database."""
        with self.session() as s:
            row = s.get(Setting, "secret")
            if row:
                return row.value
        try:
            with self.session() as s:
                s.add(Setting(key="secret", value=secrets.token_urlsafe(48)))
        except IntegrityError:
            pass  # another worker made it first
        with self.session() as s:
            return s.get(Setting, "secret").value

    @contextmanager
    def session(self):
        """A transaction, committed at the end of the block; the SQLite file is checked after
        it (check_file), so a change is never reported done into a file that is gone."""
        with self.sessions() as s:
            with s.begin():
                yield s
        self.check_file()

    def check_file(self) -> None:
        """DatabaseGone when the SQLite file at the path is no longer the one first opened
        (deleted, or replaced by another file): one stat, about a microsecond."""
        if self.file is None:
            return
        try:
            st = os.stat(self.file)
            identity = (st.st_dev, st.st_ino)
        except OSError:
            identity = None
        if self.identity is None and identity is not None:
            self.identity = identity
        elif identity != self.identity:
            raise DatabaseGone(f"the database file {self.file} was deleted or replaced while the server ran")

    # ---- builds -----------------------------------------------------------------------------

    def build(self, owner: int, stem: str) -> Build | None:
        with self.session() as s:
            return s.scalar(select(Build).where(Build.owner_key == owner, Build.stem == stem))

    def builds(self, owner: int, pack: str | None = None) -> list[Build]:
        with self.session() as s:
            q = select(Build).where(Build.owner_key == owner)
            if pack is not None:
                q = q.where((Build.pack == pack) | (Build.pack.is_(None)))
            return list(s.scalars(q.order_by(Build.stem)))

    def insert(self, owner: int, stem: str, text: str) -> None:
        """A new build under `stem` with `text` as version 1; Conflict if the name is taken."""
        meta = _meta(text)
        try:
            with self.session() as s:
                b = Build(owner_key=owner, stem=stem, text=text, version=1, created_at=now(), updated_at=now(), **meta)
                s.add(b)
                s.flush()
                s.add(Version(build_id=b.id, n=1, text=text, created_at=now()))
        except IntegrityError:
            raise Conflict(stem) from None

    def save(self, owner: int, stem: str, text: str, create: bool = True) -> int:
        """Save `text` as the next version of the build `stem` (a new build if there is none
        and `create`); the version number. Two saves at once both land, one after the other."""
        for _ in range(50):
            try:
                with self.session() as s:
                    b = s.scalar(select(Build).where(Build.owner_key == owner, Build.stem == stem)
                                 .with_for_update())
                    if b is None:
                        if not create:
                            raise KeyError(stem)
                        raise Conflict("missing")
                    n = (s.scalar(select(func.max(Version.n)).where(Version.build_id == b.id)) or 0) + 1
                    s.add(Version(build_id=b.id, n=n, text=text, created_at=now()))
                    for k, v in _meta(text).items():
                        setattr(b, k, v)
                    b.text, b.version, b.updated_at = text, n, now()
                    return n
            except Conflict:
                try:
                    self.insert(owner, stem, text)
                    return 1
                except Conflict:
                    continue  # made meanwhile: save over it
            except IntegrityError:
                continue  # two saves took the same number: try again
            except OperationalError as exc:
                if not busy(exc):
                    raise  # the database is down or full: the app answers 503 or 507
                continue  # SQLite was busy (another writer's snapshot): try again
        raise Busy("the build could not be saved: the database stayed busy")

    def rename(self, owner: int, stem: str, new_stem: str, text: str) -> None:
        try:
            with self.session() as s:
                b = s.scalar(select(Build).where(Build.owner_key == owner, Build.stem == stem))
                if b is None:
                    raise KeyError(stem)
                b.stem = new_stem
                s.flush()
        except IntegrityError:
            raise Conflict(new_stem) from None
        self.save(owner, new_stem, text, create=False)

    def delete(self, owner: int, stem: str) -> bool:
        with self.session() as s:
            b = s.scalar(select(Build).where(Build.owner_key == owner, Build.stem == stem))
            if b is None:
                return False
            s.execute(delete(Version).where(Version.build_id == b.id))
            s.delete(b)
            return True

    def versions(self, owner: int, stem: str) -> list[Version]:
        with self.session() as s:
            b = s.scalar(select(Build).where(Build.owner_key == owner, Build.stem == stem))
            if b is None:
                raise KeyError(stem)
            return list(s.scalars(select(Version).where(Version.build_id == b.id).order_by(Version.n.desc())))

    def version_text(self, owner: int, stem: str, n: int) -> str:
        with self.session() as s:
            b = s.scalar(select(Build).where(Build.owner_key == owner, Build.stem == stem))
            v = b and s.scalar(select(Version).where(Version.build_id == b.id, Version.n == n))
            if v is None:
                raise KeyError(n)
            return v.text

    def owners(self) -> list[int]:
        with self.session() as s:
            return sorted(s.scalars(select(Build.owner_key).distinct()))

    # ---- publications -----------------------------------------------------------------------

    def publish(self, owner: int, author: str, pack: str, name: str, side: str, points: int,
                points_limit: int | None, text: str, code: str, cards: dict[str, int], characters: set[str],
                source: str | None = None, description: str | None = None) -> str:
        """Publish a build; its public id. A saved build (`source`: its stem) its owner published
        before becomes the next version of that publication: the same address, likes and
        comments, every version kept (PublicationVersion). Two publishes at once of one saved
        build both land, one after the other (the unique keys on the owner and source, and on
        the version number, make the second try again)."""
        for _ in range(20):
            try:
                with self.session() as s:
                    p = s.scalar(select(Publication).where(Publication.owner_key == owner, Publication.source == source)
                                 .with_for_update()) if source else None
                    if p is None:
                        p = Publication(public_id=secrets.token_urlsafe(12), owner_key=owner, author=author, pack=pack,
                                        name=name, side=side, points=points, points_limit=points_limit, text=text,
                                        code=code, copies=0, hidden=False, featured=False, created_at=now(),
                                        description=description or "", source=source, version=1, likes=0,
                                        updated_at=now())
                        s.add(p)
                        s.flush()
                    else:
                        p.version += 1
                        p.name, p.side, p.points, p.points_limit, p.text, p.code = (name, side, points, points_limit,
                                                                                    text, code)
                        p.updated_at = now()
                        if description is not None:
                            p.description = description
                        s.execute(delete(PublishedCard).where(PublishedCard.publication_id == p.id))
                    s.add(PublicationVersion(publication_id=p.id, n=p.version, name=name, text=text, code=code,
                                             points=points, points_limit=points_limit, created_at=now()))
                    s.add_all(PublishedCard(publication_id=p.id, card=c, kind="card", count=n) for c, n in cards.items())
                    s.add_all(PublishedCard(publication_id=p.id, card=c, kind="character", count=1) for c in characters)
                    s.flush()
                    s.execute(GENERATION_UP)
                    return p.public_id
            except (IntegrityError, OperationalError):
                continue  # the same saved build published at the same moment: the next try is the next version
        raise RuntimeError("the build could not be published: the database stayed busy")

    def generation(self) -> int:
        """The published builds' generation: raised by every change to what their pages show
        (publish, copied, set_flags), in the change's transaction. Pages a worker keeps are
        kept under it (routes_published), so no worker shows a page from before a change.
        Read with the driver's own cursor: it is asked for on every page, and a Core statement
        costs 75 µs of CPU on SQLite where this costs 9; on PostgreSQL on the probe connection
        (__init__), one round trip."""
        if self.probe is None:
            return self._generation(self.engine)
        try:
            return self._generation(self.probe)
        except DBAPIError:  # the server restarted, the connection dropped
            self.probe.dispose()
            return self._generation(self.probe)

    @staticmethod
    def _generation(engine) -> int:
        dbapi = engine.dialect.loaded_dbapi
        try:
            conn = engine.raw_connection()
        except dbapi.Error as exc:  # raised as SQLAlchemy's own statements raise it: the app answers 503
            raise DBAPIError.instance(None, None, exc, dbapi.Error) from exc
        try:
            cur = conn.cursor()
            cur.execute(_GENERATION_SQL)
            return cur.fetchone()[0]
        except dbapi.Error as exc:
            raise DBAPIError.instance(_GENERATION_SQL, None, exc, dbapi.Error) from exc
        finally:
            conn.close()

    def publication(self, public_id: str):
        """The publication's row (its columns as attributes, no ORM object), or None."""
        with self.reader.connect() as conn:
            return conn.execute(_PUBLICATION, {"public_id": public_id}).first()

    def published_from(self, owner: int, source: str):
        """The publication a saved build became (its public id and version), or None."""
        with self.reader.connect() as conn:
            return conn.execute(select(Publication.public_id, Publication.version).where(
                Publication.owner_key == owner, Publication.source == source)).first()

    def copied(self, public_id: str) -> None:
        with self.session() as s:
            s.execute(_PUBLICATIONS.update().where(Publication.public_id == public_id)
                      .values(copies=Publication.copies + 1))
            s.execute(GENERATION_UP)

    def set_flags(self, public_id: str, **flags) -> None:
        with self.session() as s:
            s.execute(_PUBLICATIONS.update().where(Publication.public_id == public_id).values(**flags))
            s.execute(GENERATION_UP)

    def browse(self, pack: str, side: str | None = None, max_points: int | None = None,
               character: str | None = None, card: str | None = None, sort: str = "newest",
               limit: int = 50, offset: int = 0, show_hidden: bool = False, holding: tuple | None = None) -> list:
        """A page of the list: rows of the LISTED columns only (not the build's text), read in
        the order of the index of migration 0002 that matches `sort`, in one statement (built
        once per combination of filters: _listing). `holding`: a card search as the cards each
        of its terms finds (routes_published.holding): ("held", ids), ("not", x), ("all" | "any",
        (x, …)); a build matches a term when it holds one of the term's cards."""
        q = _listing(bool(side), max_points is not None, bool(character), bool(card), sort, show_hidden)
        if holding is not None:
            q = q.where(_holding(holding))
        with self.reader.connect() as conn:
            return list(conn.execute(q, {"pack": pack, "side": side, "max_points": max_points, "character": character,
                                         "card": card, "limit": limit, "offset": offset}))


@lru_cache(maxsize=64)
def _listing(side: bool, max_points: bool, character: bool, card: bool, sort: str, show_hidden: bool):
    """The published list's statement for one combination of filters, its values bound when
    it runs: built once, not for every page (building it cost more than running it)."""
    q = select(*LISTED).where(Publication.pack == bindparam("pack"))
    if not show_hidden:
        q = q.where(Publication.hidden.is_(False))
    if side:
        q = q.where(Publication.side == bindparam("side"))
    if max_points:
        q = q.where(Publication.points <= bindparam("max_points"))
    for kind, wanted in (("character", character), ("card", card)):
        if wanted:
            q = q.where(Publication.id.in_(select(PublishedCard.publication_id).where(
                PublishedCard.card == bindparam(kind), PublishedCard.kind == kind)))
    order = {"copied": Publication.copies.desc(), "liked": Publication.likes.desc()}.get(sort, Publication.created_at.desc())
    return q.order_by(Publication.featured.desc(), order, Publication.id.desc()).limit(
        bindparam("limit", type_=Integer)).offset(bindparam("offset", type_=Integer))


def _holding(node: tuple):
    """The SQL of a card search over published builds (Store.browse): each term an EXISTS over
    the build's cards, its ids bound as parameters."""
    kind = node[0]
    if kind == "held":
        if not node[1]:
            return false()
        return exists().where(PublishedCard.publication_id == Publication.id, PublishedCard.kind == "card",
                              PublishedCard.card.in_(list(node[1])))
    if kind == "not":
        return not_(_holding(node[1]))
    parts = [_holding(part) for part in node[1]]
    return and_(*parts) if kind == "all" else or_(*parts)


class Busy(Exception):
    """The database stayed busy through every retry (the app answers 503 with Retry-After)."""


def busy(exc: OperationalError) -> bool:
    """SQLite's "database is locked" or "busy" (a retry may pass), not a database that is down."""
    code = getattr(exc.orig, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED (and their extended codes)


def _meta(text: str) -> dict:
    """pack, name and side from a build file's top-level keys (for the lists and filters)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        data = None
    data = data if isinstance(data, dict) else {}
    pick = lambda k, n: str(data[k])[:n] if isinstance(data.get(k), (str, int)) else None  # noqa: E731
    return {"pack": pick("pack", 80), "name": pick("name", 200) or "build", "side": pick("side", 80)}

