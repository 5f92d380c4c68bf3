"""The benchmark behind `make bench`: what the user waits for, timed as whole processes.

First (bench/whole.py) the commands the README gives, each against the floor in the same run:
`pnp build PACK --only cards` against a plain PyYAML + ReportLab script drawing the same pack
(bench/floor.py) at 900 and 9,000 cards, with peak memory; the whole Boss Fight kit against the
floor's 900 cards; `pnp validate PACK` against `pnp build PACK --only cards`. Then start-up
(bench/startup.py): `pnp --version` and `pnp validate BUILD` against bare imports, and `pnp serve`
to its first page. The parts come beside, never instead: what each file of the kit took (its
`wrote` line), and in-process figures (builds validated per second, a 10,000-hex map check,
refusing hostile input, loading 10,000 cards from YAML and sheets) and the time from saving a
card to the new cards.pdf under `pnp watch`.

Every figure is the median of several runs with min and max. Results go to
bench/results.json and a table on stdout. Run from the repository root. Nothing of the
generator is imported before the whole processes are measured (bench/whole.py says why).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.startup import print_startup, startup  # noqa: E402
from bench.whole import print_whole, whole_process  # noqa: E402

PACK_DIR = ROOT / "card_data" / "boss_fight"


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


def validate_rate(seconds: float = 1.0):
    from generator.pack.load import load_build, load_pack
    from generator.rules.engine import validate_build
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
    from generator.core.yamlio import MAX_FILE_BYTES, load_yaml_file, parse_yaml
    from generator.render.base.layout import make_environment
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
    from generator.pack.load import load_pack
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
    if sys.argv[1:3] == ["--only", "startup"]:  # just the start-up figures, printed, results.json untouched
        print_startup(startup())
        return
    if sys.argv[1:3] == ["--only", "whole"]:  # just the whole-process figures, printed, results.json untouched
        print_whole(whole_process(quick="--quick" in sys.argv))
        return
    if sys.argv[1:3] == ["--only", "watch"]:  # just the watch figure, printed, results.json untouched
        print(json.dumps(rebuild_seconds(5), indent=2))
        return
    from bench.sheets import load_ms_per_card
    if sys.argv[1:3] == ["--only", "sheets"]:  # just the spreadsheet figure, printed, results.json untouched
        print(json.dumps(load_ms_per_card(10000, 3), indent=2))
        return
    quick = "--quick" in sys.argv
    repeat = 3 if quick else 5
    results: dict = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                                 "load_before": round(os.getloadavg()[0], 2)}}
    results["whole"] = whole_process(quick)  # first, while this process is small (bench/whole.py)
    print_whole(results["whole"])
    print(json.dumps(results["whole"]), flush=True)  # kept on the screen should a later part fail
    results["startup"] = startup()
    # the parts, beside the whole: in this process from here on
    results["map_check_seconds_10000_hexes"] = map_check_seconds(3)
    results["validate_builds_per_second"] = validate_rate()
    results["rebuild_seconds"], results["rebuild_redrew_one_sheet"] = rebuild_seconds(5)
    results["refusal_ms"] = refusal_ms(repeat)
    results["load_ms_per_card_10000"] = load_ms_per_card(10000, 3)  # cards in YAML vs in one sheet
    results["targets"] = {"rebuild_seconds": 0.3}
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print_table(results)


def print_table(results: dict) -> None:
    print_startup(results["startup"])
    rows = []
    for key in ("validate_builds_per_second", "rebuild_seconds", "map_check_seconds_10000_hexes"):
        rows.append((key, results[key]))
    for name, s in results.get("refusal_ms", {}).items():
        rows.append((f"refusal_ms {name}", s))
    for fmt, s in results.get("load_ms_per_card_10000", {}).items():
        rows.append((f"load_ms_per_card @ 10000 {fmt}", s))
    print(f"\n{'parts, in process':32} {'median':>10} {'min':>10} {'max':>10}  runs")
    for name, s in rows:
        print(f"{name:32} {s['median']:>10} {s['min']:>10} {s['max']:>10}  {s['runs']}")
    print(f"{'watch rebuild, 900 cards (s)':32} {results['rebuild_seconds']['median']:>10}   "
          f"target ≤ {results['targets']['rebuild_seconds']}; {results.get('rebuild_redrew_one_sheet', 0)} of "
          f"{results['rebuild_seconds']['runs']} redrew only the edited sheet")


if __name__ == "__main__":
    main()
