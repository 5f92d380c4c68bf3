"""`pnp serve` as a process: its listening socket, several workers, Ctrl-C, --port 0,
--open, and a port already taken. (The pages and the API are in test_web_api.py, the
browser flows in test_web_browser.py.)"""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import time

import pytest
from click.testing import CliRunner

from web_support import REPO, process_running, start_serve, stop_serve

from generator.cli import main
from generator.web import listen
from generator.web.guard import ENV_HOSTS
from generator.web.jobs import ENV_JOBS


@pytest.fixture(autouse=True)
def _serve_leaves_no_environment(monkeypatch):
    """`pnp serve` run in this process (CliRunner) sets the variables its workers read; put
    them back afterwards, or apps made by later tests would answer to its port only."""
    for name in (ENV_HOSTS, ENV_JOBS, "PNP_PACKS", "PNP_BUILDS", "PNP_CACHE"):
        monkeypatch.setenv(name, "")


def test_accepted_connections_have_nagle_off():
    """asyncio turns Nagle's algorithm off only on an accepted socket whose protocol is TCP;
    with it on, every answer after the first on a keep-alive connection waits ~40 ms for a
    delayed ACK. The accepted socket must say TCP and have TCP_NODELAY set."""
    sock = listen.listening_socket("127.0.0.1", 0)
    try:
        with socket.create_connection(sock.getsockname()[:2]) as client:
            accepted, _ = sock.accept()
            with accepted:
                assert accepted.proto == socket.IPPROTO_TCP
                assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
                client.sendall(b"ping")
                assert accepted.recv(4) == b"ping"
    finally:
        sock.close()


def test_the_uvicorn_calls_listen_py_relies_on_are_still_there():
    """listen.py hands our socket to two uvicorn calls its documentation does not list (pyproject
    caps uvicorn to the versions tested for that reason). If this fails, uvicorn changed them:
    read listen.py's docstring before lifting the cap."""
    import inspect

    import uvicorn
    from uvicorn.supervisors import Multiprocess
    assert list(inspect.signature(Multiprocess.__init__).parameters)[1:3] == ["config", "sockets"]
    assert "sockets" in inspect.signature(uvicorn.Server.run).parameters
    assert "Multiprocess" in getattr(__import__("uvicorn.supervisors").supervisors, "__all__", ())


def test_uvicorns_own_socket_would_leave_nagle_on():
    """Why we bind the socket ourselves: a socket made without a protocol number (what uvicorn
    binds for --workers) hands accepted connections protocol 0, which asyncio leaves alone. If
    this starts failing, uvicorn or Python changed and listen.py's reason may be gone."""
    plain = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    plain.bind(("127.0.0.1", 0))
    plain.listen()
    try:
        with socket.create_connection(plain.getsockname()[:2]):
            accepted, _ = plain.accept()
            with accepted:
                assert accepted.proto == 0
    finally:
        plain.close()


def test_two_workers_on_a_port_the_system_picks(tmp_path):
    """--port 0 prints the port it got; two workers answer validations on new connections and
    on a kept-alive one, and Ctrl-C stops the lot with no worker left behind."""
    proc, port, first = start_serve("card_data/tactics", "--port", "0", "--workers", "2",
                               "--builds", str(tmp_path / "builds"), "--cache", str(tmp_path / "cache"))
    try:
        assert port != 0 and "2 workers" in first
        workers = [int(p) for p in subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True,
                                                    text=True).stdout.split()]
        assert len(workers) >= 2
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/api/packs")
        pack = json.loads(conn.getresponse().read())[0]
        assert pack["id"] == "tactics"
        side = sorted(pack["sides"])[0]
        doc = {"pack": "tactics", "name": "Empty", "side": side, "characters": []}
        statuses = []
        for _ in range(3):  # one kept-alive connection
            conn.request("POST", "/api/tactics/validate", body=json.dumps(doc),
                         headers={"Content-Type": "application/json"})
            answer = conn.getresponse()
            body = json.loads(answer.read())
            statuses.append((answer.status, body["schema"]))
        time.sleep(6)  # a player reading a card: past uvicorn's default 5 s, the connection stays open
        conn.request("POST", "/api/tactics/validate", body=json.dumps(doc), headers={"Content-Type": "application/json"})
        answer = conn.getresponse()
        statuses.append((answer.status, json.loads(answer.read())["schema"]))
        for _ in range(6):  # and new ones, which either worker may accept
            fresh = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            fresh.request("POST", "/api/tactics/validate", body=json.dumps(doc),
                          headers={"Content-Type": "application/json"})
            answer = fresh.getresponse()
            statuses.append((answer.status, json.loads(answer.read())["schema"]))
            fresh.close()
        conn.close()
        assert all(status == 200 and schema.startswith("pnp.validation/") for status, schema in statuses)
    finally:
        stop_serve(proc)
    for pid in workers:  # every worker has stopped too (allowing them a moment to exit)
        for _ in range(100):
            if not process_running(pid):
                break
            time.sleep(0.1)
        assert not process_running(pid), f"worker {pid} outlived pnp serve"


def test_open_opens_the_printed_address(monkeypatch, tmp_path):
    opened, served = [], []
    monkeypatch.setattr("webbrowser.open", lambda url: opened.append(url))
    monkeypatch.setattr(listen, "serve", lambda app, sock, workers=1, **kw: served.append((sock.getsockname(), workers)))
    result = CliRunner().invoke(main, ["serve", str(REPO / "card_data/tactics"), "--port", "0", "--open",
                                       "--builds", str(tmp_path / "builds")])  # its database beside, not in the repo
    assert result.exit_code == 0, result.output
    port = served[0][0][1]
    assert opened == [f"http://localhost:{port}/"]
    assert f"at http://localhost:{port}/" in result.output


def test_a_taken_port_is_a_clear_error_not_a_traceback(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        result = CliRunner().invoke(main, ["serve", str(REPO / "card_data/tactics"), "--port", str(port),
                                           "--builds", str(tmp_path / "builds")])
    finally:
        taken.close()
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "--port" in result.output and "Traceback" not in result.output


def test_listening_beyond_this_computer_says_who_can_change_builds(monkeypatch, tmp_path):
    served = []
    monkeypatch.setattr(listen, "serve", lambda app, sock, workers=1, **kw: served.append(sock.getsockname()))
    args = ["serve", str(REPO / "card_data/tactics"), "--port", "0", "--builds", str(tmp_path / "b")]
    refused = CliRunner().invoke(main, args + ["--host", "0.0.0.0"])  # neither accounts nor --open-access
    assert refused.exit_code == 2 and "--accounts" in refused.output and not served
    result = CliRunner().invoke(main, args + ["--host", "0.0.0.0", "--open-access"])
    assert result.exit_code == 0, result.output
    assert "note: --open-access on 0.0.0.0: anyone who can reach this address" in result.output
    signed = CliRunner().invoke(main, args + ["--host", "0.0.0.0", "--accounts"])
    assert signed.exit_code == 0 and "note: --open-access" not in signed.output
    assert "note: this site has no designer yet" in signed.output  # and how to name one
    quiet = CliRunner().invoke(main, args)  # the default, this computer only: no note
    assert quiet.exit_code == 0 and "note:" not in quiet.output


def test_accounts_without_their_extra_say_how_to_add_it(monkeypatch, tmp_path):
    """argon2-cffi is the `accounts` extra: without it `--accounts` stops
    before listening, in one message naming the extra (the install test runs it for real)."""
    from generator.community import accounts
    served = []
    monkeypatch.setattr(listen, "serve", lambda app, sock, workers=1, **kw: served.append(sock.getsockname()))
    monkeypatch.setattr(accounts, "accounts_available", lambda: False)
    result = CliRunner().invoke(main, ["serve", str(REPO / "card_data/tactics"), "--port", "0", "--accounts",
                                       "--builds", str(tmp_path / "b")])
    assert result.exit_code == 2 and not served
    assert "add the `accounts` extra: " in result.output and "argon2-cffi" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "b").exists()
    monkeypatch.undo()
    assert accounts.accounts_available()  # this venv has the test extra, which includes the accounts extra


def test_serve_in_a_pack_folder_needs_no_argument(tmp_path):
    """`pnp example` then `cd` into it and `pnp serve`: the current folder is the pack, and its
    builds and image cache go under it by default."""
    assert CliRunner().invoke(main, ["example", "tactics", str(tmp_path / "mine")]).exit_code == 0
    proc, port, first = start_serve("--port", "0", cwd=tmp_path / "mine")
    try:
        assert "Stepfall" in first and "builds in pnp-site.sqlite3" in first
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/packs")
        assert [p["id"] for p in json.loads(conn.getresponse().read())] == ["tactics"]
    finally:
        stop_serve(proc)
