"""CMYK art under an ink limit (export/cmyk.py:limit_image_ink), checked pixel by pixel against
the rule in plain Python: the total stays within the limit, K and in-limit pixels are kept, and
over-limit pixels keep their hue (C, M and Y scaled by one factor, rounded down)."""

import random

import pytest
from PIL import Image

from generator.export.cmyk import limit_image_ink


def _image(seed: int, size=(23, 17)) -> Image.Image:
    rng = random.Random(seed)
    img = Image.new("CMYK", size)
    # a mix of light, heavy and edge pixels (0, 255, a full rich black)
    choices = [0, 1, 128, 200, 254, 255]
    img.putdata([tuple(rng.choice(choices) if rng.random() < 0.3 else rng.randrange(256) for _ in range(4))
                 for _ in range(size[0] * size[1])])
    return img


def _pixels(img):
    return list(img.get_flattened_data() if hasattr(img, "get_flattened_data") else img.getdata())


@pytest.mark.parametrize("limit", [1.0, 2.4, 2.8, 3.2])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_pixel_ends_within_the_limit_and_keeps_its_black_and_hue(seed, limit):
    before = _image(seed)
    after = limit_image_ink(before, limit)
    assert after.mode == "CMYK" and after.size == before.size
    cap = limit * 255
    changed = 0
    for (c, m, y, k), (c2, m2, y2, k2) in zip(_pixels(before), _pixels(after)):
        assert k2 == k
        if c + m + y + k <= cap or c + m + y == 0:
            assert (c2, m2, y2) == (c, m, y)
            continue
        changed += 1
        assert c2 + m2 + y2 + k2 <= cap + 1e-9
        scale = max(0.0, cap - k) / (c + m + y)
        for old, new in ((c, c2), (m, m2), (y, y2)):
            exact = old * scale
            assert new <= exact + 1e-3 and new >= exact - 1 - 1e-3, (old, new, scale)
    assert changed  # the test images do go over every limit tried


def test_an_image_within_the_limit_comes_back_unchanged():
    img = Image.new("CMYK", (5, 5), (60, 60, 60, 60))
    assert limit_image_ink(img, 2.4).tobytes() == img.tobytes()
