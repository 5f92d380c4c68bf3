"""Load test of `pnp serve` on loopback (run by `make bench`, never by the tests).

`pnp serve --workers 2` serves the flagship pack; 50 concurrent clients post the pack's presets
to /api/<pack>/validate for 20 s, each opening a new connection every 10 requests. Reported:
requests, errors, requests per second, the median, 95th and 99th percentile latency of a
validate request, the 95th percentile of a connection's first request, and the clients' own
CPU share. Then 10 s of the same clients posting to the editor's change endpoint (what a
click in the builder costs: validation plus the editor's HTML; the presets come back, so the
workers answer most from their recent answers, generator.web.memo), 10 s more with every
build a new one (each click validated and rendered), 10 s more of a player's clicks building
each side from nothing, every build new (answers with fix buttons, each fix tried on a copy
before it is offered: player_clicks; one player's clicks, sent by all fifty), 10 s more of
fifty players each building their own builds from nothing (`Player`: random cards of their
own, a fix button pressed now and then), and the card browser's first
page: its HTML plus every card image on it, fetched six at a time as a browser does, once the
images are in the cache; and the editor with its card picker's thumbnails: first drawn, then
loaded again and again by PICKER_PLAYERS players during the clicks (their p95 beside the
clicks' p95). Results go to bench/web_results.json.

`--print-flood` (not run by `make bench`): 50 players clicking in the editor at a player's
pace (a click every CLICK_PAUSE seconds each, so the editor is not itself saturated), for
FLOOD_SECONDS without and then with a flood of PDF requests: FLOOD_CLIENTS clients at
distinct addresses (as a proxy on this computer passes them on in X-Forwarded-For) and
FLOOD_CLIENTS more all at one address, each asking for the cards PDF of a build at the print
limit (kit.MAX_PRINT_CARDS cards) again as soon as it has an answer, plus one asking for
the issue's 5 x 22 x 999 build. Reported: the editor's latencies both ways, and the
flood's answers by status. Results go to bench/web_results.json under "print_flood".

Note: the clients run on the same machine as the server, so on a small machine they take
CPU from it; the numbers are an upper bound on what a separate client would see.
"""

from __future__ import annotations

import asyncio
import html as htmllib
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import uvloop

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from web_support import editor_state  # noqa: E402  (the tests' reading of an editor answer)

PACK = os.environ.get("PNP_BENCH_PACK", "card_data/boss_fight")
CLIENTS = 50
SECONDS = 20.0
WORKERS = 2
REQUESTS_PER_CONNECTION = 10
CLICK_PAUSE = 1.0  # --print-flood: seconds between one player's clicks
FLOOD_CLIENTS = 10
FLOOD_SECONDS = 15.0
CLICKS_PER_BUILD = 60  # a Player's clicks on one build before starting the next
PICKER_PLAYERS = 2  # players opening the editor's picker (HTML + thumbnails) during the clicks


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def presets() -> tuple[str, list[dict]]:
    sys.path.insert(0, str(REPO))
    from generator.pack.load import load_pack
    from generator.web.common import preset_docs
    pack = load_pack(REPO / PACK)
    return pack.spec.id, [doc for doc, _ in preset_docs(pack).values()]


def side_cards() -> dict[str, list[str]]:
    """Each side's cards, as the editor's picker lists them."""
    from generator.pack.load import load_pack
    from generator.web.state import side_cards as cards_of
    pack = load_pack(REPO / PACK)
    return {side: [c.id for c in cards_of(pack, side)] for side in pack.spec.sides}


def posting(host: str, port: int, path: str, bodies, latencies: list[float]):
    """Requests for `_client`: each of `bodies` in turn POSTed to `path` as JSON, every
    latency into `latencies`."""
    def request(n: int) -> tuple[bytes, list[float]]:
        body = bodies[n % len(bodies)]
        return (f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n".encode() + body, latencies)
    return request


async def _client(host: str, port: int, request, stop: float, i: int, errors: list[str], first: list[float],
                  expect: bytes, per_connection: int = REQUESTS_PER_CONNECTION, pause: float = 0.0,
                  answered=None) -> None:
    """One client: send `request(n)` (the request's bytes, and the list its latency goes
    into; n counts up from i), read the whole answer, again, on a keep-alive connection that
    it replaces every `per_connection` requests, as browsers and proxies do. (On one
    connection forever, the kernel's first hand-out of connections to the two workers would
    decide the test: whichever worker accepted more connections would serve them all to the
    end.) Plain asyncio streams rather than an HTTP library, so the load generator, which
    shares the machine with the server, spends as little CPU as it can (bench/community_load.py
    uses it too). `answered(status, answer)`, when given, is told each answer (a `Player`
    reads its next click from it)."""
    n = i
    if pause:  # players do not all click at the same moment
        await asyncio.sleep(pause * i / CLIENTS)
    while time.perf_counter() < stop:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError as exc:
            errors.append(type(exc).__name__)
            continue
        try:
            for k in range(per_connection):
                if time.perf_counter() >= stop:
                    break
                data, latencies = request(n)
                n += 1
                t = time.perf_counter()
                writer.write(data)
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1])
                length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))
                answer = await reader.readexactly(length)
                latencies.append(time.perf_counter() - t)
                if k == 0:  # the first answer on a new connection also waits for the server to accept it
                    first.append(latencies[-1])
                if status != 200 or expect not in answer.replace(b" ", b""):
                    errors.append(str(status))
                if answered is not None:
                    answered(status, answer)
                if pause:  # a player reading the answer before the next click
                    await asyncio.sleep(pause)
        except (OSError, asyncio.IncompleteReadError, ValueError, AttributeError) as exc:
            errors.append(type(exc).__name__)
        finally:
            writer.close()


class NewBuilds:
    """Change bodies of builds the server has not seen: the presets (or a player's recorded
    clicks, `changes`: the change and target sent with each document), each time with a new
    number in the name, so no worker has the answer kept (generator.web.memo) and every click
    is validated and rendered: what a click that makes a new build costs."""

    MARK = "\x00name\x00"  # stands for the name in each body's JSON, made once

    def __init__(self, docs: list[dict], changes: list[tuple[dict, dict]] | None = None):
        self.docs, self.sent = docs, 0
        self.changes = changes or [({"op": "view"}, {})] * len(docs)
        # the bodies as JSON with the name left open, so a send only writes its name in: the client
        # shares the cores with the server, and a build of 36 pieces is a lot to encode each time
        self.bodies = [json.dumps({"build": dict(doc, name=self.MARK), "op": op, "target": target}).split(
            json.dumps(self.MARK)) for doc, (op, target) in zip(docs, self.changes)]

    def __len__(self) -> int:
        return len(self.docs)

    def __getitem__(self, i: int) -> bytes:
        self.sent += 1
        doc = self.docs[i % len(self.docs)]
        return json.dumps(f"{doc['name']} {self.sent}").join(self.bodies[i % len(self.docs)]).encode()


def player_clicks(base: str, pack_id: str, side_cards: dict[str, list[str]], clicks: int = 60):
    """A player building each side's build from nothing, one card added per click (every 7th
    card of the side, so characters, decks and too many copies come and go), each click sent
    with the build and the target the previous answer held, as the page sends them. Recorded
    once on the running server: (documents, (change, target) per document, how many answers
    showed a fix button). Sent again renamed (NewBuilds), these are clicks whose answers carry
    fix buttons, each fix tried on a copy before it is offered: the editor's costliest click."""
    docs, changes, with_fixes = [], [], 0
    with httpx.Client(base_url=base, timeout=30) as http:
        for side, cards in side_cards.items():
            doc, target = {"side": side, "name": "From nothing", "characters": []}, {}
            for k in range(clicks):
                op = {"op": "add", "card": cards[(k * 7) % len(cards)]}
                r = http.post(f"/p/{pack_id}/edit/apply", json={"build": doc, "op": op, "target": target})
                if r.status_code != 200:
                    continue  # a change the page would not offer (its button disabled)
                docs.append(doc)
                changes.append((op, target))
                with_fixes += 'class="fixbtn"' in r.text
                doc, target = editor_state(r.text)
    return docs, changes, with_fixes


class Player:
    """One player building from nothing their own way, as `_client`'s `request` and
    `answered`: each click sends the build and target the last answer held (as the page does)
    with a change of this player's own random choice (seeded by `seed`): one time in five the
    first fix button the answer showed, else a card of the side picked among those whose
    place the answer leaves open (the page disables the others). After CLICKS_PER_BUILD
    clicks the player starts a new build of the next side. Fifty players make fifty different
    builds, so no worker has seen a build, a character or a chart before unless players
    really made the same one."""

    def __init__(self, host: str, port: int, pack_id: str, cards: dict[str, list[tuple[str, str]]], seed: int,
                 latencies: list[float]):
        self.head = f"POST /p/{pack_id}/edit/apply HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        self.cards, self.sides, self.latencies = cards, sorted(cards), latencies
        self.rng, self.seed, self.builds, self.with_fixes, self.answers = random.Random(seed), seed, 0, 0, 0
        self.start()

    def start(self) -> None:
        side = self.sides[(self.seed + self.builds) % len(self.sides)]
        self.builds += 1
        self.doc = {"side": side, "name": f"Player {self.seed} build {self.builds}", "characters": []}
        self.target, self.open, self.fix, self.clicks = {}, None, None, 0

    def __call__(self, n: int) -> tuple[bytes, list[float]]:
        if self.open is None:  # the page as first opened
            op = {"op": "view"}
        elif self.fix is not None and self.rng.random() < 0.2:
            op = self.fix
        else:
            op = {"op": "add", "card": self.rng.choice([c for c, place in self.cards[self.doc["side"]]
                                                         if not self.open.get(place)])}
        body = json.dumps({"build": self.doc, "op": op, "target": self.target}).encode()
        return self.head.encode() + f"Content-Length: {len(body)}\r\n\r\n".encode() + body, self.latencies

    def answered(self, status: int, answer: bytes) -> None:
        self.clicks += 1
        if status == 200:
            page = answer.decode()
            self.doc, self.target = editor_state(page)
            self.open = json.loads(htmllib.unescape(re.search(r"data-blocked='([^']*)'", page).group(1)))
            fix = re.search(r'class="fixbtn" data-op=\'([^\']*)\'', page)
            self.fix = json.loads(htmllib.unescape(fix.group(1))) if fix else None
            self.answers += 1
            self.with_fixes += fix is not None
        if self.clicks >= CLICKS_PER_BUILD:
            self.start()


def players_cards() -> dict[str, list[tuple[str, str]]]:
    """Each side's cards with the place each goes to, as the editor's picker lists them."""
    from generator.pack.load import load_pack
    from generator.web.state import place_of, side_cards as cards_of
    pack = load_pack(REPO / PACK)
    return {side: [(c.id, place_of(pack, side, c.type)) for c in cards_of(pack, side)] for side in pack.spec.sides}


async def players_load(base: str, pack_id: str, seconds: float = 10.0) -> dict:
    """CLIENTS players (`Player`), each building its own builds from nothing, for `seconds`."""
    latencies: list[float] = []
    errors: list[str] = []
    first: list[float] = []
    host, port = base.split("//")[1].split(":")
    cards = players_cards()
    players = [Player(host, int(port), pack_id, cards, i, latencies) for i in range(CLIENTS)]
    start, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(_client(host, int(port), p, start + seconds, i, errors, first, b'id="build-doc"',
                                   answered=p.answered) for i, p in enumerate(players)))
    out = _summary(latencies, errors, first, time.perf_counter() - start, time.process_time() - cpu)
    answers = sum(p.answers for p in players)
    out.update(builds=sum(p.builds for p in players), answers_with_fix_buttons=sum(p.with_fixes for p in players),
               answers=answers)
    return out


async def validate_load(base: str, pack_id: str, docs: list[dict], editor: bool = False,
                        seconds: float = SECONDS, pause: float = 0.0, new: bool = False,
                        changes: list[tuple[dict, dict]] | None = None) -> dict:
    """CLIENTS clients for `seconds`: each posts presets to the JSON API's validate (the issue's
    goal), or with `editor`, to the editor's change endpoint as the page does at every click
    (validation plus the editor's HTML); with `new`, every build sent is one not seen before."""
    latencies: list[float] = []
    errors: list[str] = []
    first: list[float] = []
    host, port = base.split("//")[1].split(":")
    if editor:
        path, expect = f"/p/{pack_id}/edit/apply", b'id="build-doc"'
        bodies = NewBuilds(docs, changes) if new else [json.dumps({"build": d, "op": {"op": "view"}, "target": {}}).encode()
                                              for d in docs]
    else:
        path, expect = f"/api/{pack_id}/validate", b'"schema":"pnp.validation/'
        bodies = [json.dumps(d).encode() for d in docs]
    start = time.perf_counter()
    cpu = time.process_time()
    stop = start + seconds
    await asyncio.gather(*(_client(host, int(port), posting(host, int(port), path, bodies, latencies), stop, i,
                                   errors, first, expect, pause=pause) for i in range(CLIENTS)))
    return _summary(latencies, errors, first, time.perf_counter() - start, time.process_time() - cpu)


def _summary(latencies: list[float], errors: list[str], first: list[float], elapsed: float,
             client_cpu: float) -> dict:
    """A load's figures; `client_cpu`: what the load generator took from the server's cores."""

    def ms(values: list[float], q: float) -> float | None:
        values = sorted(values)
        return round(1000 * values[int(q * (len(values) - 1))], 1) if values else None

    return {"clients": CLIENTS, "seconds": round(elapsed, 1), "requests": len(latencies), "errors": len(errors),
            "error_kinds": sorted(set(errors))[:5], "per_second": round(len(latencies) / elapsed, 1),
            "client_cpu_share": round(client_cpu / elapsed, 2),
            "median_ms": ms(latencies, 0.5), "p95_ms": ms(latencies, 0.95), "p99_ms": ms(latencies, 0.99),
            "new_connection_p95_ms": ms(first, 0.95)}


async def first_page(base: str, pack_id: str, url: str | None = None) -> dict:
    """A page and every image on it, as a browser with 6 connections loads them: the first time
    (images drawn and cached), then 5 times cached. `url`: the card browser's first page, or
    another (the editor with its card picker's thumbnails)."""
    limits = httpx.Limits(max_connections=6)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as client:
        async def load():
            t = time.perf_counter()
            r = await client.get(url or f"/p/{pack_id}/cards")
            images = re.findall(r'<img src="([^"]+)"', r.text)
            answers = await asyncio.gather(*(client.get(src) for src in images))
            assert all(a.status_code == 200 for a in answers)
            return time.perf_counter() - t, len(images)

        cold, count = await load()  # draws and caches any image not cached yet
        warm = sorted([(await load())[0] for _ in range(5)])
    return {"images": count, "first_load_s": round(cold, 2), "cached_median_s": round(statistics.median(warm), 3),
            "cached_worst_s": round(warm[-1], 3)}


async def page_loads(base: str, url: str, stop: float) -> dict:
    """One player loading `url` with every image on it (6 connections, as a browser), again
    and again until `stop`: the whole load's latencies (the page and its last image)."""
    times: list[float] = []
    errors = 0
    limits = httpx.Limits(max_connections=6)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as client:
        while time.perf_counter() < stop:
            t = time.perf_counter()
            r = await client.get(url)
            images = re.findall(r'<img src="([^"]+)"', r.text)
            answers = await asyncio.gather(*(client.get(src) for src in images))
            errors += sum(a.status_code != 200 for a in answers) + (r.status_code != 200)
            times.append(time.perf_counter() - t)
    times.sort()
    pick = (lambda q: round(1000 * times[int(q * (len(times) - 1))], 1)) if times else (lambda q: None)
    return {"url": url, "images": len(images) if times else 0, "loads": len(times), "errors": errors,
            "median_ms": pick(0.5), "p95_ms": pick(0.95), "times": times}


async def clicks_with_picker(base: str, pack_id: str, docs: list[dict], url: str, seconds: float = 10.0):
    """The editor's change endpoint under CLIENTS clients and, at the same time, PICKER_PLAYERS
    players opening the editor with its picker's thumbnails (cached): both p95s under one load."""
    stop = time.perf_counter() + seconds
    clicks, *pickers = await asyncio.gather(validate_load(base, pack_id, docs, editor=True, seconds=seconds),
                                            *(page_loads(base, url, stop) for _ in range(PICKER_PLAYERS)))
    times = sorted(t for p in pickers for t in p["times"])
    pick = (lambda q: round(1000 * times[int(q * (len(times) - 1))], 1)) if times else (lambda q: None)
    picker = {"players": PICKER_PLAYERS, "url": url, "images": pickers[0]["images"], "loads": len(times),
              "errors": sum(p["errors"] for p in pickers), "median_ms": pick(0.5), "p95_ms": pick(0.95)}
    return clicks, picker


def print_bodies() -> tuple[bytes, bytes, int, int]:
    """Form bodies for the cards PDF: a build at the print limit, and the issue's build of five
    characters with every deck card 999 times; and their card counts."""
    from urllib.parse import urlencode

    from generator.kit import MAX_PRINT_CARDS, build_card_count
    from generator.pack.load import load_pack
    from generator.web.common import preset_docs
    from generator.web.state import to_build
    pack = load_pack(REPO / PACK)
    doc = next(json.loads(json.dumps(d)) for d, _ in preset_docs(pack).values()
               if d["characters"] and d["characters"][0].get("deck"))
    big = json.loads(json.dumps(doc))
    deck = doc["characters"][0]["deck"]
    first = next(iter(deck))
    deck[first] += MAX_PRINT_CARDS - build_card_count(to_build(doc, pack))
    big["characters"] = (big["characters"] * 5)[:5]
    for char in big["characters"]:
        char["deck"] = {card: 999 for card in char["deck"]}
    return (urlencode({"build": json.dumps(doc)}).encode(), urlencode({"build": json.dumps(big)}).encode(),
            build_card_count(to_build(doc, pack)), build_card_count(to_build(big, pack)))


async def _flood(host: str, port: int, path: str, body: bytes, stop: float, address: str,
                 statuses: list[str]) -> None:
    """One client asking for a PDF again as soon as it has the last answer."""
    while time.perf_counter() < stop:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError as exc:
            statuses.append(type(exc).__name__)
            continue
        try:
            while time.perf_counter() < stop:
                writer.write(f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nX-Forwarded-For: {address}\r\n"
                             f"Content-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\n"
                             f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                status = head.split(b" ", 2)[1].decode()
                length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))
                await reader.readexactly(length)
                statuses.append(status)
        except (OSError, asyncio.IncompleteReadError, ValueError, AttributeError) as exc:
            statuses.append(type(exc).__name__)
        finally:
            writer.close()


async def print_flood(base: str, pack_id: str, docs: list[dict]) -> dict:
    host, port = base.split("//")[1].split(":")
    at_limit, too_big, at_count, big_count = print_bodies()
    path = f"/p/{pack_id}/print/cards.pdf"
    load_before = os.getloadavg()[0]  # the machine is shared: what else ran is part of the numbers
    quiet = await validate_load(base, pack_id, docs, editor=True, seconds=FLOOD_SECONDS, pause=CLICK_PAUSE)
    statuses: list[str] = []
    stop = time.perf_counter() + FLOOD_SECONDS + 2
    flood = [_flood(host, int(port), path, at_limit, stop, f"10.0.0.{i + 1}", statuses) for i in range(FLOOD_CLIENTS)]
    flood += [_flood(host, int(port), path, at_limit, stop, "10.0.1.1", statuses) for _ in range(FLOOD_CLIENTS)]
    flood.append(_flood(host, int(port), path, too_big, stop, "10.0.2.1", statuses))
    clicks = validate_load(base, pack_id, docs, editor=True, seconds=FLOOD_SECONDS, pause=CLICK_PAUSE)
    flooded, *_ = await asyncio.gather(clicks, *flood)
    counts: dict[str, int] = {}
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
    return {"click_pause_s": CLICK_PAUSE, "flood_clients": 2 * FLOOD_CLIENTS + 1, "pdf_cards": at_count,
            "too_big_cards": big_count, "editor_quiet": quiet, "editor_flooded": flooded,
            "flood_answers": dict(sorted(counts.items())),
            "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)]}


def start_server(tmp: str, port: int) -> subprocess.Popen:
    # started as a group would host it: `pnp serve --workers 2` (generator/web/listen.py)
    server = subprocess.Popen([sys.executable, "-m", "generator", "serve", PACK, "--port", str(port),
                               "--workers", str(WORKERS), "--builds", str(Path(tmp) / "builds"),
                               "--cache", str(REPO / "output" / ".web-cache")], cwd=REPO,
                              stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            httpx.get(base + "/api/packs", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    time.sleep(1.0)  # let both workers finish loading the pack
    return server


def main_flood() -> None:
    pack_id, docs = presets()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="pnp-web-bench-") as tmp:
        server = start_server(tmp, port)
        try:
            flood = uvloop.run(print_flood(f"http://127.0.0.1:{port}", pack_id, docs))
        finally:
            server.terminate()
            server.wait(timeout=30)
    path = REPO / "bench" / "web_results.json"
    results = json.loads(path.read_text()) if path.is_file() else {}
    results["print_flood"] = flood
    path.write_text(json.dumps(results, indent=2) + "\n")
    q, f = flood["editor_quiet"], flood["editor_flooded"]
    print(f"pnp serve, {WORKERS} workers, {pack_id}: {q['clients']} players clicking every {CLICK_PAUSE} s")
    print(f"  without a flood: {q['requests']} clicks, {q['errors']} errors, median {q['median_ms']} ms, "
          f"p95 {q['p95_ms']} ms, p99 {q['p99_ms']} ms")
    print(f"  during a flood of {flood['flood_clients']} clients asking for {flood['pdf_cards']}-card PDFs: "
          f"{f['requests']} clicks, {f['errors']} errors, median {f['median_ms']} ms, p95 {f['p95_ms']} ms, "
          f"p99 {f['p99_ms']} ms")
    print(f"  the flood's answers: {flood['flood_answers']}; load average {flood['load_average']}")


def main() -> None:
    if "--print-flood" in sys.argv[1:]:
        return main_flood()
    pack_id, docs = presets()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    load_before = os.getloadavg()[0]  # the machine may be shared: what else ran is part of the numbers
    with tempfile.TemporaryDirectory(prefix="pnp-web-bench-") as tmp:
        server = start_server(tmp, port)
        try:
            # the load generator runs on uvloop: it shares the cores with the server, so the less it
            # takes per request the more the numbers are the server's (its CPU share is reported)
            load = uvloop.run(validate_load(base, pack_id, docs))
            preset = sorted((REPO / PACK / "presets").glob("*.yaml"))[0].stem
            picker_url = f"/p/{pack_id}/edit?preset={preset}"
            picker = asyncio.run(first_page(base, pack_id, picker_url))  # draws and caches the thumbnails
            clicks, picker_loaded = uvloop.run(clicks_with_picker(base, pack_id, docs, picker_url))
            new_clicks = uvloop.run(validate_load(base, pack_id, docs, editor=True, seconds=10.0, new=True))
            chain_docs, chain_changes, with_fixes = player_clicks(base, pack_id, side_cards())
            player = uvloop.run(validate_load(base, pack_id, chain_docs, editor=True, seconds=10.0, new=True,
                                              changes=chain_changes))
            player["clicks_recorded"], player["answers_with_fix_buttons"] = len(chain_docs), with_fixes
            players = uvloop.run(players_load(base, pack_id))
            page = asyncio.run(first_page(base, pack_id))
        finally:
            server.terminate()
            server.wait(timeout=30)
    path = REPO / "bench" / "web_results.json"
    results = json.loads(path.read_text()) if path.is_file() else {}
    results.update({"pack": pack_id, "workers": WORKERS, "load_average": round(load_before, 2),
                    "validate": load, "editor_click": clicks, "editor_click_new_builds": new_clicks,
                    "editor_click_player_from_nothing": player, "editor_click_players_own_builds": players,
                    "card_browser_first_page": page, "editor_with_picker_thumbnails": picker,
                    "picker_during_clicks": picker_loaded})
    path.write_text(json.dumps(results, indent=2) + "\n")
    print(f"pnp serve, {WORKERS} workers, {pack_id}:")
    print(f"  validate: {load['clients']} clients for {load['seconds']} s: {load['requests']} requests "
          f"({load['per_second']}/s), {load['errors']} errors, median {load['median_ms']} ms, p95 {load['p95_ms']} ms, "
          f"p99 {load['p99_ms']} ms (first request on a new connection: p95 {load['new_connection_p95_ms']} ms)")
    print(f"  editor clicks (validation + the editor's HTML): {clicks['clients']} clients for {clicks['seconds']} s: "
          f"{clicks['per_second']}/s, {clicks['errors']} errors, median {clicks['median_ms']} ms, p95 {clicks['p95_ms']} ms")
    print(f"  editor clicks, every build a new one (nothing kept): {new_clicks['per_second']}/s, "
          f"{new_clicks['errors']} errors, median {new_clicks['median_ms']} ms, p95 {new_clicks['p95_ms']} ms")
    print(f"  editor clicks, a player building from nothing ({player['answers_with_fix_buttons']} of "
          f"{player['clicks_recorded']} answers with fix buttons), every build new: {player['per_second']}/s, "
          f"{player['errors']} errors, median {player['median_ms']} ms, p95 {player['p95_ms']} ms")
    print(f"  editor clicks, {players['clients']} players each building their own ({players['builds']} builds, "
          f"{players['answers_with_fix_buttons']} of {players['answers']} answers with fix buttons): "
          f"{players['per_second']}/s, {players['errors']} errors, median {players['median_ms']} ms, "
          f"p95 {players['p95_ms']} ms")
    print(f"  card browser first page ({page['images']} images): {page['first_load_s']} s to draw and cache, "
          f"then {page['cached_median_s']} s (worst {page['cached_worst_s']} s)")
    print(f"  editor with the card picker ({picker['images']} thumbnails): {picker['first_load_s']} s to draw and cache, "
          f"then {picker['cached_median_s']} s (worst {picker['cached_worst_s']} s)")
    print(f"  during the clicks, {picker_loaded['players']} players opening it again and again: {picker_loaded['loads']} "
          f"loads of the page and its {picker_loaded['images']} thumbnails, {picker_loaded['errors']} errors, "
          f"median {picker_loaded['median_ms']} ms, p95 {picker_loaded['p95_ms']} ms")


if __name__ == "__main__":
    main()
