"""Passwords, sessions and CSRF tokens.

- Passwords are hashed with argon2id (argon2-cffi's defaults, RFC 9106's low-memory profile).
- The session is a cookie signed with the site's secret (itsdangerous): the user id and a
  fingerprint of their password hash, so changing the password signs out every other
  session. HttpOnly, SameSite=Lax, Secure when the request came over HTTPS.
- CSRF: every browser gets a random `pnp_csrf` cookie; the token a form or a script sends
  back is that value signed with the secret (a page of another site can read neither).
- Sign-in: at most FAILS failed attempts per account name and per address in WINDOW.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
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
NAME = re.compile(r"^[A-Za-z0-9_.-]{2,40}$")
MIN_PASSWORD = 10



def accounts_available() -> bool:
    """argon2-cffi (passwords) and itsdangerous (signed sessions) are the `accounts` extra: a
    one-person builder on localhost has neither, so the default install leaves them out and
    imports them only here and when a site with accounts uses them (`pnp serve --accounts`
    checks this first)."""
    return find_spec("argon2") is not None and find_spec("itsdangerous") is not None


@lru_cache(maxsize=1)
def _hasher():
    # deferred: the `accounts` extra, imported only on a site with accounts
    from argon2 import PasswordHasher
    return PasswordHasher()  # argon2id


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def check_password(password_hash: str, password: str) -> bool:
    # deferred: the `accounts` extra, imported only on a site with accounts
    from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
    try:
        return _hasher().verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def name_problem(name: str) -> str | None:
    if not NAME.match(name or ""):
        return "2 to 40 letters, digits, `.`, `_` or `-`"
    return None


def password_problem(password: str) -> str | None:
    if len(password or "") < MIN_PASSWORD:
        return f"at least {MIN_PASSWORD} characters"
    if len(password) > 1000:
        return "at most 1000 characters"
    return None


def fingerprint(password_hash: str) -> str:
    return hashlib.sha256(password_hash.encode()).hexdigest()[:16]


class Keys:
    """What the site's secret signs: session cookies and CSRF tokens."""

    def __init__(self, secret: str):
        # deferred: the `accounts` extra, imported only on a site with accounts
        from itsdangerous import URLSafeTimedSerializer
        self.secret = secret.encode()
        self.sessions = URLSafeTimedSerializer(secret, salt="pnp-session")

    def session_cookie(self, user_id: int, password_hash: str) -> str:
        return self.sessions.dumps({"u": user_id, "p": fingerprint(password_hash)})

    def session(self, cookie: str | None) -> dict | None:
        """The signed session in a cookie, or None (missing, expired, or signed with another secret)."""
        if not cookie or len(cookie) > 500:
            return None
        # deferred: the `accounts` extra, imported only on a site with accounts
        from itsdangerous import BadSignature
        try:
            data = self.sessions.loads(cookie, max_age=SESSION_DAYS * 86400)
        except BadSignature:
            return None
        return data if isinstance(data, dict) and isinstance(data.get("u"), int) else None

    def csrf_token(self, nonce: str) -> str:
        return hmac.new(self.secret, b"csrf:" + nonce.encode(), hashlib.sha256).hexdigest()

    def csrf_ok(self, nonce: str | None, token: str | None) -> bool:
        return bool(nonce and token) and hmac.compare_digest(self.csrf_token(nonce), token)


def new_nonce() -> str:
    return secrets.token_urlsafe(24)
