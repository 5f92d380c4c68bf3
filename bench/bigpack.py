"""A big pack on disk for timing whole builds: a copy of card_data/boss_fight whose card
files are repeated (ids and names suffixed) until the pack holds about N cards. With `vary`
(`--vary`), each copy's rules text also gains a sentence of its own, so no two cards of the
deck set the same text (as in a real deck of that size: nothing a text cache keeps is reused).
With `printed` (`--printed`), N counts printed cards (kit copies included) and every card
states the copies the kit prints of it (`copies:`, worked out by the pack's own rule once,
here), so the floor script (bench/floor.py) draws as many cards as `pnp build`.

    python bench/bigpack.py 9000 /tmp/big9k --vary --printed   # then: pnp build /tmp/big9k -o OUT
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "card_data" / "boss_fight"


WORDS = "swift heavy burning shadowed ancient gleaming brittle hungry silent".split()


def _varied(text: str, i: int) -> str:
    extra = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(1 + i % 7))
    return f"{text} Then deal :damage:{i % 4 + 1} to a {extra} foe within {i % 5 + 1} :hex: of you."


def _kit_copies() -> dict[str, int]:
    """The copies the kit prints of each card of the source pack (a type's `kit_copies` may be
    `table`: worked out from the pack's rules)."""
    from generator.pack.load import load_pack  # here: the bench's runner imports this module small
    return {card.id: card.copies for card in load_pack(SOURCE).cards.values()}


def make_big_pack(n: int, dest: Path, vary: bool = False, printed: bool = False) -> int:
    """Write the copy into `dest` (replaced if it exists); returns the number of cards: card
    entries, or (`printed`, `--printed`) cards printed, each entry's copies counted."""
    dest = Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(SOURCE, dest)
    files = sorted((dest / "cards").glob("*.yaml"))
    docs = {f: yaml.safe_load(f.read_text(encoding="utf-8")) for f in files}
    if printed:  # the pack's own files rewritten with their copies (pnp watch's bench edits them as written)
        copies = _kit_copies()
        for f, doc in docs.items():
            for c in doc.get("cards") or []:
                c.setdefault("copies", copies[c["id"]])
            f.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")

    def weight(card: dict) -> int:
        return int(card["copies"]) if printed else 1

    total = sum(weight(c) for d in docs.values() for c in d.get("cards") or [])
    copy = 1
    while total < n:
        for f, doc in docs.items():
            cards = []
            for c in doc.get("cards") or []:
                if total >= n:
                    break
                c = dict(c, id=f"{c['id']}-x{copy}", name=f"{c['name']} {copy}")
                if vary and c.get("text"):
                    c["text"] = _varied(c["text"], total)
                cards.append(c)
                total += weight(c)
            if cards:
                out = dest / "cards" / f"x{copy:04d}-{f.name}"
                out.write_text(yaml.safe_dump({"cards": cards}, sort_keys=False, allow_unicode=True),
                               encoding="utf-8")
        copy += 1
    return total


if __name__ == "__main__":
    print(make_big_pack(int(sys.argv[1]), Path(sys.argv[2]), vary="--vary" in sys.argv[3:],
                        printed="--printed" in sys.argv[3:]))
