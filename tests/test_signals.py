"""A build stops cleanly on SIGTERM or SIGINT, to it or to its process group, at any moment:
the signal is swept over the build at points found by polling its progress (workers started,
temporary files made), and each time the build ends with 143/130 (or, past its last rename,
with the new kit), its workers are gone, no temporary file is left and the previous outputs
are byte-identical. A SIGKILLed build's leftovers are cleaned by the next build; Ctrl-C while
any command starts gives no traceback."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
STOPPED_WITHIN = 10.0  # seconds; the goal is 2 (see the report), slack for a loaded test machine
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def state(folder: Path) -> dict:
    if not folder.exists():
        return {}
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(folder.rglob("*"))}


def temp_files(folder: Path) -> list[str]:
    return [p.name for p in folder.rglob(".*")] if folder.exists() else []


def poll(what, deadline_s: float = 60.0, proc=None) -> bool:
    """Wait until `what()` holds (True) or the process ends / the deadline passes (False)."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if what():
            return True
        if proc is not None and proc.poll() is not None:
            return False
        time.sleep(0.005)
    return False


def descendants(pid: int) -> set[int]:
    parents = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                parents[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive_with(needle: str) -> list[int]:
    """Processes (not zombies) whose command line names `needle`: a build and its forked workers."""
    pids = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            if needle.encode() in (d / "cmdline").read_bytes() and \
                    (d / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                pids.append(int(d.name))
        except OSError:
            continue
    return pids


def start_build(pack: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "generator", "build", str(pack), "-o", str(out)], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


@contextlib.contextmanager
def running_build(pack: Path, out: Path):
    """A build in a session of its own, killed with its workers if the test leaves it running."""
    proc = start_build(pack, out)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """A copy of Boss Fight, its kit as built before a change (old) and after it (new)."""
    base = tmp_path_factory.mktemp("signals")
    pack = base / "boss_fight"
    shutil.copytree(REPO / "card_data" / "boss_fight", pack)
    old = base / "old"
    assert start_build(pack, old).wait(timeout=300) == 0
    heroes = pack / "cards" / "heroes.yaml"
    heroes.write_text(heroes.read_text().replace("She has held worse doors", "She has held stranger doors"))
    new = base / "new"
    assert start_build(pack, new).wait(timeout=300) == 0
    assert state(old) != state(new) and len(state(old)) == 7  # six PDFs and CREDITS.txt
    return pack, old, new, base


MARKERS = ["_yaml", "_pydantic_core", "_rl_accel", "_elementtree", "_json"]  # libraries loaded as pnp starts


def loaded(pid: int, marker: str) -> bool:
    try:
        return marker in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


POINTS = {  # where in the build the signal goes: found by polling, never by a fixed sleep
    # our code runs (the interpreter's own start is earlier): pydantic's core loads with the pack's models
    # (not PyYAML, which a run whose files are all kept never loads: core/yamlio.py)
    "starting": lambda proc, out: loaded(proc.pid, "_pydantic_core"),
    "commands loaded": lambda proc, out: loaded(proc.pid, "_multiprocessing"),
    "workers started": lambda proc, out: len(descendants(proc.pid)) >= 2,
    "first temporary file": lambda proc, out: len(temp_files(out)) >= 1,
    "three temporary files": lambda proc, out: len(temp_files(out)) >= 3,
    "five temporary files": lambda proc, out: len(temp_files(out)) >= 5,
    "six temporary files": lambda proc, out: len(temp_files(out)) >= 6,  # all parts drawn: late
}


@pytest.mark.parametrize("point", list(POINTS))
@pytest.mark.parametrize("signum, group", [(signal.SIGTERM, True), (signal.SIGINT, True), (signal.SIGTERM, False)],
                         ids=["TERM-group", "INT-group", "TERM-build"])
def test_a_signal_at_any_point_stops_the_build_cleanly(kits, point, signum, group):
    pack, old, new, base = kits
    out = base / f"out-{point.replace(' ', '-')}-{signum}-{group}"
    shutil.copytree(old, out)
    with running_build(pack, out) as proc:
        reached = poll(lambda: POINTS[point](proc, out), proc=proc)
        if group:
            os.killpg(proc.pid, signum)
        else:
            os.kill(proc.pid, signum)
        sent = time.monotonic()
        code = proc.wait(timeout=STOPPED_WITHIN)
        took = time.monotonic() - sent
        stderr = proc.stderr.read()
    print(f"{point}: exit {code} {took:.2f} s after the signal")
    assert "Traceback" not in stderr, stderr
    assert poll(lambda: not alive_with(str(out)), 5.0), "a worker outlived the build"
    assert temp_files(out) == []
    after = state(out)
    if code == 0:  # the build had renamed its outputs before the signal: the new kit, whole
        assert after == state(new)
    else:
        assert code == 128 + signum, (code, stderr)
        assert after == state(old)  # previous outputs untouched
    if reached and point in ("workers started", "first temporary file"):
        assert code == 128 + signum  # in the middle of the build: it was stopped, not finished


def test_a_killed_build_leaves_no_worker_and_the_next_build_cleans_its_leftovers(kits):
    pack, old, new, base = kits
    out = base / "out-killed"
    shutil.copytree(old, out)
    with running_build(pack, out) as proc:
        assert poll(lambda: len(temp_files(out)) >= 2, proc=proc), "the build made no temporary file"
        os.kill(proc.pid, signal.SIGKILL)  # the build alone, as `kill -9 PID`
        assert proc.wait(timeout=STOPPED_WITHIN) == -signal.SIGKILL
        stderr = proc.stderr.read()
    assert poll(lambda: not alive_with(str(out)), 5.0), "the workers outlived a killed build"
    assert "Traceback" not in stderr and "Error" not in stderr, stderr  # the workers said nothing
    left = temp_files(out)
    assert left and all(".pnp" in name for name in left)  # a SIGKILL leaves them...
    done = start_build(pack, out)
    assert done.wait(timeout=300) == 0, done.stderr.read()
    assert temp_files(out) == [] and state(out) == state(new)  # ...and the next build removes them


def test_the_next_build_leaves_a_running_builds_files_alone(tmp_path):
    from generator.core import staging
    mine = tmp_path / f".cards.pdf.{staging.new_token()}.abc.pdf"  # this process is running
    mine.write_text("x")
    dead_pid = 2 ** 22 + 12345  # above the kernel's pid_max: no such process
    theirs = tmp_path / f".cards.pdf.pnp{dead_pid:x}xdeadbeef.abc.pdf"
    theirs.write_text("x")
    folder = tmp_path / "tts" / f".png.pnp{dead_pid:x}xdeadbeef.q1"
    folder.mkdir(parents=True)
    kept = tmp_path / ".hidden-notes.txt"
    kept.write_text("x")
    assert sorted(staging.sweep_stale(tmp_path)) == sorted([theirs.name, folder.name])
    assert mine.exists() and kept.exists() and not theirs.exists() and not folder.exists()


# A Ctrl-C at each of several import markers while a command starts: 130 and one line, or the
# command had already ended (0, or the signal itself once Python's handlers are gone); never a traceback.
@pytest.mark.parametrize("args", [["list", "card_data/boss_fight"], ["validate", "card_data/boss_fight"],
                                  ["calibrate"], ["schema", "--help"], ["build", "card_data/boss_fight", "--only",
                                                                         "cards", "-o", "{tmp}/out"]],
                         ids=["list", "validate", "calibrate", "help", "build"])
def test_ctrl_c_while_a_command_starts_gives_no_traceback(tmp_path, args):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    stopped = 0
    for marker in MARKERS:
        proc = subprocess.Popen([sys.executable, "-m", "generator", *args], cwd=REPO, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        poll(lambda proc=proc, marker=marker: loaded(proc.pid, marker), 30.0, proc=proc)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert "Traceback" not in err, (marker, err)
        # 130: stopped by pnp; 0: it had finished; -SIGINT with nothing said: the signal landed
        # while Python was exiting (its handlers already back to the default), which ends the
        # process by the signal itself, as a shell expects of Ctrl-C
        assert proc.returncode in (0, 130) or (proc.returncode == -signal.SIGINT and not err.strip()), \
            (marker, proc.returncode, err)
        assert len(err.strip().splitlines()) <= 1 or proc.returncode == 0
        stopped += proc.returncode == 130
    assert stopped  # at least one of the points fell while the command was starting


def _square(n):
    if n == 3:
        raise ValueError("three is refused")
    if n == 4:
        os.kill(os.getpid(), signal.SIGTERM)  # as a SIGTERM to the process group does to a worker
    return n * n


def test_the_worker_pool_answers_in_order_raises_a_workers_error_and_never_hangs_on_a_dead_worker():
    from generator.core.workers import WorkerDied, worker_pool
    with worker_pool(2) as pool:
        assert pool.map(_square, [0, 1, 2, 5, 6]) == [0, 1, 4, 25, 36]
    with pytest.raises(ValueError, match="three is refused"), worker_pool(2) as pool:
        pool.map(_square, [1, 2, 3, 5])
    with pytest.raises(WorkerDied, match="killed by SIGTERM"), worker_pool(2) as pool:
        pool.map(_square, [1, 4, 5])
    assert not descendants(os.getpid())  # every worker reaped


def test_a_worker_killed_from_outside_fails_the_build_in_one_line(kits):
    pack, old, new, base = kits
    out = base / "out-worker-killed"
    shutil.copytree(old, out)
    with running_build(pack, out) as proc:
        assert poll(lambda: len(temp_files(out)) >= 1 and descendants(proc.pid), proc=proc)
        victim = min(descendants(proc.pid))
        os.kill(victim, signal.SIGKILL)
        code = proc.wait(timeout=120)
        stderr = proc.stderr.read()
    if code == 0:  # the worker had finished its part before the kill landed
        assert state(out) == state(new)
        return
    assert code == 2 and "Traceback" not in stderr and "killed by SIGKILL" in stderr, stderr
    assert len(stderr.strip().splitlines()) == 1
    assert poll(lambda: not alive_with(str(out)), 5.0) and temp_files(out) == [] and state(out) == state(old)


def test_a_stop_whose_exception_was_lost_still_stops_before_the_renames():
    from generator.core.workers import Stopped, past_stopping, stop_on_signals
    renamed = []
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Stopped), stop_on_signals():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            poll(lambda: False, 0.5)  # the handler runs at the next bytecode and raises Stopped
        except Stopped:
            pass  # as when Python drops an exception raised inside a __del__ or weakref callback
        with past_stopping():
            renamed.append("cards.pdf")
    assert renamed == []
    assert signal.getsignal(signal.SIGTERM) == before  # the handlers came back


LOST_STOP = """
import weakref, click
from generator.cli import main

@main.command("lose-a-stop")
def lose_a_stop():
    class Thing:
        pass
    def callback(ref):  # as a Ctrl-C landing in an import lock's weakref callback does
        raise KeyboardInterrupt
    thing = Thing()
    ref = weakref.ref(thing, callback)
    del thing  # Python prints "Exception ignored in ..." here by default, and carries on
    click.echo("the command ran on to its end")

main(["lose-a-stop"])
"""


def test_a_stop_lost_in_a_callback_prints_no_traceback_and_ends_with_130():
    proc = subprocess.run([sys.executable, "-c", LOST_STOP], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 130, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr
    assert proc.stderr.strip() == "pnp: stopped (SIGINT)"


def test_a_stop_python_wrapped_in_another_error_is_still_a_stop():
    """A Ctrl-C landing in a class's __set_name__ while a command's modules load reaches pnp as a
    RuntimeError raised from the KeyboardInterrupt (seen once in CI): 130 and one line, no traceback."""
    script = textwrap.dedent("""
        import click
        from generator.cli import main

        @main.command("wrapped")
        def wrapped():
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as stop:
                raise RuntimeError("Error calling __set_name__") from stop

        main(["wrapped"])
    """)
    run = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode == 130, run.stderr
    assert "Traceback" not in run.stderr and run.stderr.strip() == "pnp: stopped (SIGINT)"
