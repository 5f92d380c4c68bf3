"""Passwords, names, sessions and CSRF tokens.

- Passwords are hashed with argon2id (argon2-cffi's defaults, RFC 9106's low-memory profile).
  A sign-in for a name no account has checks the password against a hash made once with the
  same parameters, so it costs the same argon2 work and its timing does not tell which names
  exist.
- Names are compared folded (name_key: NFKC, Unicode case folding, NFKC again), and the
  database keeps the folded form unique: `Designer`, `DESIGNER` and a full-width `Ｄesigner`
  are one name. A name is typed in any form and kept in its NFKC form, which must be ASCII
  letters, digits, `.`, `_` or `-`: letters of other scripts are refused, as many look alike
  (Latin `a` and Cyrillic `а`) without folding to one another.
- Sessions are server-side (Store.start_session): the cookie holds a random token, the
  database its SHA-256; signing out deletes it, changing the password deletes every session of
  the account. HttpOnly, SameSite=Lax, Secure when the request came over HTTPS.
- CSRF: a signed-in browser's token is an HMAC of its session token with the site's secret, so
  it is bound to that session and is new at every sign-in. A browser without a session (the
  sign-in and sign-up forms) gets a random `pnp_csrf` cookie and the HMAC of that; a new one
  is set at every sign-in and sign-out.
- Sign-in: at most FAILS attempts not known to have succeeded per account name and per
  address in WINDOW, taken before the password is checked (Store.take_signin).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata
from datetime import timedelta
from functools import lru_cache
from importlib.util import find_spec

SESSION_COOKIE = "pnp_session"
CSRF_COOKIE = "pnp_csrf"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
FAILS = 5
WINDOW = timedelta(minutes=10)
NAME = re.compile(r"[A-Za-z0-9_.-]{2,40}")  # after NFKC (clean_name)
TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")  # a session token as new_session_token makes it
MIN_PASSWORD = 10



def accounts_available() -> bool:
    """argon2-cffi (passwords) is the `accounts` extra: a one-person builder on localhost has
    none, so the default install leaves it out and imports it only here and when a site with
    accounts uses it (`pnp serve --accounts` checks this first)."""
    return find_spec("argon2") is not None


@lru_cache(maxsize=1)
def _hasher():
    # deferred: the `accounts` extra, imported only on a site with accounts
    from argon2 import PasswordHasher
    return PasswordHasher()  # argon2id


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def check_password(password_hash: str | None, password: str) -> bool:
    """Whether `password` is the one hashed; with no hash (no such account) the same argon2 work
    is done against a hash of a random password, and the answer is no."""
    # deferred: the `accounts` extra, imported only on a site with accounts
    from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
    try:
        return _hasher().verify(password_hash or _stand_in(), password) and password_hash is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


@lru_cache(maxsize=1)
def _stand_in() -> str:
    """The hash a sign-in for a missing name is checked against (made with the same parameters
    as every account's: _hasher). Made when the app starts (warm_up), not by the first such
    sign-in, which would otherwise take twice as long as the others."""
    return hash_password(secrets.token_urlsafe(16))


def warm_up() -> None:
    _stand_in()


def clean_name(name: str) -> str:
    """A name as typed, as it is kept and shown: NFKC, without surrounding spaces."""
    return unicodedata.normalize("NFKC", name or "").strip()


def name_key(name: str) -> str:
    """The form names are compared in (Unicode's NFKC_Casefold, near enough): two names with
    the same key are one name, whatever their case or compatibility form."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name or "").casefold())


def name_problem(name: str) -> str | None:
    if not NAME.fullmatch(name or ""):
        return "2 to 40 letters (A to Z), digits, `.`, `_` or `-`"
    return None


def password_problem(password: str) -> str | None:
    if len(password or "") < MIN_PASSWORD:
        return f"at least {MIN_PASSWORD} characters"
    if len(password) > 1000:
        return "at most 1000 characters"
    return None


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def session_id(token: str) -> str:
    """What the sessions table keeps of a session token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


def session_token(cookie: str | None) -> str | None:
    """The session token of a cookie's value, or None when it cannot be one (no database read)."""
    return cookie if cookie and TOKEN.fullmatch(cookie) else None


class Keys:
    """What the site's secret signs: CSRF tokens."""

    def __init__(self, secret: str):
        self.secret = secret.encode()

    def csrf_token(self, nonce: str) -> str:
        """A browser without a session: the token of its `pnp_csrf` nonce."""
        return hmac.new(self.secret, b"csrf:" + nonce.encode(), hashlib.sha256).hexdigest()

    def session_csrf(self, token: str) -> str:
        """A signed-in browser: the token of its session, valid for that session only."""
        return hmac.new(self.secret, b"csrf-session:" + token.encode(), hashlib.sha256).hexdigest()

    @staticmethod
    def matches(expected: str, token: str | None) -> bool:
        if not token:
            return False
        return hmac.compare_digest(expected, token)


def new_nonce() -> str:
    return secrets.token_urlsafe(24)
