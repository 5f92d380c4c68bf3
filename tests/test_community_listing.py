"""What the published builds' list and a published build's page cost (generator.community),
on SQLite and PostgreSQL: one statement per page however many builds are published, only the
listed columns read, each published text parsed once per worker; and the migration that adds
the list's indexes, up from the previous release with its data kept."""

from __future__ import annotations

import copy
import re
import statistics
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, inspect, text

from community_support import db_url, postgres  # noqa: F401  (fixtures)
from generator.community.app import community_app
from generator.web import memo
from generator.community.publish import publish
from generator.community.store import HEAD_REVISION, Store
from generator.pack.load import load_pack
from generator.web.common import preset_docs
from generator.web.site import Site
from generator.web.state import to_yaml

PACK = "card_data/boss_fight"


@pytest.fixture(scope="module")
def pack():
    return load_pack(Path(PACK))


@pytest.fixture(scope="module")
def texts(pack):
    return [to_yaml(copy.deepcopy(d)) for d, _ in preset_docs(pack).values()]


def test_the_list_reads_one_statement_however_many_builds(tmp_path, db_url, pack, texts):
    app = community_app(Site.load([Path(PACK)], tmp_path / "builds", tmp_path / "cache"), db_url, accounts=False)
    store = app.state.community_store
    c = TestClient(app, base_url="http://localhost")
    card = sorted(pack.cards)[0]
    seen: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda conn, cur, stmt, *rest: seen.append(stmt))
    counts, listed = {}, {}
    for total in (3, 60):
        for i in range(total - len(store.browse("boss_fight", limit=1000))):
            publish(store, pack, texts[i % len(texts)], 0, "player", None)
        for query in ("", f"?card={card}&sort=copied", "?side=boss&max_points=999&character=x",
                      "?q=kw%3Apoison+-type%3Ahero"):
            seen.clear()
            r = c.get(f"/p/boss_fight/published{query}")
            assert r.status_code == 200
            counts[(total, query)] = len(seen)
            columns = [s.split("FROM")[0] for s in seen]
            assert not any("publications.text" in s or "publications.code" in s for s in columns), seen
            listed[(total, query)] = len(re.findall(r'/p/boss_fight/published/[A-Za-z0-9_-]+"><strong>', r.text))
    assert set(counts.values()) == {1}, counts  # one statement, for 3 builds as for 60
    assert listed[(3, "")] == 3 and listed[(60, "")] == 50  # one page of 50
    assert listed[(60, "?side=boss&max_points=999&character=x")] == 0  # no build holds a character "x"
    chosen = c.get(f"/p/boss_fight/published?card={card}").text
    assert re.findall(r'<option value="([^"]+)" ?selected>', chosen) == ["newest"]
    assert f'<input type="hidden" name="card" value="{card}">' in chosen  # kept by the form (the search replaces it)
    store.engine.dispose()


def test_a_published_build_is_parsed_once_per_worker(tmp_path, db_url, pack, texts, monkeypatch):
    from generator.community import routes_published
    app = community_app(Site.load([Path(PACK)], tmp_path / "builds", tmp_path / "cache"), db_url, accounts=False)
    store = app.state.community_store
    public_id = publish(store, pack, texts[0], 0, "player", None)
    parsed = []
    real = routes_published.document_from_yaml
    monkeypatch.setattr(routes_published, "document_from_yaml", lambda *a: parsed.append(a[0]) or real(*a))
    c = TestClient(app, base_url="http://localhost")
    pages = [c.get(f"/p/boss_fight/published/{public_id}") for _ in range(3)]
    assert [p.status_code for p in pages] == [200, 200, 200]
    assert len(parsed) == 1 and pages[0].text == pages[2].text
    name = re.search(r"<h1>([^<]+)</h1>", pages[0].text).group(1)
    assert name and name in texts[0]
    # the cache holds only what never changes: the count of copies is read afresh
    store.copied(public_id)
    assert "copied 1 time" in c.get(f"/p/boss_fight/published/{public_id}").text
    assert c.get("/p/boss_fight/published/nosuchbuild").status_code == 404
    store.engine.dispose()


def _publish_as_before(monkeypatch, store, pack, text_) -> str:
    """Publish as the releases before migrations 0003 and 0004 did: the columns of migration
    0001 only (no generation to raise, no versions, description or likes)."""
    from generator.community.publish import contents
    from generator.share.codes import encode
    from generator.web.state import document_from_yaml, to_build
    build = to_build(document_from_yaml(text_, pack, "x"), pack)
    cards, characters = contents(build)
    public_id = f"old{len(text_)}{abs(hash(text_)) % 10_000}"
    with store.engine.begin() as conn:
        conn.execute(text("INSERT INTO publications (public_id, owner_key, author, pack, name, side, points, "
                          "points_limit, text, code, copies, hidden, featured, created_at) VALUES (:p, 0, 'player', "
                          "'boss_fight', :n, :s, 50, NULL, :t, :c, 0, :f, :f, CURRENT_TIMESTAMP)"),
                     {"p": public_id, "n": build.name, "s": build.side, "t": text_, "c": encode(pack, build).code,
                      "f": False})
        pid = conn.execute(text("SELECT id FROM publications WHERE public_id = :p"), {"p": public_id}).scalar()
        for card, n in cards.items():
            conn.execute(text("INSERT INTO published_cards (publication_id, card, kind, count) VALUES (:i, :c, 'card', :n)"),
                         {"i": pid, "c": card, "n": n})
        for card in characters:
            conn.execute(text("INSERT INTO published_cards (publication_id, card, kind, count) "
                              "VALUES (:i, :c, 'character', 1)"), {"i": pid, "c": card})
    return public_id


def test_the_list_indexes_come_up_from_the_previous_release(db_url, pack, texts, monkeypatch):
    store = Store(db_url)
    store.migrate("0001")  # the schema of two releases ago, with a publication in it
    public_id = _publish_as_before(monkeypatch, store, pack, texts[0])
    store.migrate()
    with store.engine.connect() as conn:
        assert conn.execute(text("select version_num from alembic_version")).scalar() == HEAD_REVISION
    names = {i["name"] for i in inspect(store.engine).get_indexes("publications")}
    assert {"ix_publications_newest", "ix_publications_copied"} <= names and "ix_publications_pack" not in names
    cards = {i["name"] for i in inspect(store.engine).get_indexes("published_cards")}
    assert "ix_published_cards_card_kind" in cards and "ix_published_cards_card" not in cards
    found = store.browse("boss_fight", card=sorted(pack.cards)[0]) + store.browse("boss_fight")
    assert public_id in [row.public_id for row in found]
    assert store.publication(public_id).text == texts[0]
    store.engine.dispose()


def test_the_generation_comes_up_from_the_previous_release(db_url, pack, texts, monkeypatch):
    store = Store(db_url)
    store.migrate("0002")
    public_id = _publish_as_before(monkeypatch, store, pack, texts[0])
    store.migrate()
    assert store.generation() == 0
    assert [row.public_id for row in store.browse("boss_fight")] == [public_id]
    publish(store, pack, texts[1], 0, "player", None)
    store.copied(public_id)
    store.set_flags(public_id, featured=True, hidden=False)
    assert store.generation() == 3  # each change raises it once
    store.engine.dispose()


def test_a_publication_from_before_migration_0004_is_its_own_version_1(db_url, pack, texts, monkeypatch):
    from generator.community.social import versions
    store = Store(db_url)
    store.migrate("0003")
    public_id = _publish_as_before(monkeypatch, store, pack, texts[0])
    store.migrate()
    row = store.publication(public_id)
    assert (row.version, row.likes, row.description, row.source) == (1, 0, "", None)
    assert [(v.n, v.code) for v in versions(store, row.id)] == [(1, row.code)]
    assert store.browse("boss_fight", sort="liked")[0].public_id == public_id
    store.engine.dispose()


def _worker(tmp_path, name, db_url):
    """One worker of a site: an app of its own on the shared database."""
    app = community_app(Site.load([Path(PACK)], tmp_path / "builds", tmp_path / "cache"), db_url, accounts=True)
    return app, TestClient(app, base_url="http://localhost")


def _listed(c) -> list[str]:
    return re.findall(r'/p/boss_fight/published/([A-Za-z0-9_-]+)"><strong>', c.get("/p/boss_fight/published").text)


def test_kept_pages_are_never_older_than_a_change_made_by_another_worker(tmp_path, db_url, pack, texts):
    one, c1 = _worker(tmp_path, "one", db_url)
    two, c2 = _worker(tmp_path, "two", db_url)
    store = two.state.community_store
    first = publish(store, pack, texts[0], 0, "player", None)
    assert _listed(c1) == [first]
    opened = c1.get(f"/p/boss_fight/published/{first}").text
    assert "copied 0 times" in opened and "Copy into my builds" not in opened  # nobody is signed in
    assert c1.get(f"/p/boss_fight/published/{first}").text == opened  # kept: drawn once
    assert len(one.state.community_pages) == 2

    second = publish(store, pack, texts[1], 0, "player", None)  # another worker publishes
    assert _listed(c1) == [second, first]
    store.copied(first)  # a copy: the count on both pages
    assert "copied 1 time" in c1.get(f"/p/boss_fight/published/{first}").text
    assert "copied 1 time" in c1.get("/p/boss_fight/published?sort=copied").text
    assert " · featured" not in c1.get("/p/boss_fight/published").text
    store.set_flags(first, featured=True, hidden=False)  # featured: first in the list
    assert _listed(c1) == [first, second] and " · featured" in c1.get("/p/boss_fight/published").text
    store.set_flags(first, featured=False, hidden=True)  # hidden: gone for everyone but the designer
    assert _listed(c1) == [second]
    assert c1.get(f"/p/boss_fight/published/{first}").status_code == 404
    assert c1.get(f"/p/boss_fight/published/{first}").status_code == 404  # a refusal is not kept either
    store.set_flags(first, featured=False, hidden=False)
    assert c1.get(f"/p/boss_fight/published/{first}").status_code == 200
    for app in (one, two):
        app.state.community_store.engine.dispose()


def test_a_worker_keeps_the_pages_of_the_500_builds_the_bench_opens_in_both_languages(tmp_path, pack, texts):
    """bench/community_load.py opens 500 published builds at random (the presets, each many
    times): their pages must all fit in what a worker keeps, or they push each other out and a
    quarter of the requests draw their page again (5 ms of CPU each against 0.2 for a kept one;
    2.5-4x fewer requests a second when a published build's page grew from 2 kB to 32 kB and
    the budget stayed the editor's 8 MB). Counted in bytes of the pages, English and German."""
    app, c = _worker(tmp_path, "one", f"sqlite:///{tmp_path / 'site.sqlite3'}")
    store = app.state.community_store
    ids = [publish(store, pack, t, 0, f"player{i}", None) for i, t in enumerate(texts)]
    german = TestClient(app, base_url="http://localhost")  # (?lang= is kept in a cookie)
    sizes = [len(client.get(f"/p/boss_fight/published/{i}{lang}").content)
             for i in ids for client, lang in ((c, ""), (german, "?lang=de"))]
    kept = app.state.community_pages
    assert len(kept) == len(sizes)  # each page kept once drawn
    listed = sum(len(client.get(f"/p/boss_fight/published{lang}").content)
                 for client, lang in ((c, ""), (german, "?lang=de")))
    need = 500 * statistics.mean(sizes) * 2 + 20 * listed  # and a list per card filtered by (the bench's 20)
    assert need <= kept.max_bytes, (need, kept.max_bytes)
    assert need > memo.MAX_BYTES  # the guard bites: the budget the pages had before did not hold them
    store.engine.dispose()


def _account(app, name) -> TestClient:
    c = TestClient(app, base_url="http://localhost")
    token = re.search(r'name="csrf-token" content="([^"]+)"', c.get("/account/signin").text).group(1)
    r = c.post("/account/signup", data={"name": name, "password": "correct horse battery", "csrf_token": token},
               follow_redirects=False)
    assert r.status_code == 303
    return c


def test_a_page_kept_for_the_designer_is_not_shown_to_a_player(tmp_path, db_url, pack, texts):
    app, anonymous = _worker(tmp_path, "one", db_url)
    designer, player = _account(app, "designer"), _account(app, "player")
    store = app.state.community_store
    store.set_role("designer", "designer")  # named by the operator (pnp accounts role)
    shown, hidden = (publish(store, pack, t, 0, "player", None) for t in texts[:2])
    store.set_flags(hidden, featured=False, hidden=True)
    page = designer.get(f"/p/boss_fight/published/{hidden}")
    assert page.status_code == 200 and "hidden (abuse)" in page.text
    assert sorted(_listed(designer)) == sorted([shown, hidden]) and "Card statistics" in designer.get(
        "/p/boss_fight/published").text
    # the same generation, the same worker: the designer's pages are kept apart from the others'
    for c in (player, anonymous):
        assert c.get(f"/p/boss_fight/published/{hidden}").status_code == 404
        assert _listed(c) == [shown] and "Card statistics" not in c.get("/p/boss_fight/published").text
    mine = player.get(f"/p/boss_fight/published/{shown}").text
    theirs = anonymous.get(f"/p/boss_fight/published/{shown}").text
    assert "Copy into my builds" in mine and "Copy into my builds" not in theirs and "hidden (abuse)" not in mine
    # each page carries its own asker's CSRF token and account links, never a kept one's
    assert ">player<" in mine.replace(" (designer)", "") and ">designer<" not in mine
    token = lambda text_: re.search(r'name="csrf-token" content="([^"]+)"', text_).group(1)  # noqa: E731
    assert token(mine) != token(designer.get(f"/p/boss_fight/published/{shown}").text)
    store.engine.dispose()


def _first(routers, path: str, method: str):
    from starlette.routing import Match
    scope = {"type": "http", "path": path, "method": method, "root_path": ""}
    return next(((i, r.path) for i, router in enumerate(routers) for r in router.routes
                 if r.matches(scope)[0] == Match.FULL), None)


def test_the_published_pages_are_found_early_and_answer_only_their_own_paths(tmp_path):
    """The community's routes come right after the API (found sooner), and every path any
    route answers is answered by the same route as with them last."""
    import sys
    from generator.community import routes_accounts, routes_published
    from generator.web import routes_api, routes_builds, routes_cards, routes_maps, routes_pages, routes_print, \
        routes_rules
    app = community_app(Site.load([Path(PACK)], tmp_path / "builds", tmp_path / "cache"),
                        f"sqlite:///{tmp_path / 'site.sqlite3'}", accounts=False)
    known = [m.router for m in (routes_api, routes_builds, routes_pages, routes_cards, routes_print, routes_maps,
                                routes_rules, routes_published, routes_accounts)]
    order = []
    for route in app.router.routes:  # an included router (FastAPI 0.16x) or its routes copied in
        inner = getattr(route, "original_router", None) or getattr(
            sys.modules.get(getattr(getattr(route, "endpoint", None), "__module__", ""), None), "router", None)
        if any(inner is k for k in known) and not any(inner is o for o in order):
            order.append(inner)
    community = [routes_published.router, routes_accounts.router]
    assert order[:3] == [routes_api.router, *community] and len(order) == len(known)
    last = [r for r in order if not any(r is c for c in community)] + community
    checked = 0
    for router in order:
        for route in router.routes:
            sample = re.sub(r"\{[^}]+\}", "abc", route.path)
            for path in (sample, sample + ".yaml", sample.replace("abc", "abc.yaml")):
                for method in route.methods:
                    found, before = _first(order, path, method), _first(last, path, method)
                    assert (found and order[found[0]], found and found[1]) == (before and last[before[0]],
                                                                               before and before[1]), (method, path)
                    checked += 1
    assert checked > 100
    app.state.community_store.engine.dispose()


def test_the_list_template_unpacks_the_listed_columns_in_their_order():
    from generator.community.store import LISTED
    template = (Path("generator/community/templates") / "community_published.html").read_text()
    unpacked = re.search(r"\{% for ([\w, ]+) in found %\}", template).group(1)
    assert [n.strip() for n in unpacked.split(",")] == [c.key for c in LISTED]


def test_the_generation_is_read_again_after_its_connection_drops(postgres):  # noqa: F811
    """On PostgreSQL the generation has a connection of its own per worker (never pinged):
    when the server ends it (a restart, an idle timeout), the next page still gets the number."""
    store = Store(postgres.new_database())
    store.migrate()
    assert store.generation() == 0
    probe = store.probe.raw_connection()
    try:
        cur = probe.cursor()
        cur.execute("SELECT pg_backend_pid()")
        pid = cur.fetchone()[0]
    finally:
        probe.close()
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar() is True
    assert store.generation() == 0
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE generations SET n = n + 1"))
    assert store.generation() == 1
    store.probe.dispose()
    store.engine.dispose()
