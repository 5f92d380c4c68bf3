"""What the published builds' list and a published build's page cost (generator.community),
on SQLite and PostgreSQL: one statement per page however many builds are published, only the
listed columns read, each published text parsed once per worker; and the migration that adds
the list's indexes, up from the previous release with its data kept."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, inspect, text

from community_support import db_url, postgres  # noqa: F401  (fixtures)
from generator.community.app import community_app
from generator.community.publish import publish
from generator.community.store import Store
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
        for query in ("", f"?card={card}&sort=copied", "?side=boss&max_points=999&character=x"):
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
    assert re.findall(r'<option value="([^"]+)" ?selected>', chosen) == [card, "newest"]
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
    assert "copied 1×" in c.get(f"/p/boss_fight/published/{public_id}").text
    assert c.get("/p/boss_fight/published/nosuchbuild").status_code == 404
    store.engine.dispose()


def test_the_list_indexes_come_up_from_the_previous_release(db_url, pack, texts):
    store = Store(db_url)
    store.migrate("0001")  # the previous release's schema, with a publication in it
    public_id = publish(store, pack, texts[0], 0, "player", None)
    store.migrate()
    with store.engine.connect() as conn:
        assert conn.execute(text("select version_num from alembic_version")).scalar() == "0002"
    names = {i["name"] for i in inspect(store.engine).get_indexes("publications")}
    assert {"ix_publications_newest", "ix_publications_copied"} <= names and "ix_publications_pack" not in names
    cards = {i["name"] for i in inspect(store.engine).get_indexes("published_cards")}
    assert "ix_published_cards_card_kind" in cards and "ix_published_cards_card" not in cards
    found = store.browse("boss_fight", card=sorted(pack.cards)[0]) + store.browse("boss_fight")
    assert public_id in [row.public_id for row in found]
    assert store.publication(public_id).text == texts[0]
    store.engine.dispose()
