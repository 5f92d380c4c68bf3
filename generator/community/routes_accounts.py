"""Sign up, sign in, sign out, change password (only with `pnp serve --accounts`)."""

from __future__ import annotations

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse

from generator.web.pages import page
from generator.web.words import gettext
from generator.community.accounts import (SESSION_COOKIE, SESSION_DAYS, WINDOW, check_password,
                                          clean_name, hash_password, name_key, name_problem, new_nonce,
                                          password_problem, session_token)
from generator.community.common import accounts_on, signed_in, store_of
from generator.community.middleware import cookies_of, https, nonce_cookie
from generator.community.models import now
from generator.community.store import Conflict

router = APIRouter(include_in_schema=False)


def _need_accounts(request: Request) -> None:
    if not accounts_on(request):
        raise HTTPException(404, "this server has no accounts (start it with `pnp serve --accounts`)")


def _form(request, kind: str, status: int = 200, error: str | None = None, name: str = ""):
    titles = {"signup": gettext("Sign up"), "signin": gettext("Sign in"), "password": gettext("Change password")}
    return page(request, "community_account.html", status=status, title=titles[kind], kind=kind, error=error,
                account_name=name)


def _secure(request: Request) -> bool:
    return https(request.scope, {b"x-forwarded-proto": request.headers.get("x-forwarded-proto", "").encode()})


def _session_of(request: Request) -> str | None:
    return session_token(cookies_of(dict(request.scope.get("headers") or [])).get(SESSION_COOKIE))


def _new_nonce(resp, request: Request) -> None:
    """A new CSRF nonce for the browser at every sign-in and sign-out: one planted before (by a
    page that could set this site's cookies) is worth nothing after."""
    resp.headers.append("set-cookie", nonce_cookie(new_nonce(), _secure(request)))


def _signed_in_response(request: Request, user) -> RedirectResponse:
    """A new session for `user` (its own CSRF token comes with it), its cookie set."""
    resp = RedirectResponse("/", status_code=303)
    token = store_of(request).start_session(user.id)
    resp.set_cookie(SESSION_COOKIE, token, max_age=SESSION_DAYS * 86400, httponly=True, samesite="lax",
                    secure=_secure(request), path="/")
    _new_nonce(resp, request)
    return resp


@router.get("/account/{kind}")
def account_form(request: Request, kind: str):
    _need_accounts(request)
    if kind not in ("signup", "signin", "password"):
        raise HTTPException(404, "no such page")
    if kind == "password":
        signed_in(request)
    return _form(request, kind)


@router.post("/account/signup")
def signup(request: Request, name: str = Form(..., max_length=200), password: str = Form(..., max_length=2000)):
    _need_accounts(request)
    name = clean_name(name)
    problem = name_problem(name) or password_problem(password)
    if problem:
        return _form(request, "signup", 422, f"not a usable {'name' if name_problem(name) else 'password'}: {problem}",
                     name)
    try:
        user = store_of(request).add_user(name, hash_password(password))
    except Conflict:
        return _form(request, "signup", 409, gettext("that name is taken (names are the same whatever their case); pick another"),
                     name)
    return _signed_in_response(request, user)


@router.post("/account/signin")
def signin(request: Request, name: str = Form(..., max_length=200), password: str = Form(..., max_length=2000)):
    _need_accounts(request)
    store = store_of(request)
    name = clean_name(name)
    keys = [f"name:{name_key(name)[:60]}", f"addr:{request.client.host if request.client else '?'}"]
    full = store.take_signin(keys)  # taken before the password is checked: parallel guesses count too
    if full is not None:
        wait = max(1, int((full + WINDOW - now()).total_seconds()) + 1)
        minutes = -(-wait // 60)
        resp = _form(request, "signin", 429, f"too many failed sign-ins; wait {minutes} minute"
                     f"{'' if minutes == 1 else 's'} and try again", name)
        resp.headers["Retry-After"] = str(wait)
        return resp
    user = None if name_problem(name) else store.user(name=name)
    # the same argon2 work whether or not the name is an account's: the time tells nothing
    if not check_password(user.password_hash if user else None, password):
        return _form(request, "signin", 401, gettext("that name and password do not match an account"), name)
    store.give_back_signin(keys)
    return _signed_in_response(request, user)


@router.post("/account/signout")
def signout(request: Request):
    _need_accounts(request)
    token = _session_of(request)
    if token is not None:
        store_of(request).end_session(token)  # a copy of the cookie is worth nothing now
    resp = RedirectResponse("/", status_code=303)
    resp.delete_cookie(SESSION_COOKIE, path="/")
    _new_nonce(resp, request)
    return resp


@router.post("/account/password")
def change_password(request: Request, old: str = Form(..., max_length=2000), new: str = Form(..., max_length=2000)):
    _need_accounts(request)
    who = signed_in(request)
    store = store_of(request)
    user = store.user(user_id=who.owner)
    if user is None:  # the account was removed while this browser was signed in
        raise HTTPException(401, "sign in first (Sign in, at the top of the page)")
    if not check_password(user.password_hash, old):
        return _form(request, "password", 401, gettext("the current password is not right"))
    problem = password_problem(new)
    if problem:
        return _form(request, "password", 422, f"not a usable password: {problem}")
    store.set_password(user.id, hash_password(new))  # every session of the account ends, this one too
    return _signed_in_response(request, user)  # and this browser gets a new one
