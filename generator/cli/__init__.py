"""cli: the `pnp` command, the only layer that knows the command line. Each command lives in
its own module (cli/validate.py, cli/build.py, ...) and is registered below with one line of
COMMANDS; a new command is a new module plus one row. A command's module is imported only when
that command runs (or help lists it), so `pnp --version` and `pnp validate` load no renderer. Also here: text reports
(textreport.py), the points audit as printed (audit.py) and `pnp watch` (watch.py). The verbs
are library functions the commands call: validating a target is validate.py's, preflighting
one preflight/target.py's, building build.py's.

May import: every other layer of generator.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import signal
import sys
import threading
import types

# pydantic looks for plugins of its own (the `pydantic` entry point group) when it builds its first
# model, by reading the metadata of every installed distribution: a few to a dozen milliseconds at
# the start of every command. pnp uses no pydantic plugin; a user who wants theirs sets the
# variable (empty: every plugin loads), which this leaves as it is.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
_PLUGINS_OFF = ("__all__", "1", "true")  # the values pydantic reads as "load no plugin"


class _NoPluginLookup(types.ModuleType):
    """Stands in for pydantic's plugin loader (`pydantic.plugin._loader`) in the `pnp` process.
    Skipping the search is not enough: pydantic imports the loader as it makes its first
    validator, and the loader imports importlib.metadata (email, zipfile, csv, importlib.resources,
    tempfile) at its top, ~15 ms CPU of every command. This one answers `get_plugins` as the loader
    does while the variable says no plugin; for anything else, or once the variable allows
    plugins, the real loader is imported and answers. docs/architecture.md, "Other projects' APIs";
    tests/test_private_apis.py fails if pydantic stops asking the loader this way."""

    def get_plugins(self):
        if os.environ.get("PYDANTIC_DISABLE_PLUGINS") in _PLUGINS_OFF:
            return ()
        return self._real().get_plugins()

    def __getattr__(self, name: str):
        if name.startswith("__"):  # the import system's own questions (__path__): not the loader's to answer
            raise AttributeError(name)
        return getattr(self._real(), name)

    def _real(self) -> types.ModuleType:
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        return importlib.import_module(self.__name__)


if os.environ["PYDANTIC_DISABLE_PLUGINS"] in _PLUGINS_OFF:
    sys.modules.setdefault("pydantic.plugin._loader", _NoPluginLookup("pydantic.plugin._loader"))


# A finished command ends the `pnp` process without the interpreter's teardown: Python first
# waits for the threads that still work and runs the exit handlers (worker pools, temporary
# folders, logging), then would free what the command made, object by object, module by
# module: ~45 ms CPU after a 912-card build has written everything (0.15 s before its objects
# were left frozen). The handler below is registered before any other of the process (the
# `pnp` script imports this module first; handlers run last registered, first run), so it runs
# after all of them, flushes stdout and stderr and ends with the command's exit status. A
# program that registered handlers of its own before importing pnp and then calls main() as
# the script does would see them skipped; one that passes main() its arguments is embedded
# (a test's CliRunner) and ends as it likes.
_EXIT_STATUS: list[int] = []


def _end_without_teardown(code: object) -> None:
    """Keep the exit status of a command run as the `pnp` script runs it, for `_exit_quickly`:
    a plain status (0 to 255) only; any other code ends the usual way."""
    code = 0 if code is None else code
    if isinstance(code, int) and not isinstance(code, bool) and 0 <= code <= 255:
        _EXIT_STATUS[:] = [code]


def _exit_quickly() -> None:
    if not _EXIT_STATUS:
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    except (OSError, ValueError):  # a closed pipe: Python reports it as before, on the usual way out
        return
    os._exit(_EXIT_STATUS[0])


atexit.register(_exit_quickly)


def _stopped_while_starting(signum, frame):
    # Nothing is written yet, so nothing to clean up: end at once. (An exception raised here
    # could land in an import machinery callback, which would print it and carry on.)
    os._exit(128 + signum)


# Loading `pnp` and then its command takes a moment (ReportLab, pydantic): a Ctrl-C or SIGTERM
# meanwhile ends `pnp` quietly with 130 or 143. The guard covers this module's own imports, and
# again PnpGroup.main up to the moment the command is loaded (get_command); from then on the
# command's own handling stops the work, and the previous handlers are back.
_PREVIOUS: dict = {}


def _starting() -> None:
    if threading.current_thread() is threading.main_thread() and not _PREVIOUS:
        _PREVIOUS.update({s: signal.signal(s, _stopped_while_starting) for s in (signal.SIGINT, signal.SIGTERM)})


def _started(command_loaded: bool = False) -> None:
    while _PREVIOUS:
        signum, handler = _PREVIOUS.popitem()
        if command_loaded and signum == signal.SIGTERM and handler == signal.SIG_DFL:
            handler = _terminated  # from now on SIGTERM stops the command as Ctrl-C does
        signal.signal(signum, handler)


def _terminated(signum, frame):
    # Python's default for SIGTERM ends the process at once (exit -15, no clean-up): between
    # loading a command and the command's own handlers (a build's stop_on_signals), a SIGTERM
    # is a KeyboardInterrupt that carries its signal, so `finally` blocks run and PnpGroup ends
    # with 143.
    stop = KeyboardInterrupt(f"stopped by {signal.Signals(signum).name}")
    stop.signum = signum  # type: ignore[attr-defined]  # read back with getattr(exc, "signum", SIGINT)
    raise stop


_starting()

import click  # noqa: E402

from generator import __version__  # noqa: E402
from generator.cli.common import EXIT_INPUT, escape_controls, make_console, modules_loading  # noqa: E402
from generator.core.errors import InputError, WorkerDied  # noqa: E402

_started()


# A Ctrl-C can land while Python runs a callback it cannot raise from (a weakref callback, an
# import lock's clean-up): the KeyboardInterrupt is then "ignored", printed with a traceback, and
# the command carries on. Instead nothing is printed and the stop is remembered: PnpGroup.invoke
# ends with 128 + the signal when the command returns (a build checks before its renames, in
# core.workers.past_stopping). Sending the signal again from here would raise it inside this
# hook: os.kill and signal.raise_signal run the handler before they return.
_LOST_STOPS: list = []
_unraisable_before = sys.unraisablehook


def _unraisable(info) -> None:
    if isinstance(info.exc_value, KeyboardInterrupt):
        _LOST_STOPS.append(getattr(info.exc_value, "signum", signal.SIGINT))
        return
    _unraisable_before(info)


sys.unraisablehook = _unraisable


# command name -> (module under generator.cli, the click command's name in it), in help order
COMMANDS: dict[str, tuple[str, str]] = {  # command -> (its module in generator.cli, the click command in it)
    "validate": ("validate", "validate"),
    "schema": ("schema", "schema"),
    "list": ("list_cards", "list_cards"),
    "build": ("build", "build"),
    "calibrate": ("calibrate", "calibrate"),
    "preflight": ("preflight", "preflight"),
    "watch": ("watch", "watch_command"),
    "roster": ("roster", "roster"),
    "share": ("share", "share"),
    "unshare": ("share", "unshare"),
    "new": ("new", "new"),
    "example": ("example", "example"),
    "decklist": ("decklist", "decklist"),
    "serve": ("serve", "serve"),
    "builds": ("builds", "builds"),
    "accounts": ("accounts", "accounts"),
    "layout": ("layout", "layout_command"),
    "export-sheet": ("sheets", "export_sheet"),
    "fetch": ("sheets", "fetch"),
    "translate": ("translate", "translate"),
    "icons": ("icons", "icons"),
}


def _exit_now(code: int) -> None:
    """End with `code` once the work has stopped and cleaned up (its `finally` blocks have run).
    Not sys.exit: when the KeyboardInterrupt was raised inside code run by `exec()` of a string
    (how dataclasses and several libraries make their functions while a command's modules load),
    CPython marks it unhandled even though we caught it (run_eval_code_obj sets
    _Py_UnhandledKeyboardInterrupt), and at exit kills the process with SIGINT itself: exit -2
    instead of 130."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can reach the reader
            pass
    os._exit(code)


class PnpGroup(click.Group):
    """Usage errors exit 2 with one line, as click does; input errors never show a traceback;
    Ctrl-C (or a stop a command turned into `Stopped`) ends with 128 + the signal, one line.
    Commands load lazily from COMMANDS (each module pulls in what its command needs)."""

    def list_commands(self, ctx):
        return sorted(set(COMMANDS) | set(self.commands))

    def main(self, *args, **kwargs):
        on_main = threading.current_thread() is threading.main_thread()
        embedded = bool(args) or "args" in kwargs  # a test's CliRunner or a program; the `pnp` script calls main()
        term = signal.getsignal(signal.SIGTERM) if on_main else None
        _starting()
        frozen = gc.get_freeze_count()
        try:
            return self._main(on_main, term, frozen, embedded, *args, **kwargs)
        except SystemExit as done:  # click ends every standalone run so
            if not embedded:
                _end_without_teardown(done.code)
            raise
        except KeyboardInterrupt as exc:
            # a Ctrl-C or SIGTERM as the command ended (click's exit on its way out, the clean-up
            # below): nothing is left to stop, so no traceback; embedded, the caller decides
            if embedded:
                raise
            code = 128 + getattr(exc, "signum", signal.SIGINT)
            for stream in (sys.stdout, sys.stderr):  # what the command printed still reaches its reader
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(code)  # C calls only from here (no Python frame starts, so no new stop lands first)

    def _main(self, on_main, term, frozen, embedded, *args, **kwargs):
        try:
            return super().main(*args, **kwargs)
        finally:
            _started()
            if not embedded:
                # the `pnp` process ends here: what the command made (a loaded pack, its cards) is
                # frozen too, so the collection Python runs as it shuts down walks none of it
                # (`pnp validate BUILD`: 45 ms of its 0.3 s CPU). Unfrozen, that walk covered every
                # module and model as well.
                gc.freeze()
            elif frozen == 0 and gc.get_freeze_count():  # run in-process (a test's CliRunner): collect as before
                gc.unfreeze()
            if term is not None:  # run in-process (a test's CliRunner): leave SIGTERM as it was
                signal.signal(signal.SIGTERM, term)

    def get_command(self, ctx, name):
        if name not in self.commands and name in COMMANDS:
            module, attr = COMMANDS[name]
            with modules_loading():  # and frozen: it lives as long as the process
                command = getattr(importlib.import_module(f"generator.cli.{module}"), attr)
            if not isinstance(command, click.Command):  # the registry's one type: a click command
                raise RuntimeError(f"COMMANDS routes `{name}` to generator.cli.{module}.{attr}, which is not a "
                                   "click command")
            self.commands[name] = command
        _started(command_loaded=True)
        return self.commands.get(name)

    def invoke(self, ctx):
        try:
            result = super().invoke(ctx)
            if _LOST_STOPS:  # stopped while Python could not raise it: the command ran on to its end
                raise KeyboardInterrupt
            return result
        except InputError as exc:
            from generator.cli.textreport import print_problems  # deferred with rich (common.make_console)
            print_problems(make_console(stderr=True), exc.problems)
            sys.exit(EXIT_INPUT)
        except WorkerDied as exc:  # killed from outside (`kill -9`, out of memory); the build cleaned up
            click.echo(f"pnp: {exc}; no output was changed", err=True)
            sys.exit(EXIT_INPUT)
        except BrokenPipeError:  # the reader went away (`pnp list | head`): as before, not a file error
            raise
        except OSError as exc:  # a file or folder the system refused that no command named first: one line, no traceback
            what = f" {escape_controls(str(exc.filename))}" if exc.filename else ""
            click.echo(f"pnp: cannot use{what}: {exc.strerror or exc}", err=True)
            sys.exit(EXIT_INPUT)
        except Exception as exc:
            # Python wraps a Ctrl-C that lands in some of its own machinery (a class's __set_name__
            # while a command's modules load) in a RuntimeError: it is still the stop
            stop = _stop_behind(exc)
            if stop is None:
                raise
            self._stopped(stop)
        except KeyboardInterrupt as exc:
            self._stopped(exc)

    @staticmethod
    def _stopped(exc: KeyboardInterrupt) -> None:
        """One line, and exit 128 + the signal."""
        signum = getattr(exc, "signum", _LOST_STOPS[0] if _LOST_STOPS else signal.SIGINT)
        click.echo(f"pnp: stopped ({signal.Signals(signum).name})", err=True)
        _exit_now(128 + signum)


def _stop_behind(exc: BaseException | None) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt an exception was raised from (its cause or context, at any depth), or None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")  # not package metadata: that lookup costs 25 ms
def main():
    """Print-and-play card, map and rulebook generator for YAML game packs."""


