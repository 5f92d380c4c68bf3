"""Turn pydantic validation errors into Problems with file, line, column and a fix."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from generator.core.errors import Problem, SheetLocation, did_you_mean, short_list
from generator.pack.model import kebab

if TYPE_CHECKING:
    from generator.core.yamlio import Addressed, PathT

# the keys allowed at a path into a document (for did-you-mean on an unknown key)
AllowedKeys = Callable[[tuple[int | str, ...]], Sequence[str]]

_TYPE_WORDS = {
    "int_type": "a whole number", "int_parsing": "a whole number", "string_type": "text",
    "bool_type": "true or false", "list_type": "a list", "dict_type": "a mapping",
    "float_type": "a number", "model_type": "a mapping", "model_attributes_type": "a mapping",
    "tuple_type": "a list",
}


def _show(value: object) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    if isinstance(value, dict):
        text = "a mapping"
    elif isinstance(value, list):
        text = "a list"
    elif value is None:
        text = "nothing (null)"
    return text if len(text) <= 60 else text[:57] + "…"


def problems_from(exc: ValidationError, doc: Addressed, base_path: PathT, what: str,
                  allowed_keys: AllowedKeys | None = None) -> list[Problem]:
    """`allowed_keys(path)` returns the keys valid at a path, for did-you-mean on unknown keys."""
    problems: list[Problem] = []
    seen: set[tuple[str, object, str]] = set()
    errors = _merge_union_branches(exc.errors(include_url=False))
    for err, branches in errors:
        raw_loc = tuple(err["loc"])
        # an unknown or missing key ends the loc and is the author's word, never a union tag
        # (a key named `function-x` or `str` was dropped with the tags, and the loc left empty)
        named = err["type"] in ("extra_forbidden", "missing") and bool(raw_loc)
        loc = tuple(p for p in (raw_loc[:-1] if named else raw_loc) if not _is_union_tag(p)) + raw_loc[-1:] * named
        is_key = "[key]" in loc
        loc = tuple(p for p in loc if p != "[key]")
        path = base_path + loc
        kind = err["type"]
        value = err.get("input")
        where = ".".join(str(p) for p in loc) or what
        problem = None
        if kind == "extra_forbidden":
            key = loc[-1]
            keys = sorted(allowed_keys(loc[:-1])) if allowed_keys else []
            guess = did_you_mean(str(key), keys)
            problem = Problem(
                "schema.unknown-key", f"unknown key `{key}` in {what}", doc.at(path, key=True),
                found=str(key), expected=f"one of: {short_list(keys, 12)}" if keys else None,
                fix=f"did you mean `{guess}`?" if guess else "remove it")
        elif kind == "missing":
            key = loc[-1]
            place = doc.at(path[:-1])
            if isinstance(place, SheetLocation):  # a spreadsheet row: name the column to fill in
                column = ".".join(str(p + 1) if isinstance(p, int) else str(p) for p in loc)
                problem = Problem("schema.missing", f"missing required field `{column}` in {what}", place,
                                  expected=f"a value in the column `{column}`", fix=f"fill in `{column}` for this card")
            else:
                problem = Problem("schema.missing", f"missing required key `{key}` in {what}",
                                  place, expected=f"a `{key}:` entry", fix=f"add `{key}: ...`")
        elif kind == "literal_error":
            expected = err.get("ctx", {}).get("expected", "")
            choices = [c.strip().strip("'") for c in expected.replace(" or ", ", ").split(",")]
            guess = did_you_mean(value, choices) if isinstance(value, str) else None
            problem = Problem("schema.choice", f"`{where}` has a value that is not allowed",
                              doc.at(path, key=is_key), found=_show(value), expected=f"one of {expected}",
                              fix=f"did you mean `{guess}`?" if guess else None)
        elif kind == "union":
            problem = _union_problem(err, branches, doc, path, where, is_key)
        elif kind in _TYPE_WORDS:
            problem = Problem("schema.type", f"`{where}` should be {_TYPE_WORDS[kind]}",
                              doc.at(path, key=is_key), found=_show(value), expected=_TYPE_WORDS[kind])
        elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            ctx = err.get("ctx", {})
            bound = {"greater_than_equal": f"at least {ctx.get('ge')}", "less_than_equal": f"at most {ctx.get('le')}",
                     "greater_than": f"more than {ctx.get('gt')}", "less_than": f"less than {ctx.get('lt')}"}[kind]
            problem = Problem("schema.range", f"`{where}` is out of range", doc.at(path),
                              found=_show(value), expected=bound)
        elif kind == "string_pattern_mismatch":
            pattern = err.get("ctx", {}).get("pattern", "")
            help_text = err.get("ctx", {}).get("help")  # a field's `pattern_help`, in words
            fix = None
            if "/-?[0-9]" in pattern and not help_text:
                help_text = "two whole numbers written x/y, e.g. 3/2"
            if "a-z0-9" in pattern:
                fix = f"use lower-case words joined by hyphens, e.g. `{kebab(str(value))}`"
            problem = Problem("schema.format", f"`{where}` in {what} is not in the expected form", doc.at(path),
                              found=_show(value),
                              expected=f"{help_text} (text matching {pattern})" if help_text else f"text matching {pattern}",
                              fix=fix)
        elif kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
            problem = Problem("schema.length", f"`{where}`: {err['msg'].lower()}", doc.at(path),
                              found=_show(value))
        else:
            problem = Problem("schema.invalid", f"`{where}`: {err['msg']}", doc.at(path), found=_show(value))
        once = (problem.code, problem.location, problem.message)  # the same problem from two branches: said once
        if once not in seen:
            seen.add(once)
            problems.append(problem)
    return problems


def _is_union_tag(part: int | str) -> bool:
    # pydantic names union members in loc ("str", "function-after[...]", model names); drop them
    return isinstance(part, str) and (part in ("str", "int", "list[str]") or part.startswith(("function-", "literal[", "constrained-"))
                                      or part[:1].isupper() and part.endswith(("Model", "Item", "Spec", "Size")))


def _merge_union_branches(errors: list[ErrorDetails]) -> list[tuple[ErrorDetails, list[ErrorDetails]]]:
    """A value checked against a union (`text` or `{piece, equipment}`; a number or a limit's
    name) fails in every branch. Report one message per value: drop a branch's type error when
    another branch got further into the value (a mapping with an unknown key), and join the
    branches' errors at the same place into one (`a whole number, or one of 'beginner', ...`):
    an error of type `union`, given with its branches (every other error with none)."""
    def clean(err: ErrorDetails) -> tuple[int | str, ...]:
        return tuple(p for p in err["loc"] if not _is_union_tag(p) and p != "[key]")

    locs = [clean(e) for e in errors]
    kept = []
    for err, loc in zip(errors, locs):
        if err["type"] in _TYPE_WORDS and any(len(o) > len(loc) and o[:len(loc)] == loc for o in locs):
            continue  # another branch understood the value's shape; its error is the useful one
        kept.append((err, loc))
    groups: dict[tuple[int | str, ...], list[ErrorDetails]] = {}
    for err, loc in kept:
        groups.setdefault(loc, []).append(err)
    out: list[tuple[ErrorDetails, list[ErrorDetails]]] = []
    done: set[tuple[int | str, ...]] = set()
    for err, loc in kept:
        group = groups[loc]
        if len(group) < 2 or len({tuple(e["loc"]) for e in group}) < 2:
            out.append((err, []))
            continue
        if loc in done:
            continue
        done.add(loc)
        out.append(({"type": "union", "loc": group[0]["loc"], "input": group[0].get("input"),
                     "msg": "; ".join(e["msg"] for e in group)}, group))
    return out


def _branch_words(err: ErrorDetails) -> str:
    kind = err["type"]
    if kind in _TYPE_WORDS:
        return _TYPE_WORDS[kind]
    if kind == "literal_error":
        return f"one of {err.get('ctx', {}).get('expected', '')}"
    ctx = err.get("ctx", {})
    bounds = {"greater_than_equal": f"a number of at least {ctx.get('ge')}",
              "less_than_equal": f"a number of at most {ctx.get('le')}",
              "greater_than": f"a number above {ctx.get('gt')}", "less_than": f"a number below {ctx.get('lt')}"}
    return bounds.get(kind, err["msg"].lower())


def _union_problem(err: ErrorDetails, branches: list[ErrorDetails], doc: Addressed, path: PathT, where: str,
                   is_key: bool) -> Problem:
    words: list[str] = []
    for branch in branches:
        word = _branch_words(branch)
        if word not in words:
            words.append(word)
    choices: list[str] = []
    for branch in branches:
        if branch["type"] == "literal_error":
            expected = branch.get("ctx", {}).get("expected", "")
            choices += [c.strip().strip("'") for c in expected.replace(" or ", ", ").split(",")]
    value = err.get("input")
    guess = did_you_mean(value, choices) if isinstance(value, str) and choices else None
    if all(b["type"] in _TYPE_WORDS for b in branches):
        code, message = "schema.type", f"`{where}` should be {' or '.join(words)}"
    else:
        code, message = ("schema.choice" if choices else "schema.invalid"), f"`{where}` has a value that is not allowed"
    expected = ", or ".join(words) if any("," in w for w in words) else " or ".join(words)
    return Problem(code, message, doc.at(path, key=is_key), found=_show(value), expected=expected,
                   fix=f"did you mean `{guess}`?" if guess else None)
