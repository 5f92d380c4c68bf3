"""The accounts' tables: users, their sessions and the sign-in limit (a part of Store, which
gives `session()`, `engine` and `dialect`). Every claim here is one statement or one
transaction the database serialises, the same on SQLite and PostgreSQL: a name is claimed by
its unique folded key, a sign-in attempt by a conditional upsert of its counter."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import case, delete, select, update
from sqlalchemy.engine import CursorResult, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from generator.community.accounts import FAILS, SESSION_DAYS, WINDOW, clean_name, name_key, new_session_token, session_id
from generator.community.models import SigninLimit, User, UserSession, now


class Conflict(Exception):
    """A name another row holds already (the caller tries the next one)."""


ROLES = ("designer", "player")


class _Full(Exception):
    """A sign-in key with no attempt left (take_signin)."""


class Users:
    """Accounts, sessions and the sign-in limit (mixed into Store)."""

    engine: Engine

    def session(self) -> AbstractContextManager[Session]:
        """A transaction (Store's)."""
        raise NotImplementedError

    # ---- accounts -------------------------------------------------------------------------------

    def add_user(self, name: str, password_hash: str, role: str = "player") -> User:
        """A new account; Conflict when its name (folded: accounts.name_key) is taken. Signing up
        makes players only: a designer is named by the site's operator (`pnp accounts add NAME
        --designer`, `pnp serve --designer NAME`), never by being first."""
        assert role in ROLES
        name = clean_name(name)
        try:
            with self.session() as s:
                u = User(name=name, name_key=name_key(name), password_hash=password_hash, role=role, created_at=now())
                s.add(u)
                s.flush()
                return u
        except IntegrityError:
            raise Conflict(name) from None

    def user(self, user_id: int | None = None, name: str | None = None) -> User | None:
        with self.session() as s:
            if user_id is not None:
                return s.get(User, user_id)
            return s.scalar(select(User).where(User.name_key == name_key(clean_name(name or ""))))

    def users(self) -> list[User]:
        with self.session() as s:
            return list(s.scalars(select(User).order_by(User.id)))

    def set_role(self, name: str, role: str) -> User | None:
        """The account `name` made a designer or a player (None: there is none)."""
        assert role in ROLES
        with self.session() as s:
            u = s.scalar(select(User).where(User.name_key == name_key(clean_name(name))))
            if u is not None:
                u.role = role
            return u

    def designers(self) -> list[str]:
        with self.session() as s:
            return list(s.scalars(select(User.name).where(User.role == "designer").order_by(User.id)))

    def set_password(self, user_id: int, password_hash: str) -> None:
        """A new password; every session of the account ends with the old one."""
        with self.session() as s:
            user = s.get(User, user_id)
            if user is None:
                raise KeyError(user_id)
            user.password_hash = password_hash
            s.execute(delete(UserSession).where(UserSession.user_id == user_id))

    # ---- sessions -------------------------------------------------------------------------------

    def start_session(self, user_id: int) -> str:
        """A new session of the account: the token for its cookie (the table keeps its hash)."""
        token, at = new_session_token(), now()
        with self.session() as s:
            s.execute(delete(UserSession).where(UserSession.expires_at < at))
            s.add(UserSession(id=session_id(token), user_id=user_id, created_at=at,
                              expires_at=at + timedelta(days=SESSION_DAYS)))
        return token

    def session_user(self, token: str) -> User | None:
        """The account a session token is signed in to, or None (ended, expired or never made)."""
        with self.session() as s:
            return s.scalar(select(User).join(UserSession, UserSession.user_id == User.id)
                            .where(UserSession.id == session_id(token), UserSession.expires_at > now()))

    def end_session(self, token: str) -> None:
        with self.session() as s:
            s.execute(delete(UserSession).where(UserSession.id == session_id(token)))

    def end_sessions(self, user_id: int) -> int:
        """Every session of the account ended (`pnp accounts signout NAME`); how many there were."""
        with self.session() as s:
            ended = s.execute(delete(UserSession).where(UserSession.user_id == user_id))
            return cast("CursorResult[Any]", ended).rowcount

    # ---- the sign-in limit ------------------------------------------------------------------------

    def take_signin(self, keys: list[str]) -> datetime | None:
        """Take one sign-in attempt for each of `keys` (an account name, an address), before the
        password is checked: None when every key had one left, else when the first full key's
        window began (nothing is taken then). Each key's count is raised by one conditional
        upsert, which the database runs one at a time per row, so of parallel attempts exactly
        as many pass as the limit allows; keys are taken in sorted order (no deadlock) in one
        transaction (all or none)."""
        at = now()
        start = at - WINDOW
        keys = sorted({k[:120] for k in keys})
        upsert = self._upsert()
        stale = SigninLimit.since < start
        try:
            with self.session() as s:
                for key in keys:
                    stmt = upsert(SigninLimit).values(key=key, fails=1, since=at)
                    stmt = stmt.on_conflict_do_update(
                        index_elements=[SigninLimit.key],
                        set_={"fails": case((stale, 1), else_=SigninLimit.fails + 1),
                              "since": case((stale, at), else_=SigninLimit.since)},
                        where=stale | (SigninLimit.fails < FAILS)).returning(SigninLimit.fails)
                    if s.execute(stmt).first() is None:
                        raise _Full(key)  # the transaction is rolled back: nothing is taken
        except _Full as full:
            with self.session() as s:
                return s.scalar(select(SigninLimit.since).where(SigninLimit.key == full.args[0])) or at
        with self.session() as s:  # rows of windows long over (a separate transaction: no lock held with them)
            s.execute(delete(SigninLimit).where(SigninLimit.since < at - timedelta(days=1)))
        return None

    def give_back_signin(self, keys: list[str]) -> None:
        """The password was right: the attempts taken for it do not count."""
        with self.session() as s:
            s.execute(update(SigninLimit).where(SigninLimit.key.in_(sorted({k[:120] for k in keys})),
                                                SigninLimit.fails > 0).values(fails=SigninLimit.fails - 1))

    def _upsert(self) -> Any:
        """INSERT ... ON CONFLICT of the database's dialect (both have on_conflict_do_update)."""
        if self.engine.dialect.name == "postgresql":
            # deferred: a dialect's module only where its database runs
            from sqlalchemy.dialects.postgresql import insert as pg_insert
            return pg_insert
        # deferred: as above
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert
        return sqlite_insert
