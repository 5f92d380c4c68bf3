"""pnp as a stranger installs it: the wheel built from this checkout, installed into a fresh venv
outside the checkout, run from an empty folder. A second venv holds the lowest versions
pyproject.toml declares (`>=` floors, pinned exactly) and builds the kit with them.

Both tests build their own wheel from a copy of the sources and install from PyPI through pip's
cache, so they run once in `make test` and side by side under xdist. They are marked `install`:
`pytest -m "not install"` leaves them out."""

from __future__ import annotations

import http.client
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

import pypdfium2
import pytest
from packaging.version import Version

REPO = Path(__file__).resolve().parents[1]
SOURCES = ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "docs/package.md", "LICENSE", "generator", "templates",
           "card_data"]
# site-packages of a fresh install, pip and setuptools excluded (the venv is made without them):
# 119 MB measured on 2026-11-26 once ezdxf (DXF: our own writer) and numpy (pixel arithmetic: Pillow)
# left the default install; 153 MB once the builder saved into a database by default (issue #29 asks
# for SQLite with nothing to set up: SQLAlchemy alone is 29 MB); 149.1 MB on 2026-11-27 with
# platformdirs replaced by click's app folder, a shared site's accounts (argon2-cffi, itsdangerous)
# moved to the `accounts` extra and right-to-left text (python-bidi, arabic-reshaper) to `rtl`;
# 149.19 MB on 2026-11-28 with the display typefaces (0.22 MB) and the bundled icon set (1.2 MB) in, and
# writing .xlsx (openpyxl, 2.4 MB) moved to the `xlsx` extra; 149.85 MB later that day with every card's
# art, the translations code and the wheel's description cut to docs/package.md (the README was 69 KB
# of METADATA); 149.70 MB with Boss Fight's German (0.42 MB of PO text) in the wheel, every example game
# shipped as one .tar.xz that `pnp example` unpacks (setup.py: 1.2 MB of text in 0.22 MB), and the builder's
# own German words (web/locale/de.po, 26 KB; 149.58 MB before them and others' changes of the day).
# Issue #23's target was 150 MB; on 2026-11-29 the speed work of issue #39 (the cache folder's code, the
# PO reader, the maps' operators written at once: +75 kB of source, +0.18 MB with its bytecode) took the
# install to 150.02 MB, and the budget became 151 MB by decision: 140 MB of it are the libraries, which
# is what this test guards (a library of 1 MB more fails it), and pnp's own 10 MB grow with its features.
# README, "Install size".
SITE_PACKAGES_BUDGET_MB = 151
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

pytestmark = pytest.mark.install


def build_wheel(tmp: Path) -> Path:
    """A wheel built from a copy of what the sdist holds (so the checkout's own build/ is untouched)."""
    src = tmp / "src"
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, src / name, ignore=shutil.ignore_patterns("__pycache__", ".cache", "_data"))
        else:
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, src / name)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(src), "-w", str(tmp / "wheel")], cwd=tmp)
    (wheel,) = (tmp / "wheel").glob("*.whl")
    return wheel


def make_venv(where: Path, wheel: Path, constraints: Path | None = None) -> Path:
    """A venv without pip holding the wheel and its dependencies (installed by this venv's pip)."""
    run([sys.executable, "-m", "venv", "--without-pip", str(where)], cwd=where.parent)
    python = where / "bin" / "python"
    extra = ["-c", str(constraints)] if constraints else []
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", *extra, str(wheel)], cwd=where.parent)
    return where / "bin"


def clean_env(tmp: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PNP_CONFIG"] = str(tmp / "config" / "calibration.json")  # not the user's saved calibration
    return env


def run(cmd, cwd: Path, env: dict | None = None, timeout: float = 600) -> str:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout


def site_packages_mb(venv: Path) -> float:
    (site,) = venv.glob("lib/python3*/site-packages")
    return sum(f.stat().st_size for f in site.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6


def pdf_text(path: Path, page: int = 0) -> str:
    pdf = pypdfium2.PdfDocument(str(path))
    try:
        return pdf[page].get_textpage().get_text_range()
    finally:
        pdf.close()


def wait_for(what: str, check, deadline_s: float, proc=None):
    """Poll `check()` until it returns something truthy, the process ends, or the deadline passes."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if (found := check()):
            return found
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"the process ended (exit {proc.returncode}) before {what}")
        time.sleep(0.1)
    pytest.fail(f"no {what} within {deadline_s:.0f} s")


@pytest.fixture
def install_dir():
    """Where the measured install goes: a path about as long as a pipx install's
    (~/.local/share/pipx/venvs/pnp-generator; not under a pipx folder, whose users pnp tells to
    `pipx inject`), the same length at every run. Each .pyc file holds its source's path, so
    site-packages grows with the length of the folder it is in: in pytest's own folder (its run
    counter, xdist's worker name) the same tree measured 149.88 and 150.01 MB."""
    root = Path(tempfile.mkdtemp(prefix="pnp-", dir="/tmp"))  # /tmp/pnp-XXXXXXXX: always 17 characters
    yield root / ".local" / "share" / "venvs" / "pnp-generator"
    shutil.rmtree(root, ignore_errors=True)


def test_the_wheel_installs_and_works_from_an_empty_folder(tmp_path, install_dir):
    wheel = build_wheel(tmp_path)
    install_dir.parent.mkdir(parents=True)
    bin_dir = make_venv(install_dir, wheel)
    size = site_packages_mb(install_dir)
    print(f"site-packages of a fresh install: {size:.2f} MB")
    assert size <= SITE_PACKAGES_BUDGET_MB, f"the install grew to {size:.0f} MB (budget {SITE_PACKAGES_BUDGET_MB})"
    pnp, env = bin_dir / "pnp", clean_env(tmp_path)
    home = tmp_path / "empty"
    home.mkdir()

    # the package and its data come from the venv, not from this checkout
    where = run([bin_dir / "python", "-c", "import generator.core.resources as r; print(r.PACKAGE, r.DATA_ROOT)"],
                home, env)
    assert str(REPO) not in where and where.split()[1].endswith("generator/_data"), where
    assert re.fullmatch(r"pnp, version \S+\n", run([pnp, "--version"], home, env))

    # no pack here: one line saying how to get one
    lost = subprocess.run([pnp, "validate"], cwd=home, env=env, capture_output=True, text=True)
    assert lost.returncode == 2 and "pnp example" in lost.stderr and lost.stderr.count("\n") == 1

    run([pnp, "example"], home, env)
    pack = home / "boss_fight"
    assert "all legal" in run([pnp, "validate"], pack, env)  # the current folder is the pack

    kit = run([pnp, "build", "boss_fight", "-o", "kit"], home, env)
    assert {p.name for p in (home / "kit").iterdir()} >= {"cards.pdf", "maps.pdf", "pieces.pdf", "rulebook.pdf",
                                                          "quick-reference.pdf", "calibration.pdf"}, kit
    assert "Titan Arm" in "".join(pdf_text(home / "kit" / "cards.pdf", n) for n in range(0, 12, 2))
    assert "credits" in (home / "kit" / "CREDITS.txt").read_text()  # who made the art and the typefaces
    # the bundled icon set is package data: found, searched and drawn from the wheel, offline
    assert "crowned-skull" in run([pnp, "icons", "search", "skull"], home, env).split()
    assert "by Lorc" in run([pnp, "icons", "show", "lantern-flame"], home, env)

    run([pnp, "build", "boss_fight", "--profile", "png", "-o", "png"], home, env)
    manifest = json.loads((home / "png" / "png-mpc" / "manifest.json").read_text())
    pngs = sorted((home / "png" / "png-mpc").glob("*.png"))
    assert len(pngs) > 141 and all(p.read_bytes()[:8] == PNG_SIGNATURE for p in pngs[:5] + pngs[-5:]), manifest

    run([pnp, "build", "boss_fight", "--profile", "tts", "-o", "tts"], home, env)
    # the TTS saves: one per map grid, each also with relative links (.relative.json)
    saves = [p for p in (home / "tts" / "tts").glob("*.json") if p.name != "decks.json"]
    assert saves and all(json.loads(p.read_text())["ObjectStates"] for p in saves)
    assert (home / "tts" / "tts" / "Boss-Fight.json").is_file(), sorted(p.name for p in saves)

    # a new pack builds with the shared layouts that ship in the wheel
    run([pnp, "new", "x"], home, env)
    run([pnp, "build", "x", "-o", "xout"], home, env)
    assert "First Unit" in pdf_text(home / "xout" / "cards.pdf")

    # pnp watch rebuilds on a change
    log = tmp_path / "watch.log"
    with log.open("w") as out:
        watcher = subprocess.Popen([pnp, "watch", "x", "-o", "wout"], cwd=home, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, text=True)
    try:
        wait_for("first build and watch", lambda: "watching" in log.read_text(), 120, watcher)
        cards = home / "x" / "cards" / "units.yaml"
        cards.write_text(cards.read_text().replace("First Unit", "Renamed Unit"))

        def rebuilt():
            if log.read_text().count("rebuilt cards") >= 2:
                return "Renamed Unit" in pdf_text(home / "wout" / "cards.pdf")
            cards.touch()  # a save the watcher may have missed while starting up is saved again
            return False
        wait_for("rebuild after the change", rebuilt, 120, watcher)
    finally:
        watcher.send_signal(signal.SIGINT)
        watcher.wait(timeout=30)
    assert "Traceback" not in log.read_text()

    # accounts (a shared site's passwords) are the `accounts` extra: without it, one line saying how to add it
    no_accounts = subprocess.run([pnp, "serve", "boss_fight", "--accounts", "--port", "0"], cwd=home, env=env,
                                 capture_output=True, text=True, timeout=120)
    assert no_accounts.returncode == 2 and "Traceback" not in no_accounts.stderr, no_accounts.stderr
    # the fix names this venv's own python and the extra's packages (pnp is not on the index); those
    # packages, installed as it says (this venv has no pip of its own: the outer pip installs into it), do it
    fix = re.search(r"add the `accounts` extra: (\S+) -m pip install (.+)", no_accounts.stderr)
    assert fix and Path(fix[1]) == bin_dir / "python", no_accounts.stderr
    packages = shlex.split(fix[2])
    assert sorted(p.split(">")[0] for p in packages) == ["argon2-cffi"]  # sessions are rows: no itsdangerous
    run([sys.executable, "-m", "pip", "--python", fix[1], "install", "-q", *packages], cwd=home)
    run([bin_dir / "python", "-c", "from generator.community.accounts import accounts_available as a; assert a()"],
        cwd=home, env=env)

    # the example's German ships with it (the wheel holds the game as one archive: setup.py), as the PO file a
    # translator edits; without Babel (the `translations` extra) `--lang de` is one message saying how to add it
    po = (pack / "translations" / "de.po").read_text(encoding="utf-8")
    assert "msgid \"Lantern Skull\"\nmsgstr \"Laternenschädel\"" in po, po[:400]
    no_babel = subprocess.run([pnp, "build", "boss_fight", "--lang", "de", "--only", "cards", "-o", "kit-de"], cwd=home,
                              env=env, capture_output=True, text=True, timeout=300)
    assert no_babel.returncode == 2 and "Traceback" not in no_babel.stderr, no_babel.stdout + no_babel.stderr
    assert no_babel.stderr.count(" error ") == 1 and not (home / "kit-de").exists(), no_babel.stderr
    fix = re.search(r"add the `translations` extra: (\S+) -m pip install (.+)", no_babel.stderr)
    assert fix and Path(fix[1]) == bin_dir / "python", no_babel.stderr
    assert sorted(p.split(">")[0] for p in shlex.split(fix[2])) == ["babel"]
    run([sys.executable, "-m", "pip", "--python", fix[1], "install", "-q", *shlex.split(fix[2])], cwd=home)
    run([pnp, "build", "boss_fight", "--lang", "de", "--only", "cards", "-o", "kit-de"], home, env)
    german = "".join(pdf_text(home / "kit-de" / "cards.pdf", n) for n in range(0, 12, 2))
    assert "Laternenschädel" in german and "Lantern Skull" not in german

    # pnp serve answers a card image
    server = subprocess.Popen([pnp, "serve", "boss_fight", "--port", "0", "--builds", "builds", "--cache", "cache"],
                              cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = server.stdout.readline()
        port = int(re.search(r"at http://localhost:(\d+)/", first)[1])

        def get(path):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                conn.request("GET", path)
                answer = conn.getresponse()
                return answer.status, answer.getheader("content-type"), answer.read()
            except OSError:
                return None
        status, _, body = wait_for("answer from pnp serve", lambda: get("/api/boss_fight/cards"), 120, server)
        assert status == 200
        cards_doc = json.loads(body)
        image = (cards_doc if isinstance(cards_doc, list) else cards_doc["cards"])[0]["image"]
        status, kind, png = get(image)
        assert (status, kind, png[:8]) == (200, "image/png", PNG_SIGNATURE)
        # in German (Babel is installed by now): the pack's texts and the builder's own words, from the wheel
        status, _, german_page = get("/p/boss_fight?lang=de")
        assert status == 200 and "Bosskampf" in german_page.decode() and "Karten ansehen" in german_page.decode()
    finally:
        server.send_signal(signal.SIGINT)
        out, _ = server.communicate(timeout=30)
    assert server.returncode == 0 and "Traceback" not in out, out


def floor_constraints(pyproject: Path) -> str:
    """`name==X` for every `name>=X` dependency of pyproject.toml: the oldest versions we claim to work with."""
    lines = []
    for dep in tomllib.loads(pyproject.read_text())["project"]["dependencies"]:
        found = re.match(r"^([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*>=\s*([^,;\s]+)", dep)
        assert found, f"dependency without a >= floor: {dep}"
        lines.append(f"{found[1]}=={found[2]}")
    return "\n".join(lines) + "\n"


def test_the_declared_dependency_floors_validate_and_build_the_kit(tmp_path):
    constraints = tmp_path / "floors.txt"
    constraints.write_text(floor_constraints(REPO / "pyproject.toml"))
    bin_dir = make_venv(tmp_path / "venv", build_wheel(tmp_path), constraints)
    installed = run([bin_dir / "python", "-c", "import importlib.metadata as m; print(m.version('reportlab'), "
                     "m.version('pillow'), m.version('pydantic'))"], tmp_path, clean_env(tmp_path)).split()
    floors = dict(line.split("==") for line in constraints.read_text().split())
    assert [Version(v) for v in installed] == [Version(floors[n]) for n in ("reportlab", "pillow", "pydantic")]
    pnp, env, home = bin_dir / "pnp", clean_env(tmp_path), tmp_path / "empty"
    home.mkdir()
    run([pnp, "example"], home, env)
    assert "all legal" in run([pnp, "validate", "boss_fight"], home, env)
    run([pnp, "build", "boss_fight", "-o", "kit"], home, env)
    assert "Titan Arm" in "".join(pdf_text(home / "kit" / "cards.pdf", n) for n in range(0, 12, 2))
    assert len(list((home / "kit").glob("*.pdf"))) == 6
