"""Accounts as a hostile crowd would try them (issue 37), on SQLite and a real PostgreSQL:
parallel wrong passwords all counted before any is checked; parallel sign-ups never making
a designer (the operator names one: `pnp accounts add NAME --designer`, `pnp serve
--designer NAME`), and one name whatever its case or Unicode form; sessions on the server,
so signing out and a new password end copies of the cookie; CSRF tokens bound to the session
and new at every sign-in; a missing name costing the same argon2 work as a real one; an
existing clash of names renamed by the migration."""

from __future__ import annotations

import copy
import re
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import text

from community_support import db_url, postgres  # noqa: F401  (fixtures)
from generator.cli import main as cli
from generator.community import accounts
from generator.community.accounts import CSRF_COOKIE, FAILS, SESSION_COOKIE, hash_password
from generator.community.app import community_app
from generator.community.store import Store
from generator.pack.load import load_pack
from generator.web.common import preset_docs
from generator.web.site import Site

PACK = "card_data/boss_fight"
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    return Site.load([Path(PACK)], root / "builds", root / "cache")


@pytest.fixture(scope="module")
def preset():
    return copy.deepcopy(preset_docs(load_pack(Path(PACK)))["boss-ashen-behemoth"][0])


@pytest.fixture
def app(site, db_url):
    app = community_app(site, db_url, accounts=True)
    yield app
    app.state.community_store.engine.dispose()


def _client(app) -> TestClient:
    return TestClient(app, base_url="http://localhost")


def _token(client, path="/account/signin") -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text).group(1)


def _post(client, path, data, token=None):
    return client.post(path, data={**data, "csrf_token": token or _token(client)}, follow_redirects=False)


def _signup(client, name, password=PASSWORD):
    return _post(client, "/account/signup", {"name": name, "password": password})


def _signin(client, name, password=PASSWORD, token=None):
    return _post(client, "/account/signin", {"name": name, "password": password}, token)


def _save(client, doc, token):
    return client.post("/p/boss_fight/builds/save", json={"build": doc, "stem": None}, headers={"x-csrf-token": token})


def _at_once(calls):
    """Run the calls in threads released together (a barrier), as parallel clients would send them."""
    gate = threading.Barrier(len(calls))

    def run(call):
        gate.wait()
        return call()
    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


# ---- the sign-in limit and sign-ups, raced --------------------------------------------------------


def test_parallel_wrong_passwords_are_all_counted(app):
    """20 wrong passwords sent at once for one name: 5 are checked, 15 refused (the count had
    been read by all 20 before any failure was written)."""
    app.state.community_store.add_user("alice", hash_password(PASSWORD))
    clients = [_client(app) for _ in range(20)]
    tokens = [_token(c) for c in clients]
    answers = _at_once([lambda c=c, t=t: _signin(c, "alice", "wrong guess 123", t) for c, t in zip(clients, tokens)])
    assert Counter(r.status_code for r in answers) == {401: FAILS, 429: 20 - FAILS}
    assert all(0 < int(r.headers["retry-after"]) <= 600 for r in answers if r.status_code == 429)
    late = _client(app)
    assert _signin(late, "ALICE").status_code == 429  # the right password too, under any case of the name


def test_a_right_password_does_not_count_against_the_limit(app):
    app.state.community_store.add_user("alice", hash_password(PASSWORD))
    c = _client(app)
    for _ in range(FAILS - 1):
        assert _signin(c, "alice", "wrong guess 123").status_code == 401
    assert _signin(c, "alice").status_code == 303
    c.cookies.clear()
    assert _signin(c, "alice", "wrong guess 123").status_code == 401  # the fifth failure
    assert _signin(c, "alice").status_code == 429


def test_signing_up_at_once_makes_no_designer_and_one_name(app):
    """8 sign-ups sent at once to a fresh site: 8 players, no designer (they had all become
    designers); the same name in 4 cases and forms at once: exactly one account."""
    store = app.state.community_store
    names = [f"player{i}" for i in range(8)]
    clients = [_client(app) for _ in names]
    tokens = [_token(c) for c in clients]
    answers = _at_once([lambda c=c, n=n, t=t: _post(c, "/account/signup", {"name": n, "password": PASSWORD}, t)
                        for c, n, t in zip(clients, names, tokens)])
    assert [r.status_code for r in answers] == [303] * 8
    assert sorted(u.name for u in store.users()) == names and store.designers() == []
    forms = ["Carol", "carol", "CAROL", "ｃａｒｏｌ"]
    clients = [_client(app) for _ in forms]
    tokens = [_token(c) for c in clients]
    answers = _at_once([lambda c=c, n=n, t=t: _post(c, "/account/signup", {"name": n, "password": PASSWORD}, t)
                        for c, n, t in zip(clients, forms, tokens)])
    assert sorted(r.status_code for r in answers) == [303, 409, 409, 409]
    assert len([u for u in store.users() if u.name.lower() == "carol"]) == 1


# ---- names ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("taken,again", [("Designer", "designer"), ("Designer", "DESIGNER"),
                                         ("designer", "ｄｅｓｉｇｎｅｒ"), ("kate", "\u212aate"),  # Kelvin sign K
                                         ("mo.mo", "ｍｏ．ｍｏ")])
def test_names_are_one_whatever_their_case_or_form(site, tmp_path, taken, again):
    app = community_app(site, f"sqlite:///{tmp_path / 'site.sqlite3'}", accounts=True)
    assert _signup(_client(app), taken).status_code == 303
    r = _signup(_client(app), again)
    assert r.status_code == 409 and "that name is taken" in r.text
    c = _client(app)
    assert _signin(c, again).status_code == 303  # signs in to the one account, shown as it was made
    assert f"<span>{taken}</span>" in c.get("/").text


@pytest.mark.parametrize("name", ["\u0430lice", "al ice", "a", "x" * 41, "ali\u0307ce", "<b>x</b>"])
def test_names_outside_the_set_are_refused(site, tmp_path, name):
    app = community_app(site, f"sqlite:///{tmp_path / 'site.sqlite3'}", accounts=True)
    r = _signup(_client(app), name)
    assert r.status_code == 422 and "not a usable name" in r.text


def test_an_existing_clash_is_renamed_by_the_migration(db_url, capsys):
    store = Store(db_url)
    store.migrate("0003")
    with store.engine.begin() as conn:
        for name in ("Designer", "designer", "DESIGNER", "designer-2", "bob"):
            conn.execute(text("INSERT INTO users (name, password_hash, role, created_at) VALUES "
                              "(:n, 'x', 'player', '2026-01-01')"), {"n": name})
        conn.execute(text("INSERT INTO publications (public_id, owner_key, author, pack, name, side, points, text, "
                          "code, copies, hidden, featured, created_at) VALUES ('p1', 2, 'designer', 'boss_fight', "
                          "'b', 'boss', 10, 't', 'c', 0, false, false, '2026-01-01')"))
    store.migrate()
    users = {u.id: u.name for u in store.users()}
    # the oldest keeps the name; later ones get the first free -N (designer-2 was taken by id 4)
    assert users == {1: "Designer", 2: "designer-3", 3: "DESIGNER-4", 4: "designer-2", 5: "bob"}
    assert {u.name_key for u in store.users()} == {"designer", "designer-3", "designer-4", "designer-2", "bob"}
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT author FROM publications")).scalar() == "designer-3"
    err = capsys.readouterr().err
    assert "account `designer` (id 2) is now `designer-3`" in err and "`DESIGNER` (id 3) is now `DESIGNER-4`" in err
    store.engine.dispose()


# ---- sessions and CSRF ------------------------------------------------------------------------------


def test_signing_out_ends_the_session_and_every_copy_of_its_cookie(app, preset):
    alice = _client(app)
    assert _signup(alice, "alice").status_code == 303
    thief = _client(app)
    thief.cookies.set(SESSION_COOKIE, alice.cookies.get(SESSION_COOKIE))
    stolen_token = _token(thief, "/p/boss_fight/builds")
    assert "alice" in thief.get("/").text
    assert _post(alice, "/account/signout", {}, _token(alice, "/")).status_code == 303
    assert "alice" not in thief.get("/").text
    assert _save(thief, preset, stolen_token).status_code == 403  # the session's token died with it
    assert _save(thief, preset, _token(thief)).status_code == 401  # and with a fresh one it is nobody


def test_a_new_password_ends_every_session_even_this_browsers_old_cookie(app):
    one = _client(app)
    assert _signup(one, "alice").status_code == 303
    old_cookie = one.cookies.get(SESSION_COOKIE)
    two = _client(app)
    assert _signin(two, "alice").status_code == 303
    r = _post(one, "/account/password", {"old": PASSWORD, "new": "a much better one"}, _token(one, "/"))
    assert r.status_code == 303
    assert "alice" in one.get("/").text and one.cookies.get(SESSION_COOKIE) != old_cookie
    assert "alice" not in two.get("/").text
    copy_ = _client(app)
    copy_.cookies.set(SESSION_COOKIE, old_cookie)
    assert "alice" not in copy_.get("/").text


def test_the_csrf_token_is_the_sessions_own_and_new_at_sign_in(app, preset):
    """A nonce planted in the victim's browser, with the token an attacker fetched for it, is
    worth nothing once the victim signs in: the token is then the session's, and the nonce is
    replaced."""
    attacker = _client(app)
    planted_token = _token(attacker)
    planted_nonce = attacker.cookies.get(CSRF_COOKIE)
    victim = TestClient(app, base_url="http://localhost", cookies={CSRF_COOKIE: planted_nonce})
    assert _token(victim) == planted_token  # before signing in, the nonce's token
    assert _signup(_client(app), "alice").status_code == 303
    r = _signin(victim, "alice", token=planted_token)
    assert r.status_code == 303
    assert re.search(rf"{CSRF_COOKIE}=(?!{planted_nonce})[A-Za-z0-9_-]{{20,}}", r.headers["set-cookie"])
    mine = _token(victim, "/p/boss_fight/builds")
    assert mine != planted_token
    assert _save(victim, preset, planted_token).status_code == 403
    # the token of another session of the same account is refused too
    other = _client(app)
    assert _signin(other, "alice").status_code == 303
    assert _save(victim, preset, _token(other, "/")).status_code == 403
    assert _save(victim, preset, mine).status_code == 200


# ---- timing -------------------------------------------------------------------------------------------


def test_a_missing_name_costs_the_same_argon2_work(site, tmp_path, monkeypatch):
    """Counted, not timed: every sign-in runs one argon2 verification with the same parameters,
    whether the name is an account's, missing, or not even a usable name."""
    from argon2 import extract_parameters
    app = community_app(site, f"sqlite:///{tmp_path / 'site.sqlite3'}", accounts=True)
    real_hash = hash_password(PASSWORD)
    app.state.community_store.add_user("alice", real_hash)
    hasher, checked = accounts._hasher(), []

    class Counted:
        def verify(self, h, p):
            checked.append(extract_parameters(h))
            return hasher.verify(h, p)
    monkeypatch.setattr(accounts, "_hasher", Counted)
    for name in ("alice", "nobody", "x", "<no such name>"):
        checked.clear()
        c = _client(app)
        assert _signin(c, name, "wrong guess 123").status_code == 401
        assert checked == [extract_parameters(real_hash)], name


# ---- the designer, named by the operator --------------------------------------------------------------


def test_the_operator_names_the_designer(tmp_path, monkeypatch):
    from generator.web import listen
    monkeypatch.setattr(listen, "serve", lambda app, sock, workers=1, **kw: None)
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    run = lambda *args, **kw: CliRunner().invoke(cli, list(args), **kw)  # noqa: E731
    serve = ("serve", PACK, "--port", "0", "--db", url, "--builds", str(tmp_path / "b"), "--accounts")
    r = run(*serve)
    assert r.exit_code == 0 and "this site has no designer yet" in r.output and "--designer NAME" in r.output
    r = run("accounts", "add", "Ada", "--designer", "--password-stdin", "--db", url, input=PASSWORD + "\n")
    assert r.exit_code == 0, r.output
    r = run("accounts", "add", "ADA", "--password-stdin", "--db", url, input=PASSWORD + "\n")
    assert r.exit_code == 2 and "is taken (by `Ada`" in r.output and "Traceback" not in r.output
    r = run("accounts", "add", "bob", "--password-stdin", "--db", url, input="short\n")
    assert r.exit_code == 2 and "at least 10 characters" in r.output
    r = run(*serve, "--designer", "bob")
    assert r.exit_code == 2 and "no account `bob`" in r.output and "pnp accounts add bob --designer" in r.output
    store = Store(url)
    store.add_user("bob", hash_password(PASSWORD))
    r = run(*serve, "--designer", "BOB")
    assert r.exit_code == 0, r.output
    assert "no designer yet" not in r.output
    assert sorted(store.designers()) == ["Ada", "bob"]
    r = run("accounts", "role", "ada", "player", "--db", url)
    assert r.exit_code == 0 and store.designers() == ["bob"]
    r = run("accounts", "list", "--db", url)
    assert re.findall(r"^(\S+)\t(\S+)\t", r.output, re.M) == [("Ada", "player"), ("bob", "designer")]
    r = run("serve", PACK, "--port", "0", "--db", url, "--designer", "bob")
    assert r.exit_code == 2 and "--accounts" in r.output
    token = store.start_session(store.user(name="bob").id)
    r = run("accounts", "password", "bob", "--password-stdin", "--db", url, input="another good one\n")
    assert r.exit_code == 0 and store.session_user(token) is None
    store.engine.dispose()
