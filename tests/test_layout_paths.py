"""A LayoutSet resolves each layout name's file once (it lives for one build); the next build's
set sees files added or removed since."""

from generator.render.base.layout import LayoutSet


def test_a_layout_name_is_resolved_once_per_set_and_afresh_by_the_next(tmp_path):
    (tmp_path / "base.yaml").write_text("elements: []\n", encoding="utf-8")
    first = LayoutSet([tmp_path])
    assert first.path_of("base") == tmp_path / "base.yaml"
    assert first.path_of("hero") is None
    (tmp_path / "hero.yaml").write_text("elements: []\n", encoding="utf-8")
    (tmp_path / "base.yaml").unlink()
    assert first.path_of("hero") is None  # this build's answer stands
    second = LayoutSet([tmp_path])  # the next build (pnp watch makes a new one per rebuild)
    assert second.path_of("hero") == tmp_path / "hero.yaml"
    assert second.path_of("base") is None


def test_names_that_are_paths_are_never_looked_up(tmp_path):
    sets = LayoutSet([tmp_path])
    (tmp_path.parent / "outside.yaml").write_text("elements: []\n", encoding="utf-8")
    assert sets.path_of("../outside") is None
    assert sets.path_of(None) is None
