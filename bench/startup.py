"""Start-up of the command line and the builder, timed as whole processes on this machine.

Each figure is paired with a bare-import baseline timed in the same run, interleaved, so the
ratio holds while the machine's speed drifts:

- `pnp --version` against `python -c "import click"` (target: within 1.5x);
- `pnp validate PRESET` (one build) against `python -c "from pydantic import BaseModel; import yaml"`
  (target: within 3x);
- `pnp serve --port 0` from spawn to its first page answered (target: under 1 s), started as a
  player starts it day to day: in a folder whose database exists (its tables made by an earlier
  start). The very first start, which also creates the database and runs the migrations, is
  reported beside it (`serve_first_start`).

Run after `python -m compileall generator` (make bench does): an editable install under
PYTHONDONTWRITEBYTECODE would otherwise recompile every module edited since set-up, which an
installed wheel never does.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACK_DIR = ROOT / "card_data" / "boss_fight"
TARGETS = {"version_ratio": 1.5, "validate_ratio": 3.0, "serve_first_page_s": 1.0}


def _pnp() -> list[str]:
    script = Path(sys.executable).with_name("pnp")  # the installed command, as a user runs it
    return [str(script)] if script.exists() else [sys.executable, "-m", "generator"]


def _run_seconds(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _paired(ours: list[str], base: list[str], repeat: int, cwd: Path) -> dict:
    a, b = [], []
    for _ in range(repeat):  # interleaved, so both see the same machine
        a.append(_run_seconds(ours, cwd))
        b.append(_run_seconds(base, cwd))
    ma, mb = statistics.median(a), statistics.median(b)
    return {"ours_s": round(ma, 3), "baseline_s": round(mb, 3), "ratio": round(ma / mb, 2), "runs": repeat}


def first_page_seconds(repeat: int, first_start: bool = False) -> dict:
    """Spawn `pnp serve --port 0`, read the port it prints, poll its start page until it answers;
    in a folder whose database an earlier start made, or (`first_start`) in an empty one."""
    times = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            if not first_start:  # the database exists, as on every start after the first
                _serve_once(tmp)
            times.append(_serve_once(tmp))
    return {"median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3),
            "max_s": round(max(times), 3), "runs": repeat}


def _serve_once(folder: str) -> float:
    """Seconds from spawning `pnp serve` in FOLDER to its start page's answer."""
    start = time.perf_counter()
    # the database is made beside the builds folder: inside FOLDER, so each run has its own
    proc = subprocess.Popen(_pnp() + ["serve", str(PACK_DIR), "--port", "0", "--builds", str(Path(folder) / "builds")],
                            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = None
        for line in proc.stdout:
            if m := re.search(r"(http://\S+:\d+/)", line):
                url = m.group(1).replace("localhost", "127.0.0.1")
                break
        if url is None:
            raise RuntimeError("pnp serve printed no address")
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as res:
                    if res.status == 200:
                        return time.perf_counter() - start
            except OSError:
                if time.perf_counter() - start > 30:
                    raise RuntimeError("pnp serve gave no page within 30 s") from None
                time.sleep(0.01)  # polling interval, not a wait for an outcome
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def startup(repeat: int = 7) -> dict:
    preset = sorted((PACK_DIR / "presets").glob("*.yaml"))[0]
    with tempfile.TemporaryDirectory() as tmp:  # an empty folder, as a user's would be
        cwd = Path(tmp)
        return {
            "version": _paired(_pnp() + ["--version"], [sys.executable, "-c", "import click"], repeat, cwd),
            "validate_one_build": _paired(_pnp() + ["validate", str(preset)],
                                          [sys.executable, "-c", "from pydantic import BaseModel; import yaml"],
                                          repeat, cwd),
            "serve_first_page": first_page_seconds(max(3, repeat // 2)),
            "serve_first_start": first_page_seconds(max(3, repeat // 2), first_start=True),
            "targets": TARGETS,
        }


def print_startup(s: dict) -> None:
    t = s["targets"]
    v, val, srv = s["version"], s["validate_one_build"], s["serve_first_page"]
    print(f"{'pnp --version / import click':32} {v['ours_s']:>8} s / {v['baseline_s']} s = {v['ratio']}x"
          f"   target ≤ {t['version_ratio']}x")
    print(f"{'validate 1 build / pydantic+yaml':32} {val['ours_s']:>8} s / {val['baseline_s']} s = {val['ratio']}x"
          f"   target ≤ {t['validate_ratio']}x")
    print(f"{'serve: spawn to first page':32} {srv['median_s']:>8} s (min {srv['min_s']}, max {srv['max_s']})"
          f"   target < {t['serve_first_page_s']} s")
    if first := s.get("serve_first_start"):
        print(f"{'serve, first start (new database)':32} {first['median_s']:>8} s (min {first['min_s']}, max {first['max_s']})")


if __name__ == "__main__":
    print_startup(startup())
