"""Load test of the community pages (generator.community), SQLite and PostgreSQL side by side
(run by `make bench` when PostgreSQL's binaries are there; never by the tests).

For each database: `pnp serve --workers 2` on a fresh database holding PUBLISHED published
builds of the flagship pack; 50 concurrent clients for SECONDS each, each asking for a page
picked at random: browse (the published list, newest first) a quarter of the time, browse
filtered by a card (most copied first) a quarter, open a published build half. Each client
opens a new connection every 10 requests. Reported per database: requests, errors, requests
per second (all pages), median and 95th percentile latency of each page, the clients' own
CPU, and the server's CPU per request (its workers', read from /proc: the work an answer
costs, which other load on the machine leaves as it is while it moves the rates and
latencies). Nothing is published, copied or hidden during the run, so after a worker has
drawn a page once it answers it from the pages it keeps (generator/community/routes_published.py
_kept: until the next change, as a site serves pages between changes), after reading the
published builds' generation. Then the database size per 10,000 saved builds (each one
version of a preset's text). Results go to bench/community_results.json.

The clients are bench/web_load.py's `_client` (plain asyncio streams on uvloop, not an HTTP
library), the same code as the builder's load test: they run on the same machine as the
server, and on a small machine what they spend is taken from the server, so they spend as
little as they can; their CPU share is reported. The numbers are still an upper bound on what
a separate client would see.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
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
sys.path.insert(0, str(REPO / "bench"))

from community_support import Postgres  # noqa: E402
from generator.community.models import Build, Version, now  # noqa: E402
from generator.community.publish import publish  # noqa: E402
from generator.community.store import Store  # noqa: E402
from generator.pack.load import load_pack  # noqa: E402
from generator.web.common import preset_docs  # noqa: E402
from generator.web.state import to_yaml  # noqa: E402
from web_load import _client  # noqa: E402  (the load generator's one client)

CLIENTS = 50
SECONDS = 15
PUBLISHED = 500
SIZED = 10_000
PACK = REPO / "card_data" / "boss_fight"


def seed(url: str) -> tuple[list[str], list[str]]:
    """PUBLISHED published builds from the pack's presets: their ids, and cards to filter by."""
    pack = load_pack(PACK)
    store = Store(url)
    store.migrate()
    texts = [to_yaml(d) for d, _ in preset_docs(pack).values()]
    ids = [publish(store, pack, texts[i % len(texts)], 0, f"player{i}", None) for i in range(PUBLISHED)]
    store.engine.dispose()
    return ids, sorted(pack.cards)[:20]


def start(url: str, tmp: Path) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-m", "generator", "serve", str(PACK), "--port", "0", "--workers", "2",
                             "--db", url, "--builds", str(tmp / "builds"), "--cache", str(tmp / "cache")],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = int(re.search(r"localhost:(\d+)/", proc.stdout.readline()).group(1))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/packs", timeout=5).status_code == 200:
                return proc, port
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("pnp serve never answered")


def server_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) the server process and its workers have used so far, read
    from /proc (None where there is none): the work its answers cost, which the machine's other
    load does not change as it changes requests per second and latencies."""
    ticks, total, todo = os.sysconf("SC_CLK_TCK"), 0, [pid]
    try:
        while todo:
            p = todo.pop()
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        return None
    return total / ticks


async def load(port: int, ids: list[str], cards: list[str], pid: int | None = None) -> dict:
    times: dict[str, list[float]] = {"browse": [], "browse_card": [], "open": []}
    errors: list[str] = []
    host = "127.0.0.1"

    def client_requests(i: int):
        """Client i's requests (web_load's `_client` asks for them): a page picked at random,
        browse and browse by card a quarter of the time each, open a published build half."""
        rnd = random.Random(i)

        def request(_n: int) -> tuple[bytes, list[float]]:
            kind = rnd.choice(("browse", "browse_card", "open", "open"))
            path = {"browse": "/p/boss_fight/published",
                    "browse_card": f"/p/boss_fight/published?card={rnd.choice(cards)}&sort=copied",
                    "open": f"/p/boss_fight/published/{rnd.choice(ids)}"}[kind]
            return f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode(), times[kind]
        return request

    start = time.perf_counter()
    cpu = time.process_time()
    served = server_cpu(pid) if pid else None
    await asyncio.gather(*(_client(host, port, client_requests(i), start + SECONDS, i, errors, [], b"</html>")
                           for i in range(CLIENTS)))
    elapsed = time.perf_counter() - start
    client_cpu = time.process_time() - cpu  # what the load generator took from the server's cores
    after = server_cpu(pid) if pid else None
    total = sum(len(v) for v in times.values())
    out = {"errors": len(errors), "requests_per_s": round(total / elapsed, 1),
           "server_cpu_ms_per_request": None if served is None or after is None else round(
               1000 * (after - served) / max(total, 1), 3),
           "client_cpu_share": round(client_cpu / elapsed, 2),
           "client_cpu_ms_per_request": round(1000 * client_cpu / max(total, 1), 3)}
    for kind, values in times.items():
        values.sort()
        out[kind] = {"requests": len(values), "median_ms": round(1000 * statistics.median(values), 1),
                     "p95_ms": round(1000 * values[int(0.95 * (len(values) - 1))], 1)}
    return out


def size_per_10000(url: str, measure) -> float:
    """MB the database grows by for SIZED saved builds of one version each."""
    store = Store(url)
    store.migrate()
    before = measure(store)
    texts = [to_yaml(d) for d, _ in preset_docs(load_pack(PACK)).values()]
    for start_at in range(0, SIZED, 1000):
        with store.session() as s:
            rows = [Build(owner_key=0, stem=f"build-{i}", name=f"Build {i}", pack="boss_fight", side="boss",
                          text=texts[i % len(texts)], version=1, created_at=now(), updated_at=now())
                    for i in range(start_at, start_at + 1000)]
            s.add_all(rows)
            s.flush()
            s.add_all(Version(build_id=b.id, n=1, text=b.text, created_at=now()) for b in rows)
    grown = measure(store) - before
    store.engine.dispose()
    return round(grown / 1e6 * 10_000 / SIZED, 1)


def main() -> None:
    load_before = os.getloadavg()  # the machine's 1, 5 and 15 minute load before and after (other work on it)
    results = {}
    pg = None
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        urls = {"sqlite": f"sqlite:///{tmp / 'site.sqlite3'}"}
        try:
            pg = Postgres()
            urls["postgresql"] = pg.new_database()
        except BaseException as exc:  # pytest.skip raises a BaseException
            print(f"PostgreSQL left out: {exc}")
        try:
            for name, url in urls.items():
                ids, cards = seed(url)
                proc, port = start(url, tmp / name)
                try:
                    results[name] = uvloop.run(load(port, ids, cards, proc.pid))
                finally:
                    proc.terminate()
                    proc.wait(30)
                print(name, json.dumps(results[name]))

            def sqlite_size(store):
                with store.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
                return os.path.getsize(tmp / "size.sqlite3")

            def pg_size(store):
                with store.engine.connect() as conn:
                    return conn.exec_driver_sql("select pg_database_size(current_database())").scalar()

            sizes = {"sqlite": size_per_10000(f"sqlite:///{tmp / 'size.sqlite3'}", sqlite_size)}
            if pg is not None:
                sizes["postgresql"] = size_per_10000(pg.new_database(), pg_size)
            results["mb_per_10000_builds"] = sizes
            print("MB per 10,000 builds:", sizes)
        finally:
            if pg is not None:
                pg.stop()
    results["setup"] = {"clients": CLIENTS, "seconds": SECONDS, "workers": 2, "published": PUBLISHED,
                        "load_average": [round(x, 2) for x in (*load_before, *os.getloadavg())]}
    (REPO / "bench" / "community_results.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
