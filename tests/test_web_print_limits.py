"""Bounded work per print request (generator/web/routes_print.py, generator/web/jobs.py): a
build that would print more than kit.MAX_PRINT_CARDS cards is refused before anything is
drawn, with the limit and the count; a client has one PDF in the making at a time (429
for a second one, in any worker: the claim is a file lock); a worker makes one at a time,
the others waiting without holding a thread. A client's second request is refused before
its build is even read, so asking again and again costs next to nothing."""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import json
import os

import pytest

pytest.importorskip("fastapi")

from generator.core.errors import InputError  # noqa: E402
from generator.kit import MAX_PRINT_CARDS, build_card_count, build_faces  # noqa: E402
from generator.web.jobs import Jobs  # noqa: E402
from generator.web.state import to_build  # noqa: E402
from web_support import make_client  # noqa: E402

JSON = {"accept": "application/json"}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    client, site = make_client(tmp_path_factory.mktemp("builds"), tmp_path_factory.mktemp("cache"))
    return client, site


def party(site, copies: int, heroes: int = 5) -> dict:
    """A boss_fight hero party of `heroes` heroes, every deck card at `copies` copies."""
    from generator.web.common import preset_docs
    docs = preset_docs(site.packs["boss_fight"])
    base = json.loads(json.dumps(docs["party-long-night"][0]))
    chars = (base["characters"] * 2)[:heroes]
    for char in chars:
        char["deck"] = {card: copies for card in char["deck"]}
    base["characters"] = json.loads(json.dumps(chars))
    return base


def count(site, doc) -> int:
    return build_card_count(to_build(doc, site.packs["boss_fight"]))


def test_the_count_is_what_build_faces_prints(env):
    from generator.render.cards.faces import CardShared
    pack = env[1].packs["boss_fight"]
    shared = CardShared(pack)
    for copies in (1, 3):
        build = to_build(party(env[1], copies), pack)
        assert build_card_count(build) == len(build_faces(pack, build, shared))


@pytest.mark.parametrize("part", ["roster", "cards", "pieces"])
def test_a_print_of_too_many_cards_is_refused_with_the_limit_and_the_count(env, part):
    client, site = env
    doc = party(site, 999)  # the issue's build: five heroes, every card 999 times
    n = count(site, doc)
    assert n > 50_000
    r = client.post(f"/p/boss_fight/print/{part}.pdf", data={"build": json.dumps(doc)}, headers=JSON)
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["schema"].startswith("pnp.validation/")
    problem = body["errors"][0]
    assert problem["code"] == "print.size"
    assert f"{n:,} cards" in problem["message"] and f"{MAX_PRINT_CARDS:,}" in problem["message"]
    assert problem["expected"] == f"at most {MAX_PRINT_CARDS} cards"
    page = client.post(f"/p/boss_fight/print/{part}.pdf", data={"build": json.dumps(doc)})  # the browser's form
    assert page.status_code == 422 and f"{n:,} cards" in page.text and "%PDF" not in page.text


def test_a_print_at_the_limit_is_made_and_one_over_is_refused(env):
    client, site = env
    doc = party(site, 1, heroes=1)
    base = count(site, doc)
    deck = doc["characters"][0]["deck"]
    first = next(iter(deck))
    deck[first] += MAX_PRINT_CARDS - base  # exactly at the limit (the rules may object; printing does not)
    assert count(site, doc) == MAX_PRINT_CARDS
    r = client.post("/p/boss_fight/print/roster.pdf", data={"build": json.dumps(doc)})
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    deck[first] += 1
    r = client.post("/p/boss_fight/print/roster.pdf", data={"build": json.dumps(doc)}, headers=JSON)
    assert r.status_code == 422 and f"{MAX_PRINT_CARDS + 1:,} cards" in r.json()["errors"][0]["message"]


def test_a_second_pdf_while_the_first_is_made_is_429(env):
    client, site = env
    jobs = client.app.state.jobs
    doc = json.dumps(party(site, 1, heroes=1))
    claim = jobs._claim("testclient")  # the TestClient's address: its first PDF is being made
    try:
        for part in ("roster", "cards"):
            r = client.post(f"/p/boss_fight/print/{part}.pdf", data={"build": doc}, headers=JSON)
            assert r.status_code == 429
            assert r.json()["errors"][0]["code"] == "request.busy"
            assert "already making a PDF" in r.json()["errors"][0]["message"]
        r = client.post("/p/boss_fight/print/decklist.txt", data={"build": doc})  # not heavy: served
        assert r.status_code == 200
    finally:
        jobs._release(claim)
    r = client.post("/p/boss_fight/print/roster.pdf", data={"build": doc})
    assert r.status_code == 200 and r.content.startswith(b"%PDF")


def test_a_claim_held_by_another_process_counts(tmp_path):
    """The claim is a lock on a file per client: another process (here: another open file,
    which flock treats the same) holding it makes this one refuse."""
    jobs = Jobs(tmp_path)
    key = hashlib.sha256(b"10.0.0.7").hexdigest()[:32]
    fd = os.open(tmp_path / key, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with pytest.raises(InputError) as caught:
            jobs._claim("10.0.0.7")
        assert caught.value.status == 429
        jobs._release(jobs._claim("10.0.0.8"))  # another client is free
    finally:
        os.close(fd)
    jobs._release(jobs._claim("10.0.0.7"))  # and this one once the other let go


def test_a_worker_makes_one_pdf_at_a_time_others_wait_their_turn(tmp_path):
    jobs = Jobs(tmp_path)
    entered: list[str] = []

    async def scenario():
        release = asyncio.Event()

        async def job(client):
            async with jobs.client(client):
                async with jobs.turn():
                    entered.append(client)
                    await release.wait()

        first = asyncio.create_task(job("a"))
        while not entered:
            await asyncio.sleep(0)
        second = asyncio.create_task(job("b"))
        for _ in range(50):  # b keeps waiting while a holds the turn
            await asyncio.sleep(0)
        assert entered == ["a"]
        with pytest.raises(InputError):  # a again while its job runs: refused at once
            async with jobs.client("a"):
                pass
        release.set()
        await asyncio.wait_for(asyncio.gather(first, second), timeout=30)

    asyncio.run(scenario())
    assert entered == ["a", "b"]
