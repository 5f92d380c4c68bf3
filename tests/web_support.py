"""Helpers for the web tests: an app over the real packs with a temporary builds folder,
reading the build document and violations back out of the editor's HTML, and `pnp serve`
started and stopped as a process."""

from __future__ import annotations

import html as htmllib
import http.client
import json
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKS = REPO / "card_data"


def make_client(builds: Path, cache: Path):
    from fastapi.testclient import TestClient

    from generator.web.app import create_app
    from generator.web.site import Site
    site = Site.load([PACKS], builds, cache)
    return TestClient(create_app(site), base_url="http://localhost"), site


def doc_of(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="build-doc">(.*?)</script>', page, re.S)
    assert m, "the editor holds its build document"
    return json.loads(m.group(1))


def editor_state(page: str) -> tuple[dict, dict]:
    """What the editor's answer holds for the next click: the build document, and the
    character and piece cards go to (as the page sends them back)."""
    m = re.search(r'data-target-char="(\d*)" data-target-piece="(\d*)"', page)
    return doc_of(page), {"char": int(m.group(1)) if m.group(1) else None,
                          "piece": int(m.group(2)) if m.group(2) else None}


def rules_at(page: str, path: str) -> list[str]:
    """Rule ids shown inside the element for one build path (a card or place of the build)."""
    m = re.search(r'<li class="item[^"]*" data-path="' + re.escape(path) + r'"(.*?)</li>', page, re.S)
    return re.findall(r'data-rule="([^"]+)"', m.group(1)) if m else []


def all_rules(page: str) -> list[str]:
    return re.findall(r'data-rule="([^"]+)"', page)


def text(page: str) -> str:
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", page))


class Editor:
    """Drive the editor's change endpoint as the page's script does."""

    def __init__(self, client, pack_id: str, doc: dict):
        self.client, self.pack_id, self.doc, self.page = client, pack_id, doc, ""
        self.target: dict = {}

    def op(self, **op) -> "Editor":
        r = self.client.post(f"/p/{self.pack_id}/edit/apply", json={"build": self.doc, "op": op, "target": self.target},
                             headers={"x-pnp-fragment": "1"})
        assert r.status_code == 200, r.text[:800]
        self.page = r.text
        self.doc = doc_of(r.text)
        m = re.search(r'data-target-char="(\d*)" data-target-piece="(\d*)"', r.text)
        self.target = {"char": int(m.group(1)) if m.group(1) else None,
                       "piece": int(m.group(2)) if m.group(2) else None}
        return self

    @property
    def legal(self) -> bool:
        return '<span class="verdict" id="verdict">LEGAL</span>' in self.page


# ---- pnp serve as a process ----


def start_serve(*args: str, cwd=REPO):
    """Start `pnp serve ARGS` (give it `--port 0`) and wait until it answers: (process, port,
    the line it printed first)."""
    proc = subprocess.Popen([sys.executable, "-m", "generator", "serve", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    first = proc.stdout.readline()  # the line with the URL comes before the server starts
    found = re.search(r"at http://localhost:(\d+)/", first)
    if not found:
        proc.kill()
        pytest.fail("pnp serve printed no URL: " + first + proc.stdout.read())
    port = int(found.group(1))
    for _ in range(600):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                pass
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/api/packs")
            if conn.getresponse().status == 200:
                return proc, port, first
        except OSError:
            if proc.poll() is not None:
                pytest.fail("pnp serve stopped: " + first + proc.stdout.read())
            time.sleep(0.1)
    proc.kill()
    pytest.fail("pnp serve never answered")


def process_running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has stopped
    except FileNotFoundError:
        return False


def stop_serve(proc) -> str:
    """Ctrl-C, as a person stops it: it must exit 0 without a traceback; returns its output."""
    proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("pnp serve did not stop on Ctrl-C")
    assert proc.returncode == 0, out
    assert "Traceback" not in out, out
    return out


# ---- the app's routes ----


def app_routes(app) -> list:
    """Every endpoint route of the app (path and methods), with the routers it includes opened
    (FastAPI 0.16x keeps an included router as one entry holding the original router; older
    versions list its routes flat: both are walked)."""
    from starlette.routing import Route

    def walk(routes):
        for route in routes:
            inner = getattr(route, "original_router", None)
            if inner is not None:
                yield from walk(inner.routes)
            elif isinstance(route, Route):
                yield route

    return list(walk(app.routes))
