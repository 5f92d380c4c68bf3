"""No 500 and nothing acknowledged then lost (issue 37): every bad number a request can carry
is a 4xx with a message (one parser: core.limits.whole_number); the database down is a 503
with Retry-After and comes back by itself; a full disk is a 507; a save is never answered 200
into a SQLite file that was deleted or replaced under the server; a database from a newer
pnp stops `pnp serve` with one line naming both revisions. SQLite and a real PostgreSQL."""

from __future__ import annotations

import copy
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import event, text

from community_support import Postgres, db_url, postgres  # noqa: F401  (fixtures)
from generator.cli import main as cli
from generator.community.accounts import hash_password
from generator.community.app import community_app
from generator.community.store import HEAD_REVISION, Store
from generator.core.limits import MAX_POINTS, NotANumber, whole_number
from generator.pack.load import load_pack
from generator.web.common import preset_docs
from generator.web.site import Site

PACK = "card_data/boss_fight"
PASSWORD = "correct horse battery"
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    return Site.load([Path(PACK)], root / "builds", root / "cache")


@pytest.fixture(scope="module")
def preset():
    return copy.deepcopy(preset_docs(load_pack(Path(PACK)))["boss-ashen-behemoth"][0])


def _client(app) -> TestClient:
    return TestClient(app, base_url="http://localhost", raise_server_exceptions=False)


def _token(client, path="/account/signin") -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text).group(1)


def _signed_in(app, name="alice", role="player") -> TestClient:
    app.state.community_store.add_user(name, hash_password(PASSWORD), role=role)
    c = _client(app)
    r = c.post("/account/signin", data={"name": name, "password": PASSWORD, "csrf_token": _token(c)},
               follow_redirects=False)
    assert r.status_code == 303
    c.headers["x-csrf-token"] = _token(c, "/")
    return c


def _save(c, doc, stem=None):
    return c.post("/p/boss_fight/builds/save", json={"build": doc, "stem": stem})


def _code(r) -> str:
    """The problem's code, from a pnp.validation document or the page that shows it."""
    if r.headers["content-type"].startswith("application/json"):
        return r.json()["errors"][0]["code"]
    m = re.search(r"\b(server\.[a-z-]+)\b", r.text)
    return m.group(1) if m else ""


# ---- numbers ----------------------------------------------------------------------------------------

BAD = ["²", "٣", "１２", "-1", "1e3", "0x10", "999999999999", "9223372036854775808", "1" * 5000]


def test_the_one_number_parser():
    assert whole_number(" 042 ", 99) == 42 and whole_number("-7", 10, -10) == -7
    for bad in BAD + ["", "+1", "1 2", "100"]:
        with pytest.raises(NotANumber, match="a whole number from 0 to 99"):
            whole_number(bad, 99)


def test_bad_numbers_are_4xx_with_a_message(site, db_url, preset):  # noqa: F811
    app = community_app(site, db_url, accounts=True)
    alice = _signed_in(app)
    stem = _save(alice, preset).json()["stem"]
    for bad in BAD:
        r = alice.get("/p/boss_fight/published", params={"max_points": bad})
        if len(bad) <= 9:  # the field's own length limit refuses longer ones first (also a 422)
            assert r.status_code == 422 and "max_points" in r.text and f"0 to {MAX_POINTS}" in r.text, bad
        else:
            assert r.status_code == 422, bad
        r = alice.post(f"/p/boss_fight/builds/{stem}/publish", data={"points_limit": bad}, follow_redirects=False)
        assert r.status_code == 422 and (len(bad) > 12 or "is neither a whole number" in r.text), (bad, r.text[:300])
        for path in (f"/p/boss_fight/builds/{stem}/versions/{bad}.yaml",):
            r = alice.get(path)
            assert r.status_code == 404 and "versions are numbered from 1" in r.text, bad
        r = alice.post(f"/p/boss_fight/builds/{stem}/restore/{bad}", follow_redirects=False)
        assert r.status_code == 404, bad
        r = alice.get("/p/boss_fight/cards", params={"min": bad})
        assert bad == "-1" and r.status_code == 200 or r.status_code == 422 and "is not a usable number" in r.text and "min" in r.text, bad
    # the builder's points box, with or without an account
    for bad in ("²", "٣", "999999999999"):
        r = alice.post("/p/boss_fight/edit/apply", json={"build": preset, "op": {"op": "set_limit", "value": bad}},
                       headers={"x-pnp-fragment": "1"})
        assert r.status_code == 422 and "points limit" in r.text, bad
    assert alice.get(f"/p/boss_fight/builds/{stem}/versions/1.yaml").status_code == 200
    r = alice.post(f"/p/boss_fight/builds/{stem}/publish", data={"points_limit": "100"}, follow_redirects=False)
    assert r.status_code == 303
    app.state.community_store.engine.dispose()


def test_no_number_is_read_with_str_isdigit_alone():
    """`str.isdigit` is true for `²` and `٣`: a number is read by core.limits.whole_number, or
    its check says it wants ASCII (`.isascii()` beside `.isdigit()`). One line that only picks
    a font by a bullet's first character is let through by name."""
    allowed = {("render/rulebook/text.py", "font = BOLD if self.bullet[0].isdigit() else REGULAR")}
    found = digit_checks(REPO / "generator")
    assert {(p, line) for p, line in found} <= allowed, found


def digit_checks(root: Path) -> list[tuple[str, str]]:
    hits = []
    for path in sorted(root.rglob("*.py")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.search(r"\.is(digit|decimal|numeric)\(\)", line) and ".isascii()" not in line:
                hits.append((path.relative_to(root).as_posix(), line.strip()))
    return hits


def test_the_digit_check_finds_a_bare_isdigit(tmp_path):
    shutil.copytree(REPO / "generator" / "core", tmp_path / "core")
    (tmp_path / "core" / "bad.py").write_text("def n(s):\n    return int(s) if s.isdigit() else None\n")
    assert ("core/bad.py", "return int(s) if s.isdigit() else None") in digit_checks(tmp_path)


# ---- the database down, busy, full, gone ---------------------------------------------------------------


def test_postgresql_down_is_a_503_with_retry_after_and_comes_back(site, preset):
    server = Postgres()  # its own: this test stops it
    try:
        app = community_app(site, server.new_database(), accounts=True)
        alice = _signed_in(app)
        assert _save(alice, preset).status_code == 200
        anonymous = _client(app)
        server.halt()
        answers = [alice.get("/p/boss_fight/builds"), _save(alice, preset), anonymous.get("/p/boss_fight/published"),
                   alice.get("/p/boss_fight/builds", headers={"accept": "application/json"})]
        for r in answers:
            assert r.status_code == 503 and r.headers["retry-after"] == "30", (r.status_code, r.text[:300])
        assert _code(answers[1]) == "server.database" and "not answering" in answers[0].text
        server.start()
        assert _save(alice, preset).status_code == 200  # the pool reconnects by itself
        assert anonymous.get("/p/boss_fight/published").status_code == 200
        app.state.community_store.engine.dispose()
    finally:
        server.stop()


def test_sqlite_full_is_a_507_and_nothing_half_saved(site, tmp_path, preset):
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    app = community_app(site, url, accounts=False)
    store = app.state.community_store
    c = _client(app)
    stem = _save(c, preset).json()["stem"]
    pages = store.engine.connect().exec_driver_sql("PRAGMA page_count").scalar()

    @event.listens_for(store.engine, "connect")
    def _small(dbapi, _record):  # SQLite's own "database or disk is full" (SQLITE_FULL) past this size
        dbapi.execute(f"PRAGMA max_page_count = {pages + 2}")
    store.engine.dispose()
    big = dict(preset, notes="x" * 1900)
    answers = [_save(c, dict(big, name=f"Big {i}"), stem) for i in range(40)]
    full = [r for r in answers if r.status_code != 200]
    assert full and all(r.status_code == 507 and _code(r) == "server.disk-full" for r in full)
    kept = [v.n for v in store.versions(0, stem)]
    assert len(kept) == 1 + sum(r.status_code == 200 for r in answers) and kept == sorted(kept, reverse=True)
    event.remove(store.engine, "connect", _small)
    store.engine.dispose()
    assert _save(c, preset, stem).status_code == 200  # space again: saves again
    store.engine.dispose()


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mount") is None, reason="mounting a small tmpfs needs root")
def test_postgresql_full_is_a_507(site, preset, postgres):  # noqa: F811
    """A tablespace on a 1 MB tmpfs holds the builds' versions: PostgreSQL's own disk_full."""
    small = postgres.root / "small"  # inside the server's own folder: its user can reach it
    small.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(small)]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        shutil.chown(small, "postgres", "postgres")
        url = postgres.new_database()
        app = community_app(site, url, accounts=False)
        name = "small_" + url.rsplit("/", 1)[1]
        postgres.sql(url, f"CREATE TABLESPACE {name} LOCATION '{small}'")
        postgres.sql(url, f"ALTER TABLE versions SET TABLESPACE {name}")
        c = _client(app)
        stem = _save(c, preset).json()["stem"]
        big = dict(preset, notes=os.urandom(700).hex()[:1990])  # hex: does not compress to nothing
        answers = []
        while len(answers) < 1500 and sum(r.status_code != 200 for r in answers) < 3:
            answers.append(_save(c, dict(big, name=f"Big {len(answers)}"), stem))
        full = [r for r in answers if r.status_code != 200]
        assert full and all(r.status_code == 507 and _code(r) == "server.disk-full" for r in full), \
            {r.status_code for r in full}
        kept = len(app.state.community_store.versions(0, stem))
        assert kept == 1 + sum(r.status_code == 200 for r in answers)
        app.state.community_store.engine.dispose()
        postgres.sql(url, "ALTER TABLE versions SET TABLESPACE pg_default")
        postgres.sql(url, f"DROP TABLESPACE {name}")
    finally:
        subprocess.run(["umount", "-l", str(small)])


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_no_save_is_answered_into_a_sqlite_file_that_is_gone(site, tmp_path, preset, how):
    path = tmp_path / "site.sqlite3"
    app = community_app(site, f"sqlite:///{path}", accounts=False)
    c = _client(app)
    stem = _save(c, preset).json()["stem"]
    assert _save(c, dict(preset, name="Second"), stem).status_code == 200
    if how == "deleted":
        for p in tmp_path.glob("site.sqlite3*"):
            p.unlink()
    else:
        shutil.copy(path, tmp_path / "copy.sqlite3")
        os.replace(tmp_path / "copy.sqlite3", path)  # a backup put back while the server runs
    answers = [_save(c, dict(preset, name=f"After {i}"), stem) for i in range(3)] + [c.get("/p/boss_fight/builds")]
    for r in answers:
        assert r.status_code == 503 and "deleted or replaced while the server ran" in r.text, (r.status_code,
                                                                                               r.text[:300])
    assert _code(answers[0]) == "server.database-gone"
    app.state.community_store.engine.dispose()
    # restarted, it serves the file now at the path (none: a new one; the replacement: that one)
    again = community_app(site, f"sqlite:///{path}", accounts=False)
    assert _save(_client(again), preset, stem).status_code == 200
    again.state.community_store.engine.dispose()


def test_a_newer_database_stops_pnp_serve_with_one_line(tmp_path, monkeypatch):
    from generator.web import listen
    monkeypatch.setattr(listen, "serve", lambda app, sock, workers=1, **kw: None)
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    store = Store(url)
    store.migrate()
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    for args in (["serve", PACK, "--port", "0", "--db", url, "--builds", str(tmp_path / "b")],
                 ["builds", "export", str(tmp_path / "out"), "--db", url],
                 ["accounts", "list", "--db", url]):
        r = CliRunner().invoke(cli, args)
        assert r.exit_code == 2 and "Traceback" not in r.output, r.output
        first = r.output.splitlines()[0]
        assert "schema revision 0099, newer than this pnp knows (its newest is " + HEAD_REVISION + ")" in first
    assert store.revision() == "0099"  # left as it was
    store.engine.dispose()


def test_each_migration_file_is_named_by_its_revision():
    for path in (REPO / "generator" / "community" / "migrations" / "versions").glob("*.py"):
        assert re.search(rf'^revision = "{path.name.split("_", 1)[0]}"$', path.read_text(), re.M), path.name
