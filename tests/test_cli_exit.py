"""How a `pnp` process ends once its command is done (cli/__init__.py: _end_without_teardown):
at once, without the interpreter tearing down what the command built, yet with its exit code,
its output flushed and the exit handlers run (after the threads still working)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BOSS_FIGHT = REPO / "card_data" / "boss_fight"
PRESET = sorted((BOSS_FIGHT / "presets").glob("*.yaml"))[0]

# a `pnp` process as the script runs it, with an exit handler and an object that says when the
# interpreter tears it down
RUN = """
import atexit, sys
from generator.cli import main
class Torn:
    def __del__(self):
        print("torn down", file=sys.stderr, flush=True)
kept = Torn()
atexit.register(lambda: print("exit handler", file=sys.stderr))
sys.argv = ["pnp", *sys.argv[1:]]
{body}
"""


def run(body: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", RUN.format(body=body), *map(str, args)],
                          capture_output=True, text=True, cwd=REPO, timeout=300)


def test_a_finished_command_ends_without_teardown_with_its_code_output_and_exit_handlers():
    done = run("main()", "validate", PRESET)
    assert done.returncode == 0, done.stderr
    assert "legal" in done.stdout.lower()  # the report, flushed before the end
    assert "exit handler" in done.stderr
    assert "torn down" not in done.stderr
    # a refused input keeps its exit code (2) and its message
    refused = run("main()", "validate", REPO / "no-such-pack")
    assert refused.returncode == 2 and "torn down" not in refused.stderr and "exit handler" in refused.stderr


def test_a_thread_still_working_finishes_first():
    # the thread writes only once main() has given control back: Python waits for it before the
    # exit handlers run, and so before pnp's, which ends the process
    body = """
import threading
go = threading.Event()
def late():
    go.wait()
    print("thread finished", file=sys.stderr)
threading.Thread(target=late).start()
try:
    main()
finally:
    go.set()
"""
    done = run(body, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["thread finished", "exit handler"]


def test_a_reader_gone_away_ends_as_before():
    """A reader that went away (`pnp list | head`): exit 1 without a word, as click makes it."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-c", RUN.format(body="main()"), "list", BOSS_FIGHT], stdout=write,
                              stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=300)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (1, "exit handler\n")


def test_run_in_process_the_command_returns_to_its_caller():
    body = """
try:
    main(["--version"])
except SystemExit as exc:
    print("returned", exc.code, file=sys.stderr)
"""
    done = run(body)
    assert "returned 0" in done.stderr and "torn down" in done.stderr
