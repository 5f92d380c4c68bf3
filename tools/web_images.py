"""The deck builder's pictures in the README (docs/images/web-*.png): runs the browser tests
with PNP_SCREENSHOTS set, then crops the chosen screenshots to their top part.

    .venv/bin/python tools/web_images.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parents[1]
# (screenshot, README picture, height kept in pixels)
CHOSEN = [("editor-over-limit-desktop", "web-editor.png", 820),
          ("editor-legal-phone", "web-phone.png", 1100),
          ("shared-desktop", "web-shared.png", 640),
          ("import-did-you-mean-desktop", "web-import.png", 560),
          ("map-fit-desktop", "web-map.png", 1000),
          ("picker-preview-desktop-desktop", "web-picker.png", 900),
          ("characters-raid_boss-party-desktop-desktop", "web-party.png", 820),
          ("phone-picker", "web-phone-picker.png", 844),
          ("rules-boss_fight-phone", "web-rules.png", 844),
          ("rules-search-boss_fight-phone", "web-rules-search.png", 844),
          ("odds-boss_fight", "web-odds.png", 560),
          ("editor-german-desktop", "web-editor-de.png", 640)]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="pnp-shots-") as tmp:
        env = dict(os.environ, PNP_SCREENSHOTS=tmp)
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "tests/test_web_browser.py",
                        "tests/test_web_builder.py", "tests/test_web_flows.py", "-k",
                        "new_player or map_page or (full and desktop-raid_boss-party) or picker_shows or verdict_stays"
                        " or (rules_as and boss_fight-phone) or (draw_odds and boss_fight) or editor_in_german"],
                       cwd=REPO, env=env, check=True)
        for shot, name, height in CHOSEN:
            image = Image.open(Path(tmp) / f"{shot}.png")
            image = image.crop((0, 0, image.width, min(height, image.height)))
            image.save(REPO / "docs" / "images" / name, optimize=True)
            print(f"docs/images/{name}: {image.width} × {image.height}")


if __name__ == "__main__":
    main()
