"""Sign up, sign in, sign out, change password (only with `pnp serve --accounts`)."""

from __future__ import annotations

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse

from generator.web.pages import page
from generator.community.accounts import (FAILS, SESSION_COOKIE, SESSION_DAYS, WINDOW, check_password, hash_password,
                                          name_problem, password_problem)
from generator.community.common import accounts_on, signed_in, store_of
from generator.community.middleware import https
from generator.community.store import Conflict

router = APIRouter(include_in_schema=False)


def _need_accounts(request: Request) -> None:
    if not accounts_on(request):
        raise HTTPException(404, "this server has no accounts (start it with `pnp serve --accounts`)")


def _form(request, kind: str, status: int = 200, error: str | None = None, name: str = ""):
    titles = {"signup": "Sign up", "signin": "Sign in", "password": "Change password"}
    return page(request, "community_account.html", status=status, title=titles[kind], kind=kind, error=error,
                account_name=name)


def _signed_in_response(request: Request, user) -> RedirectResponse:
    resp = RedirectResponse("/", status_code=303)
    keys = request.app.state.community_keys
    resp.set_cookie(SESSION_COOKIE, keys.session_cookie(user.id, user.password_hash), max_age=SESSION_DAYS * 86400,
                    httponly=True, samesite="lax", secure=https(request.scope, {
                        b"x-forwarded-proto": request.headers.get("x-forwarded-proto", "").encode()}), path="/")
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
    name = name.strip()
    problem = name_problem(name) or password_problem(password)
    if problem:
        return _form(request, "signup", 422, f"not a usable {'name' if name_problem(name) else 'password'}: {problem}",
                     name)
    try:
        user = store_of(request).add_user(name, hash_password(password))
    except Conflict:
        return _form(request, "signup", 409, "that name is taken; pick another", name)
    return _signed_in_response(request, user)


@router.post("/account/signin")
def signin(request: Request, name: str = Form(..., max_length=200), password: str = Form(..., max_length=2000)):
    _need_accounts(request)
    store = store_of(request)
    keys = [f"name:{name.strip().lower()[:60]}", f"addr:{request.client.host if request.client else '?'}"]
    if store.failed_signins(keys, WINDOW) >= FAILS:
        resp = _form(request, "signin", 429, f"too many failed sign-ins; wait {int(WINDOW.total_seconds() // 60)} "
                     "minutes and try again", name)
        resp.headers["Retry-After"] = str(int(WINDOW.total_seconds()))
        return resp
    user = store.user(name=name.strip())
    if user is None or not check_password(user.password_hash, password):
        store.failed_signin(keys)
        return _form(request, "signin", 401, "that name and password do not match an account", name)
    return _signed_in_response(request, user)


@router.post("/account/signout")
def signout(request: Request):
    _need_accounts(request)
    resp = RedirectResponse("/", status_code=303)
    resp.delete_cookie(SESSION_COOKIE, path="/")
    return resp


@router.post("/account/password")
def change_password(request: Request, old: str = Form(..., max_length=2000), new: str = Form(..., max_length=2000)):
    _need_accounts(request)
    who = signed_in(request)
    store = store_of(request)
    user = store.user(user_id=who.owner)
    if not check_password(user.password_hash, old):
        return _form(request, "password", 401, "the current password is not right")
    problem = password_problem(new)
    if problem:
        return _form(request, "password", 422, f"not a usable password: {problem}")
    store.set_password(user.id, hash_password(new))
    return _signed_in_response(request, store.user(user_id=user.id))  # other sessions end: the hash changed
