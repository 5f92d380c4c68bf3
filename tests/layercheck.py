"""Reads every module's imports with `ast` and checks them against a layer order.

The checker knows nothing of this project: it is given a package folder, the package name and
the layers (lowest first), so its own test can run it over a small package made on the spot.
A module belongs to the layer whose name is the longest prefix of its dotted name.

It reports:
- an upward import: a module imports one from a higher layer (type-only imports under
  `if TYPE_CHECKING:` count too: a lower layer should not even name a higher one's types);
- an import loop: modules that import each other, directly or round a cycle, counting imports
  inside functions (they hide loops) but not type-only ones (they never run);
- a private name (`_x`) imported from another module;
- a module of ours that belongs to no layer;
- given `may_import` (a layer -> the layers it declares it may import), an import of a lower
  layer that the importing layer does not declare: the order is partial, so `maps` sitting
  above `rules` in the list does not let it import `rules`. Each layer is held to its own list;
  only the package's own `__init__` (the module named `package` itself, not its layer) may be
  read by every layer, since it holds the version and nothing else.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Import:
    source: str  # importing module
    target: str  # imported module (resolved to a module file when `from pkg import module`)
    names: tuple[str, ...]
    line: int
    type_only: bool


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> file, for every .py under the package folder `root`."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([package] + parts)] = path
    return out


def _type_checking_block(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(module: str, path: Path, modules: dict[str, Path], package: str) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    out: list[Import] = []

    def visit(node: ast.AST, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking_block(child):
                for sub in child.body:
                    visit_one(sub, True)
                for sub in child.orelse:
                    visit_one(sub, type_only)
                continue
            visit_one(child, type_only)

    def visit_one(node: ast.AST, type_only: bool) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == package or alias.name.startswith(package + "."):
                    out.append(Import(module, alias.name, (), node.lineno, type_only))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative import: resolve against this module's package
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            if base == package or base.startswith(package + "."):
                plain = tuple(a.name for a in node.names if f"{base}.{a.name}" not in modules)
                for alias in node.names:
                    if f"{base}.{alias.name}" in modules:  # `from pkg import module`
                        out.append(Import(module, f"{base}.{alias.name}", (), node.lineno, type_only))
                if plain:
                    out.append(Import(module, base, plain, node.lineno, type_only))
        visit(node, type_only)

    visit(tree, False)
    return out


def layer_of(module: str, layers: list[str]) -> int | None:
    best = None
    for i, layer in enumerate(layers):
        if module == layer or module.startswith(layer + "."):
            if best is None or len(layer) > len(layers[best]):
                best = i
    return best


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:  # Tarjan; module graphs are small, recursion depth is fine
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def declared(importer: str, imported: str, may_import: dict[str, set[str]]) -> bool:
    """Whether layer `importer` declares layer `imported`: named itself, or a layer it names
    contains it (naming `render` admits `render.base`). A layer missing from the table is
    held to the order alone."""
    if importer not in may_import:
        return True
    return any(imported == allowed or imported.startswith(allowed + ".") for allowed in may_import[importer])


def check(root: Path, package: str, layers: list[str],
          may_import: dict[str, set[str]] | None = None) -> list[str]:
    """Every breach of the layer order found under `root`, as readable lines (empty: all good)."""
    modules = module_files(root, package)
    problems: list[str] = []
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        own = layer_of(module, layers)
        where = path.relative_to(root.parent)
        if own is None:
            problems.append(f"{where}: module {module} is in no layer; add it to the layer list")
            continue
        for imp in imports_of(module, path, modules, package):
            target = imp.target
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            theirs = layer_of(target, layers)
            if theirs is not None and theirs > own:
                problems.append(f"{where}:{imp.line}: {module} ({layers[own]}) imports {imp.target} "
                                f"({layers[theirs]}), a higher layer")
            elif (theirs is not None and theirs != own and may_import is not None and target != package
                  and not declared(layers[own], layers[theirs], may_import)):
                problems.append(f"{where}:{imp.line}: {module} ({layers[own]}) imports {imp.target} "
                                f"({layers[theirs]}), which {layers[own]} does not declare it may import")
            private = [n for n in imp.names if n.startswith("_") and not n.startswith("__")]
            if private and target != module:
                problems.append(f"{where}:{imp.line}: {module} imports private name(s) {', '.join(private)} "
                                f"from {imp.target}; make them public or move them to a module both import")
            if not imp.type_only and target != module:
                graph[module].add(target)
    for component in _cycles(graph):
        problems.append("import loop: " + " -> ".join(component + component[:1]))
    return problems
