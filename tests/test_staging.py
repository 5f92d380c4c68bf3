"""core/staging.py: outputs finished inside a build wait for the whole build; outside one they
land at once; and the stage belongs to the thread (or task) that opened it."""

from __future__ import annotations

import threading
from pathlib import Path

from generator.core import staging


def _tmp_file(folder: Path, name: str) -> tuple[Path, Path]:
    final = folder / name
    tmp = folder / (staging.temp_prefix(name) + "part")
    tmp.write_text(name)
    return tmp, final


def test_outside_a_build_an_output_lands_at_once(tmp_path):
    tmp, final = _tmp_file(tmp_path, "cards.pdf")
    assert tmp.name.startswith(".cards.pdf.") and "pnp" not in tmp.name
    staging.finish(tmp, final)
    assert final.read_text() == "cards.pdf" and not tmp.exists()


def test_inside_a_build_outputs_wait_for_commit_and_carry_the_token(tmp_path):
    with staging.staged("pnpcafe0001") as stage:
        tmp, final = _tmp_file(tmp_path, "cards.pdf")
        assert ".pnpcafe0001." in tmp.name
        staging.finish(tmp, final)
        with staging.unstaged():  # a work file inside the build is written at once
            work_tmp, work = _tmp_file(tmp_path, "work.pdf")
            staging.finish(work_tmp, work)
    assert not final.exists() and work.exists()
    staging.commit(stage.pending)
    assert final.read_text() == "cards.pdf"


def test_each_thread_stages_on_its_own(tmp_path):
    """The web builder makes PDFs on worker threads: one request's build must not catch another
    thread's outputs, nor leave its stage behind for the next."""
    inside, seen = threading.Barrier(2), {}

    def build(token: str | None):
        if token is None:  # a roster: nothing staged, written at once
            inside.wait()
            tmp, final = _tmp_file(tmp_path, "roster.pdf")
            staging.finish(tmp, final)
            seen["roster"] = final.exists()
            return
        with staging.staged(token) as stage:
            inside.wait()
            tmp, final = _tmp_file(tmp_path, "kit.pdf")
            staging.finish(tmp, final)
            seen["kit"] = [Path(f).name for _t, f, _d in stage.pending]

    threads = [threading.Thread(target=build, args=(t,)) for t in ("pnpbeef0002", None)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"roster": True, "kit": ["kit.pdf"]}
    assert staging.temp_prefix("x") == ".x."  # nothing left staged here
