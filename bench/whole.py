"""Whole processes, as the user runs them, against the floor in the same run.

- `pnp build PACK --only cards` against `python bench/floor.py PACK OUT.pdf` (the same pack
  folder, read and drawn by a plain PyYAML + ReportLab script) at 900 and 9,000 printed cards
  (bench/bigpack.py, every card's text its own, kit copies counted): wall time and peak memory;
- the whole Boss Fight kit (`pnp build card_data/boss_fight`) against the floor's 900 cards;
- `pnp validate PACK` against `pnp build PACK --only cards`, on Boss Fight and on the 900-card pack.

pnp keeps what it made for the next run in a cache folder ($PNP_CACHE_DIR: compiled templates
and expressions, parsed Markdown blocks, icon outlines); every command here gets one of this run's
own, filled by the warm-up round, and the kit's three commands run again with it empty each
time, as on the first run after an install, so both figures are printed.

The three commands of a size run in turn, A B C A B C ..., so each comparison sees the same
machine while its speed drifts; every ratio is the median of the runs' own ratios, of wall
time (the targets) and, beside it, of CPU time (user + system: steadier when other work
shares the machine). The
breakdown (what each output file of the kit took, from its `wrote ...` line) is printed beside
the whole-process figures, never instead of them.

Peak memory is the kernel's own accounting of each finished process (`os.wait4`). On Linux a
child's peak starts from its parent's size at spawn, so this module imports nothing but the
standard library: the process spawning the commands stays far smaller than any of them.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KIT = ROOT / "card_data" / "boss_fight"
SIZES = (900, 9000)
CODES = {"pnp_validate": (0, 1)}  # validate says 1 when it finds something to report
TARGETS = {"cards_ratio": {"900": 1.2, "9000": 1.1}, "memory_ratio_9000": 1.5, "kit_vs_floor_900": 1.0,
           "validate_vs_build": 1.5}


def pnp() -> list[str]:
    script = Path(sys.executable).with_name("pnp")  # the installed command, as a user runs it
    return [str(script)] if script.exists() else [sys.executable, "-m", "generator"]


def run(argv: list[str], cwd: Path = ROOT, codes: tuple[int, ...] = (0,),
        cache: Path | None = None) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (user + system), peak resident MB and stdout of one whole process;
    `cache`: the folder pnp keeps what it made for the next run in ($PNP_CACHE_DIR: compiled
    templates and expressions, parsed Markdown blocks, icon outlines)."""
    env = None if cache is None else {**os.environ, "PNP_CACHE_DIR": str(cache)}
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    out = proc.stdout.read() if proc.stdout else ""
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in codes:  # a failed run times nothing worth quoting
        raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


def summary(values: list[float], digits: int = 2) -> dict:
    return {"median": round(statistics.median(values), digits), "min": round(min(values), digits),
            "max": round(max(values), digits), "runs": len(values)}


def interleaved(commands: dict[str, list[str]], repeat: int, warm: bool = True, cwd: Path = ROOT,
                cache: Path | None = None, cold: frozenset[str] = frozenset()) -> dict[str, dict[str, list]]:
    """Each command run `repeat` times in turn (after one unmeasured round, with `warm`, that
    fills the disk cache and pnp's cache folder `cache`): wall and CPU seconds, peak MB and
    stdout of every run. The commands named in `cold` get an empty cache folder each run, as
    the first run after an install or an upgrade (or a new chapter, layout or icon) has."""
    def folder(name: str) -> Path | None:
        return Path(tempfile.mkdtemp(dir=cache)) if cache is not None and name in cold else cache
    for name, argv in commands.items() if warm else ():
        run(argv, cwd, CODES.get(name, (0,)), folder(name))
    got: dict[str, dict[str, list]] = {name: {"wall": [], "cpu": [], "peak": [], "out": []} for name in commands}
    for _ in range(repeat):
        for name, argv in commands.items():
            wall, cpu, peak, out = run(argv, cwd, CODES.get(name, (0,)), folder(name))
            got[name]["wall"].append(wall)
            got[name]["cpu"].append(cpu)
            got[name]["peak"].append(peak)
            got[name]["out"].append(out)
    return got


def ratio(a: list[float], b: list[float]) -> float:
    """The median of the runs' own ratios (run i of A over run i of B)."""
    return round(statistics.median(x / y for x, y in zip(a, b)), 3)


def wrote_parts(out: str) -> dict[str, float]:
    """The seconds each output file took, from `pnp build`'s `wrote PATH (..., 1.23 s)` lines."""
    parts = {}
    for m in re.finditer(r"^wrote (\S+) \(.*?([\d.]+) s\)$", out, re.M):
        parts[Path(m.group(1)).name] = float(m.group(2))
    return parts


def whole_process(quick: bool = False, sizes: tuple[int, ...] = SIZES) -> dict:
    """The figures above; the kit and `validate` are compared at the first of `sizes`."""
    results: dict = {"cards": {}, "targets": TARGETS}
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        cache = tmpdir / "cache"  # pnp's cache folder, of this run alone (the user's is left alone)
        cache.mkdir(mode=0o700)
        for n in sizes:
            first = n == sizes[0]
            pack = tmpdir / f"pack{n}"
            # in a process of its own: it loads the pack (bench/bigpack.py), and this one stays small
            made = subprocess.run([sys.executable, str(ROOT / "bench" / "bigpack.py"), str(n), str(pack), "--vary",
                                   "--printed"],
                                  check=True, capture_output=True, text=True, cwd=ROOT)
            cards = int(made.stdout.split()[-1])
            commands = {"pnp_build": pnp() + ["build", str(pack), "--only", "cards", "-q", "-o", str(tmpdir / "o")],
                        "floor": [sys.executable, str(ROOT / "bench" / "floor.py"), str(pack), str(tmpdir / "f.pdf")]}
            if first:
                commands["pnp_validate"] = pnp() + ["validate", str(pack)]
            # 9,000 cards: the code, fonts and pack are in the disk cache from the rounds before
            got = interleaved(commands, 3 if n >= 9000 or quick else 5, warm=first, cache=cache)
            b, f = got["pnp_build"], got["floor"]
            row = {"card_entries": cards, "pnp_build_s": summary(b["wall"]), "floor_s": summary(f["wall"]),
                   "ratio": ratio(b["wall"], f["wall"]), "pnp_build_cpu_s": summary(b["cpu"]),
                   "floor_cpu_s": summary(f["cpu"]), "cpu_ratio": ratio(b["cpu"], f["cpu"]),
                   "pnp_build_mb": summary(b["peak"], 1),
                   "floor_mb": summary(f["peak"], 1), "memory_ratio": ratio(b["peak"], f["peak"]),
                   "cards_pdf_s": summary([wrote_parts(o).get("cards.pdf", 0.0) for o in b["out"]])}
            if "pnp_validate" in got:
                v = got["pnp_validate"]
                row["pnp_validate_s"] = summary(v["wall"])
                row["validate_vs_build"] = ratio(v["wall"], b["wall"])
                row["validate_vs_build_cpu"] = ratio(v["cpu"], b["cpu"])
            results["cards"][str(n)] = row
            if first:  # the whole kit against the floor's 900 cards, and validate against build on the kit
                kit = interleaved({
                    "kit": pnp() + ["build", str(KIT), "-q", "-o", str(tmpdir / "kit")],
                    "floor": commands["floor"],
                    "pnp_validate": pnp() + ["validate", str(KIT)],
                    "pnp_build_cards": pnp() + ["build", str(KIT), "--only", "cards", "-q", "-o", str(tmpdir / "kc")],
                    # the same three with pnp's cache folder empty, as on the first run after an install
                    "kit_cold": pnp() + ["build", str(KIT), "-q", "-o", str(tmpdir / "kit")],
                    "pnp_validate_cold": pnp() + ["validate", str(KIT)],
                    "pnp_build_cards_cold": pnp() + ["build", str(KIT), "--only", "cards", "-q", "-o", str(tmpdir / "kc")],
                }, 3 if quick else 5, cache=cache, cold=frozenset({"kit_cold", "pnp_validate_cold", "pnp_build_cards_cold"}))
                parts = [wrote_parts(o) for o in kit["kit"]["out"]]
                results["kit"] = {
                    "floor_cards": n, "kit_s": summary(kit["kit"]["wall"]), "floor_s": summary(kit["floor"]["wall"]),
                    "kit_vs_floor": ratio(kit["kit"]["wall"], kit["floor"]["wall"]),
                    "kit_cpu_s": summary(kit["kit"]["cpu"]), "floor_cpu_s": summary(kit["floor"]["cpu"]),
                    "kit_vs_floor_cpu": ratio(kit["kit"]["cpu"], kit["floor"]["cpu"]),
                    "kit_mb": summary(kit["kit"]["peak"], 1),
                    "pnp_validate_s": summary(kit["pnp_validate"]["wall"]),
                    "pnp_build_cards_s": summary(kit["pnp_build_cards"]["wall"]),
                    "cold": {"kit_s": summary(kit["kit_cold"]["wall"]),
                             "kit_vs_floor": ratio(kit["kit_cold"]["wall"], kit["floor"]["wall"]),
                             "kit_vs_floor_cpu": ratio(kit["kit_cold"]["cpu"], kit["floor"]["cpu"]),
                             "pnp_validate_s": summary(kit["pnp_validate_cold"]["wall"]),
                             "pnp_build_cards_s": summary(kit["pnp_build_cards_cold"]["wall"]),
                             "validate_vs_build": ratio(kit["pnp_validate_cold"]["wall"],
                                                        kit["pnp_build_cards_cold"]["wall"]),
                             "validate_vs_build_cpu": ratio(kit["pnp_validate_cold"]["cpu"],
                                                            kit["pnp_build_cards_cold"]["cpu"])},
                    "validate_vs_build": ratio(kit["pnp_validate"]["wall"], kit["pnp_build_cards"]["wall"]),
                    "validate_vs_build_cpu": ratio(kit["pnp_validate"]["cpu"], kit["pnp_build_cards"]["cpu"]),
                    "parts_s": {name: round(statistics.median(p.get(name, 0.0) for p in parts), 2)
                                for name in sorted(set().union(*parts))},
                }
    return results


def print_whole(r: dict) -> None:
    t = r["targets"]
    print(f"{'whole processes (wall)':34} {'ours':>9} {'floor':>9} {'ratio':>7}  target   (CPU ratio)")
    for n, row in r["cards"].items():
        print(f"{'pnp build --only cards @ ' + n:34} {row['pnp_build_s']['median']:>8}s {row['floor_s']['median']:>8}s "
              f"{row['ratio']:>7}  ≤ {t['cards_ratio'].get(n, '-')}    ({row['cpu_ratio']})")
        print(f"{'  peak memory @ ' + n:34} {row['pnp_build_mb']['median']:>7}MB {row['floor_mb']['median']:>7}MB "
              f"{row['memory_ratio']:>7}  {'≤ ' + str(t['memory_ratio_9000']) if n == '9000' else ''}")
        print(f"{'  breakdown: cards.pdf written in':34} {row['cards_pdf_s']['median']:>8}s")
        if "pnp_validate_s" in row:
            print(f"{'pnp validate PACK @ ' + n + ' / build':34} {row['pnp_validate_s']['median']:>8}s "
                  f"{row['pnp_build_s']['median']:>8}s {row['validate_vs_build']:>7}  ≤ {t['validate_vs_build']}"
                  f"    ({row['validate_vs_build_cpu']})")
    k = r["kit"]
    print(f"{'Boss Fight kit / floor @ ' + str(k['floor_cards']):34} {k['kit_s']['median']:>8}s "
          f"{k['floor_s']['median']:>8}s {k['kit_vs_floor']:>7}  < {t['kit_vs_floor_900']}    ({k['kit_vs_floor_cpu']})")
    print(f"{'  breakdown, by file:':34} " + ", ".join(f"{name} {s} s" for name, s in k["parts_s"].items()))
    print(f"{'pnp validate kit / build --only cards':34} {k['pnp_validate_s']['median']:>8}s "
          f"{k['pnp_build_cards_s']['median']:>8}s {k['validate_vs_build']:>7}  ≤ {t['validate_vs_build']}"
          f"    ({k['validate_vs_build_cpu']})")
    c = k["cold"]  # pnp's cache folder empty each run: the first run after an install
    print(f"{'  cache empty: kit / floor':34} {c['kit_s']['median']:>8}s {k['floor_s']['median']:>8}s "
          f"{c['kit_vs_floor']:>7}           ({c['kit_vs_floor_cpu']})")
    print(f"{'  cache empty: validate / build':34} {c['pnp_validate_s']['median']:>8}s "
          f"{c['pnp_build_cards_s']['median']:>8}s {c['validate_vs_build']:>7}           ({c['validate_vs_build_cpu']})")


if __name__ == "__main__":
    import json
    sys.path.insert(0, str(ROOT))
    given = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--sizes=")]  # e.g. --sizes=90,900
    res = whole_process(quick="--quick" in sys.argv,
                        sizes=tuple(int(v) for v in given[0].split(",")) if given else SIZES)
    print(json.dumps(res, indent=2))
    print_whole(res)
