"""The tables (SQLAlchemy 2 declarative models). Alembic's migrations in migrations/ create
them; these classes are what the code reads and writes."""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint, Index)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class Setting(Base):
    """Site-wide values every worker reads (the cookie secret, made once on first start)."""
    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Generation(Base):
    """A number raised by every change to what a set of pages shows ("published": the
    published builds' list and pages), in the change's own transaction (migration 0003)."""
    __tablename__ = "generations"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    n: Mapped[int] = mapped_column(Integer)


class User(Base):
    """An account. `name` is shown as typed (after NFKC normalisation); `name_key` is its folded
    form (accounts.name_key), unique, so names that differ only in case or in Unicode form are
    one name (migration 0005)."""
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    name_key: Mapped[str] = mapped_column(String(120), unique=True, index=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(16), default="player")  # "designer" or "player"
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class Build(Base):
    """A saved build. owner_key is the owner's user id, or 0 for the one person of a server
    without accounts; stems are unique per owner."""
    __tablename__ = "builds"
    __table_args__ = (UniqueConstraint("owner_key", "stem", name="uq_builds_owner_stem"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    owner_key: Mapped[int] = mapped_column(Integer, default=0)
    stem: Mapped[str] = mapped_column(String(80))
    pack: Mapped[str | None] = mapped_column(String(80), nullable=True)
    name: Mapped[str] = mapped_column(String(200))
    side: Mapped[str | None] = mapped_column(String(80), nullable=True)
    text: Mapped[str] = mapped_column(Text)  # the newest version, for reading without a join
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class Version(Base):
    """Every saved version of a build, numbered from 1; none is ever changed."""
    __tablename__ = "versions"
    __table_args__ = (UniqueConstraint("build_id", "n", name="uq_versions_build_n"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    build_id: Mapped[int] = mapped_column(ForeignKey("builds.id", ondelete="CASCADE"), index=True)
    n: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class Publication(Base):
    """A build published for everyone: a frozen copy, legal under `points_limit` when published."""
    __tablename__ = "publications"
    __table_args__ = (Index("ix_publications_newest", "pack", "featured", "created_at", "id"),
                      Index("ix_publications_copied", "pack", "featured", "copies", "id"),  # migration 0002
                      Index("ix_publications_liked", "pack", "featured", "likes", "id"),
                      Index("ix_publications_source", "owner_key", "source", unique=True))  # migration 0004
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    owner_key: Mapped[int] = mapped_column(Integer, default=0)
    author: Mapped[str] = mapped_column(String(40))
    pack: Mapped[str] = mapped_column(String(80))
    name: Mapped[str] = mapped_column(String(200))
    side: Mapped[str] = mapped_column(String(80))
    points: Mapped[int] = mapped_column(Integer)
    points_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    code: Mapped[str] = mapped_column(Text)  # its share code
    copies: Mapped[int] = mapped_column(Integer, default=0)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    featured: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now, index=True)
    # migration 0004: what players do with it
    description: Mapped[str] = mapped_column(Text, default="")  # Markdown, shown sanitised
    source: Mapped[str | None] = mapped_column(String(80), nullable=True)  # the saved build's stem it came from
    version: Mapped[int] = mapped_column(Integer, default=1)  # the newest of its PublicationVersions
    likes: Mapped[int] = mapped_column(Integer, default=0)  # the Like rows, counted as they are claimed
    updated_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class PublicationVersion(Base):
    """Every version of a published build: publishing the same saved build again adds one
    (the publication's row holds the newest); none is ever changed."""
    __tablename__ = "publication_versions"
    __table_args__ = (UniqueConstraint("publication_id", "n", name="uq_publication_versions_n"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    publication_id: Mapped[int] = mapped_column(ForeignKey("publications.id", ondelete="CASCADE"))
    n: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    code: Mapped[str] = mapped_column(Text)
    points: Mapped[int] = mapped_column(Integer)
    points_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class Like(Base):
    """One account's like of a published build: the primary key makes it one per account,
    claimed atomically (a second insert fails)."""
    __tablename__ = "likes"
    publication_id: Mapped[int] = mapped_column(ForeignKey("publications.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class Comment(Base):
    """A comment on a published build, Markdown shown sanitised; the designer may hide it."""
    __tablename__ = "comments"
    __table_args__ = (Index("ix_comments_publication", "publication_id", "id"),
                      Index("ix_comments_user_time", "user_id", "created_at"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    publication_id: Mapped[int] = mapped_column(ForeignKey("publications.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(Integer)
    author: Mapped[str] = mapped_column(String(40))
    body: Mapped[str] = mapped_column(Text)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)


class PublishedCard(Base):
    """Which cards (and characters: kind "character") a publication holds, for the filters
    and the card statistics."""
    __tablename__ = "published_cards"
    __table_args__ = (Index("ix_published_cards_card_kind", "card", "kind", "publication_id"),)
    publication_id: Mapped[int] = mapped_column(ForeignKey("publications.id", ondelete="CASCADE"),
                                                primary_key=True)
    card: Mapped[str] = mapped_column(String(120), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)  # "card" or "character"
    count: Mapped[int] = mapped_column(Integer, default=1)


class SigninLimit(Base):
    """Sign-in attempts not known to have succeeded, per account name and per address, in the
    window that began at `since` (migration 0005). A sign-in takes one before its password is
    checked, in one conditional statement (Store.take_signin), and gives it back when the
    password was right; kept in the database so every worker counts the same."""
    __tablename__ = "signin_limits"
    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    fails: Mapped[int] = mapped_column(Integer)
    since: Mapped[datetime] = mapped_column(DateTime, index=True)


class UserSession(Base):
    """A signed-in browser (migration 0005). The cookie holds a random token; only its SHA-256
    is kept here, so the table cannot be used to sign in. Signing out deletes the row, changing
    the password deletes every row of the account."""
    __tablename__ = "sessions"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 hex of the cookie's token
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=now)
    expires_at: Mapped[datetime] = mapped_column(DateTime, index=True)
