"""The benchmark behind `make bench`: card rendering against a plain-ReportLab floor at 900
and 9,000 cards (runs interleaved), the whole kit, peak memory at 9,000 and 50,000 cards
against the floor's, validation throughput, watch rebuild time in a 900-card pack, map checks
at the 10,000-hex limit, and the start-up of `pnp` and `pnp serve` against bare imports
(bench/startup.py).

Every figure is the median of several runs with min and max. Results go to
bench/results.json and a table on stdout. Run from the repository root.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.floor import draw_floor, prepare  # noqa: E402
from bench.startup import print_startup, startup  # noqa: E402
from generator.pack.cardlist import card_order  # noqa: E402
from generator.pack.load import load_build, load_pack  # noqa: E402
from generator.render.cards.faces import CardFace, CardShared  # noqa: E402
from generator.render.cards.sheets import write_home_sheets  # noqa: E402
from generator.core.yamlio import MAX_FILE_BYTES, load_yaml_file, parse_yaml  # noqa: E402
from generator.render.base.layout import make_environment  # noqa: E402
from generator.rules.engine import validate_build  # noqa: E402

PACK_DIR = ROOT / "card_data" / "boss_fight"
SIZES = (900, 9000)
MEMORY_SIZES = (9000, 50000)
WORDS = "swift heavy burning shadowed ancient gleaming brittle hungry silent".split()


def synthetic_pack(n: int):
    """A copy of the Boss Fight pack whose cards are N variations of its real cards:
    every type, varied text lengths, icons and keywords."""
    pack = load_pack(PACK_DIR)
    base = card_order(pack)
    cards = {}
    for i in range(n):
        src = base[i % len(base)]
        extra = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(i % 7))
        text = src.text + (f" Then deal :damage:{i % 4 + 1} to a {extra} foe." if extra else "")
        card = dataclasses.replace(src, id=f"{src.id}-{i}", name=f"{src.name} {i % 97}", text=text,
                                   points=src.points + i % 3, order=i)
        cards[card.id] = card
    pack.cards = cards
    return pack


def faces_of(pack, shared):
    total = len(pack.cards)
    return [CardFace(c, False, i + 1, total, shared.layout_for(c.type).name, c.set, c.type)
            for i, c in enumerate(pack.cards.values())]


def timed(fn, repeat: int):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def summary(values, scale=1.0, digits=3):
    values = [v * scale for v in values]
    return {"median": round(statistics.median(values), digits), "min": round(min(values), digits),
            "max": round(max(values), digits), "runs": len(values)}


def render_ms_per_card(n: int, repeat: int, out: Path):
    pack = synthetic_pack(n)
    shared = CardShared(pack)
    faces = faces_of(pack, shared)
    write_home_sheets(pack, faces[: min(n, 50)], out, shared=CardShared(pack))  # warm caches of imports only
    prepared = prepare(pack, shared, faces)
    ours, floor = [], []
    for _ in range(repeat):  # interleaved: the machine's speed drifts between runs
        ours += timed(lambda: write_home_sheets(pack, faces, out, shared=CardShared(pack)), 1)
        floor += timed(lambda: draw_floor(prepared, out.with_suffix(".floor.pdf")), 1)
    return summary(ours, 1000 / n), summary(floor, 1000 / n)


def child_peak_rss(n: int, floor: bool = False) -> float:
    """Render N cards in a fresh process (ours, or the floor script) and report its peak
    resident memory in MB."""
    draw = ("draw_floor(prepare(p, s, faces_of(p, s)), Path(sys.argv[1])); " if floor else
            "write_home_sheets(p, faces_of(p, s), Path(sys.argv[1]), shared=s); ")
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from bench.run import *; "
            f"p = synthetic_pack({n}); s = CardShared(p); " + draw +
            # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the forking parent
            "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')))")
    with tempfile.TemporaryDirectory() as tmp:
        res = subprocess.run([sys.executable, "-c", code, str(Path(tmp) / "big.pdf")], capture_output=True,
                             text=True, check=True, cwd=ROOT)
    return int(res.stdout.strip().splitlines()[-1]) / 1024


def kit_seconds(repeat: int):
    times = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "generator", "build", str(PACK_DIR), "-o", tmp],
                           check=True, capture_output=True, cwd=ROOT)
            times.append(time.perf_counter() - start)
    return summary(times, 1, 2)


def validate_rate(seconds: float = 1.0):
    pack = load_pack(PACK_DIR)
    builds = [load_build(p, pack) for p in pack.preset_files]
    rates = []
    for _ in range(5):
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / 5:
            for b in builds:
                validate_build(pack, b)
            count += len(builds)
        rates.append(count / (time.perf_counter() - start))
    return summary(rates, 1, 0)


def refusal_ms(repeat: int) -> dict:
    """How long the input limits take to refuse hostile input. The tests (tests/test_limits.py)
    bound the work a refusal does (values built, memory); the time is measured here."""
    bomb = "l0: &l0 [" + ", ".join(["lol"] * 10) + "]\n" + "".join(
        f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]\n" for i in range(1, 10))
    env = make_environment()

    def refuse(call):
        try:
            call()
        except Exception:  # every case below must be refused (InputError, SecurityError)
            return
        raise RuntimeError("not refused")

    with tempfile.TemporaryDirectory() as tmp:
        huge = Path(tmp) / "huge.yaml"
        huge.write_text("a: 1\n" + "#" * (MAX_FILE_BYTES + 10), encoding="utf-8")
        cases = {
            "alias_bomb": lambda: refuse(lambda: parse_yaml(bomb, "bomb.yaml")),
            "oversized_file": lambda: refuse(lambda: load_yaml_file(huge)),
            "template_value": lambda: refuse(lambda: env.from_string("{{ 'x' * 10 ** 9 }}").render()),
        }
        return {name: summary(timed(case, repeat), 1000, 1) for name, case in cases.items()}


def map_check_seconds(repeat: int):
    """CPU seconds to check a 100 × 100 hex map (the 10,000-hex limit) with Boss Fight's
    footprints, in the rules' setup (the boss stands anywhere it fits)."""
    from generator.maps import validate_map
    pack = load_pack(PACK_DIR)
    hexes = [[q, r] for q in range(100) for r in range(100)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.yaml"
        path.write_text(f"title: Big\norientation: pointy\nhex_size: 25.4\nshape:\n  hexes: {hexes}\n"
                        "obstacles: [[3, 3], [50, 50], [70, 20]]\n", encoding="utf-8")
        times = []
        for _ in range(repeat):  # CPU time: the wall clock of a shared machine says more about the neighbours
            start = time.process_time()
            validate_map(pack, path)
            times.append(time.process_time() - start)
        return summary(times, 1, 2)


def rebuild_seconds(repeat: int, cards: int = 900):
    """Edit one card's text under `pnp watch` in a pack of `cards` cards (bench/bigpack.py)
    and time until cards.pdf is rewritten; also how many of the rebuilds redrew only the edited
    card's sheet (render/cards/redraw.py) rather than the whole file."""
    from bench.bigpack import make_big_pack
    times, quick = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / "pack"
        make_big_pack(cards, pack)
        out = Path(tmp) / "out"
        proc = subprocess.Popen([sys.executable, "-m", "generator", "watch", str(pack), "-o", str(out)],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            _wait_for(proc, "watching")
            target = out / "cards.pdf"
            card_file = pack / "cards" / "neutral.yaml"
            for _ in range(repeat):
                before = target.stat().st_mtime_ns
                text = card_file.read_text(encoding="utf-8")  # "Move up to 2 :hex:." <-> 3: a change on the card
                text = re.sub(r'(id: walk\n(?:.*\n)*?\s+text: "Move up to )(\d)',
                              lambda m: m.group(1) + ("3" if m.group(2) == "2" else "2"), text, count=1)
                time.sleep(0.3)  # let the watcher settle after the previous rebuild
                start = first = time.perf_counter()
                card_file.write_text(text, encoding="utf-8")
                while target.stat().st_mtime_ns == before:
                    if time.perf_counter() - start > 60:  # an event lost by the OS: save again
                        start = time.perf_counter()
                        card_file.write_text(text, encoding="utf-8")
                    if time.perf_counter() - first > 180:
                        raise RuntimeError("watch did not rebuild within 180 s")
                    time.sleep(0.005)
                times.append(time.perf_counter() - start)
                quick += any(line.startswith("redrew sheet") for line in _wait_for(proc, "rebuilt"))
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return summary(times, 1, 3), quick


def _wait_for(proc, word: str) -> list[str]:
    """The watcher's lines up to the first holding `word`."""
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if word in line:
            return seen
    raise RuntimeError(f"watch ended before printing {word!r}")


def main() -> None:
    from bench.sheets import load_ms_per_card
    if sys.argv[1:3] == ["--only", "startup"]:  # just the start-up figures, printed, results.json untouched
        print_startup(startup())
        return
    if sys.argv[1:3] == ["--only", "watch"]:  # just the watch figure, printed, results.json untouched
        print(json.dumps(rebuild_seconds(5), indent=2))
        return
    if sys.argv[1:3] == ["--only", "sheets"]:  # just the spreadsheet figure, printed, results.json untouched
        print(json.dumps(load_ms_per_card(10000, 3), indent=2))
        return
    quick = "--quick" in sys.argv
    repeat = 3 if quick else 5
    results = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]}}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cards.pdf"
        results["ms_per_card"], results["floor_ms_per_card"] = {}, {}
        for n in SIZES:
            reps = 3 if n >= 10000 else repeat
            ours, floor = render_ms_per_card(n, reps, out)
            results["ms_per_card"][str(n)] = ours
            results["floor_ms_per_card"][str(n)] = floor
    results["ratio"] = {str(n): round(results["ms_per_card"][str(n)]["median"]
                                      / results["floor_ms_per_card"][str(n)]["median"], 3) for n in SIZES}
    results["kit_seconds"] = kit_seconds(3)
    results["peak_rss_mb"], results["floor_peak_rss_mb"] = {}, {}
    for n in MEMORY_SIZES:
        runs = 1 if n > 10000 else 3
        ours, floor = [], []
        for _ in range(runs):
            ours.append(child_peak_rss(n))
            floor.append(child_peak_rss(n, floor=True))
        results["peak_rss_mb"][str(n)] = summary(ours, 1, 1)
        results["floor_peak_rss_mb"][str(n)] = summary(floor, 1, 1)
    results["memory_ratio"] = {n: round(results["peak_rss_mb"][n]["median"] / results["floor_peak_rss_mb"][n]["median"],
                                        2) for n in results["peak_rss_mb"]}
    results["map_check_seconds_10000_hexes"] = map_check_seconds(3)
    results["validate_builds_per_second"] = validate_rate()
    results["rebuild_seconds"], results["rebuild_redrew_one_sheet"] = rebuild_seconds(5)
    results["refusal_ms"] = refusal_ms(repeat)
    results["load_ms_per_card_10000"] = load_ms_per_card(10000, 3)  # cards in YAML vs in one sheet
    results["startup"] = startup()
    results["targets"] = {"ratio": 1.1, "kit_seconds": 3, "memory_ratio": 1.5, "rebuild_seconds": 0.3}
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print_table(results)


def print_table(results: dict) -> None:
    rows = []
    for n, s in results["ms_per_card"].items():
        rows.append((f"ms_per_card @ {n}", s))
    for n, s in results["floor_ms_per_card"].items():
        rows.append((f"floor_ms_per_card @ {n}", s))
    for key in ("peak_rss_mb", "floor_peak_rss_mb"):
        for n, s in results[key].items():
            rows.append((f"{key} @ {n}", s))
    for key in ("kit_seconds", "validate_builds_per_second", "rebuild_seconds", "map_check_seconds_10000_hexes"):
        rows.append((key, results[key]))
    for name, s in results.get("refusal_ms", {}).items():
        rows.append((f"refusal_ms {name}", s))
    for fmt, s in results.get("load_ms_per_card_10000", {}).items():
        rows.append((f"load_ms_per_card @ 10000 {fmt}", s))
    print(f"{'figure':32} {'median':>10} {'min':>10} {'max':>10}  runs")
    for name, s in rows:
        print(f"{name:32} {s['median']:>10} {s['min']:>10} {s['max']:>10}  {s['runs']}")
    t = results["targets"]
    for n, r in results["ratio"].items():
        print(f"{'ratio (ours / floor @ ' + n + ')':32} {r:>10}   target ≤ {t['ratio']}")
    for n, r in results["memory_ratio"].items():
        print(f"{'memory (ours / floor @ ' + n + ')':32} {r:>10}   target ≤ {t['memory_ratio']}")
    print(f"{'watch rebuild, 900 cards (s)':32} {results['rebuild_seconds']['median']:>10}   "
          f"target ≤ {t['rebuild_seconds']}; {results.get('rebuild_redrew_one_sheet', 0)} of "
          f"{results['rebuild_seconds']['runs']} redrew only the edited sheet")
    if "startup" in results:
        print_startup(results["startup"])


if __name__ == "__main__":
    main()
