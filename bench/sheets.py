"""Bench figure: milliseconds per card to load a pack whose cards are in a 10,000-row sheet
(.xlsx, .ods, .csv) against the same cards in YAML files."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import yaml

from generator.pack.load import load_pack
from generator.pack.sheets.write import card_values, export_pack

ROOT = Path(__file__).resolve().parents[1]
PACK_DIR = ROOT / "card_data" / "boss_fight"
PER_YAML_FILE = 1500  # YAML card files stay under the loader's 2 MiB limit


def _cards(n: int):
    """N variations of Boss Fight's cards (unique ids and names), as YAML-ready mappings."""
    pack = load_pack(PACK_DIR)
    base = sorted(pack.cards.values(), key=lambda c: c.order)
    out = []
    for i in range(n):
        src = base[i % len(base)]
        values = {k: v for k, v in card_values(src, pack.spec).items() if v not in (None, "")}
        values.update(id=f"{src.id}-{i}", name=f"{src.name[:60]} {i}", points=src.points + i % 3)
        values.pop("created_by", None)  # the ids it names are renamed too
        out.append(values)
    return pack, out


def _median_ms_per_card(fn, n: int, repeat: int) -> dict:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000 / n)
    times.sort()
    return {"median": round(times[len(times) // 2], 4), "min": round(times[0], 4), "max": round(times[-1], 4),
            "runs": repeat}


def load_ms_per_card(n: int = 10000, repeat: int = 3) -> dict:
    pack, cards = _cards(n)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        yaml_pack = Path(tmp) / "yaml"
        shutil.copytree(PACK_DIR, yaml_pack)
        for path in (yaml_pack / "cards").iterdir():
            path.unlink()
        for k in range(0, n, PER_YAML_FILE):
            text = yaml.safe_dump({"cards": cards[k:k + PER_YAML_FILE]}, sort_keys=False, allow_unicode=True)
            (yaml_pack / "cards" / f"cards-{k // PER_YAML_FILE:02d}.yaml").write_text(text, encoding="utf-8")
        loaded = load_pack(yaml_pack)
        assert len(loaded.cards) == n
        results["yaml"] = _median_ms_per_card(lambda: load_pack(yaml_pack), n, repeat)
        for fmt in ("xlsx", "ods", "csv"):
            sheet_pack = Path(tmp) / fmt
            shutil.copytree(yaml_pack, sheet_pack)
            for path in (sheet_pack / "cards").iterdir():
                path.unlink()
            export_pack(loaded, sheet_pack / "cards" / f"cards.{fmt}")
            assert len(load_pack(sheet_pack).cards) == n
            results[fmt] = _median_ms_per_card(lambda p=sheet_pack: load_pack(p), n, repeat)
    return results


if __name__ == "__main__":
    import json
    print(json.dumps(load_ms_per_card(), indent=2))
