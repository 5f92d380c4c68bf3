"""Turn pydantic validation errors into Problems with file, line, column and a fix."""

from __future__ import annotations

from pydantic import ValidationError

from generator.errors import Problem, did_you_mean, short_list
from generator.yamlio import Document

_TYPE_WORDS = {
    "int_type": "a whole number", "int_parsing": "a whole number", "string_type": "text",
    "bool_type": "true or false", "list_type": "a list", "dict_type": "a mapping",
    "float_type": "a number", "model_type": "a mapping", "model_attributes_type": "a mapping",
    "tuple_type": "a list",
}


def _show(value) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    if isinstance(value, dict):
        text = "a mapping"
    elif isinstance(value, list):
        text = "a list"
    elif value is None:
        text = "nothing (null)"
    return text if len(text) <= 60 else text[:57] + "…"


def problems_from(exc: ValidationError, doc: Document, base_path: tuple, what: str,
                  allowed_keys=None) -> list[Problem]:
    """`allowed_keys(path)` returns the keys valid at a path, for did-you-mean on unknown keys."""
    problems: list[Problem] = []
    seen: set = set()
    errors = _merge_union_branches(exc.errors(include_url=False))
    for err in errors:
        loc = tuple(p for p in err["loc"] if not _is_union_tag(p))
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
            guess = did_you_mean(key, keys)
            problem = Problem(
                "schema.unknown-key", f"unknown key `{key}` in {what}", doc.at(path, key=True),
                found=str(key), expected=f"one of: {short_list(keys, 12)}" if keys else None,
                fix=f"did you mean `{guess}`?" if guess else "remove it")
        elif kind == "missing":
            key = loc[-1]
            problem = Problem("schema.missing", f"missing required key `{key}` in {what}",
                              doc.at(path[:-1]), expected=f"a `{key}:` entry",
                              fix=f"add `{key}: ...`")
        elif kind == "literal_error":
            expected = err.get("ctx", {}).get("expected", "")
            choices = [c.strip().strip("'") for c in expected.replace(" or ", ", ").split(",")]
            guess = did_you_mean(value, choices) if isinstance(value, str) else None
            problem = Problem("schema.choice", f"`{where}` has a value that is not allowed",
                              doc.at(path, key=is_key), found=_show(value), expected=f"one of {expected}",
                              fix=f"did you mean `{guess}`?" if guess else None)
        elif kind in _TYPE_WORDS:
            words = err.get("_words") or _TYPE_WORDS[kind]
            problem = Problem("schema.type", f"`{where}` should be {words}",
                              doc.at(path, key=is_key), found=_show(value), expected=words)
        elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            ctx = err.get("ctx", {})
            bound = {"greater_than_equal": f"at least {ctx.get('ge')}", "less_than_equal": f"at most {ctx.get('le')}",
                     "greater_than": f"more than {ctx.get('gt')}", "less_than": f"less than {ctx.get('lt')}"}[kind]
            problem = Problem("schema.range", f"`{where}` is out of range", doc.at(path),
                              found=_show(value), expected=bound)
        elif kind == "string_pattern_mismatch":
            pattern = err.get("ctx", {}).get("pattern", "")
            fix = None
            if "a-z0-9" in pattern:
                from generator.model import kebab
                fix = f"use lower-case words joined by hyphens, e.g. `{kebab(str(value))}`"
            problem = Problem("schema.format", f"`{where}` is not in the expected form", doc.at(path),
                              found=_show(value), expected=f"text matching {pattern}", fix=fix)
        elif kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
            problem = Problem("schema.length", f"`{where}`: {err['msg'].lower()}", doc.at(path),
                              found=_show(value))
        else:
            problem = Problem("schema.invalid", f"`{where}`: {err['msg']}", doc.at(path), found=_show(value))
        key = (problem.code, problem.location, problem.message)
        if key not in seen:
            seen.add(key)
            problems.append(problem)
    return problems


def _is_union_tag(part) -> bool:
    # pydantic names union members in loc ("str", "function-after[...]", model names); drop them
    return isinstance(part, str) and (part in ("str", "int", "list[str]") or part.startswith(("function-", "literal[", "constrained-"))
                                      or part[:1].isupper() and part.endswith(("Model", "Item", "Spec", "Size")))


def _merge_union_branches(errors: list[dict]) -> list[dict]:
    """A value checked against a union (`text` or `{piece, equipment}`) fails in every branch.
    Report one message: drop a branch's type error when another branch got further into the
    value (a mapping with an unknown key), and join type errors at the same place ("text or a mapping")."""
    def clean(err):
        return tuple(p for p in err["loc"] if not _is_union_tag(p) and p != "[key]")

    locs = [clean(e) for e in errors]
    out: list[dict] = []
    merged: dict[tuple, dict] = {}
    for err, loc in zip(errors, locs):
        if err["type"] in _TYPE_WORDS:
            if any(len(other) > len(loc) and other[:len(loc)] == loc for other in locs):
                continue  # another branch understood the value's shape; its error is the useful one
            if loc in merged:
                first = merged[loc]
                words = first.get("_words") or _TYPE_WORDS[first["type"]]
                word = _TYPE_WORDS[err["type"]]
                if word not in words.split(" or "):
                    first["_words"] = f"{words} or {word}"
                continue
            err = dict(err)
            merged[loc] = err
        out.append(err)
    return out
