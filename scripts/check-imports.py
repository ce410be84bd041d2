#!/usr/bin/env python3
"""Fails when the server's files import each other round in a circle.

Reads every file of the library under src/ as text: its `use` trees and its inline paths
(`crate::…`, `super::…`, `self::…`, and a child module's name in a `use`), each resolved
to the file that defines the module it names (the longest prefix of the path that is a
module of ours). An arrow runs from a file to every other file it names; a circle is a
strongly connected group of two files or more. Left out: comments, string literals, and
`#[cfg(test)]` modules (tests import for convenience); `mod x;` declarations are not
imports. An arrow from a file into a module that encloses it (`super::Type` from a child
to its folder's `mod.rs`) runs back up to its own namespace: it is counted apart and
closes no circle. Run by `make lint`; `--graph` prints the arrows.

It also fails when SQL is written outside a store: a statement (`sqlx::query…`) belongs in a
file named `store.rs` or under a `store/` folder; `db.rs` keeps the pool's own (the health
probe's ping). Tests (`#[cfg(test)]` modules) may set up rows where they like.
"""

import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def module_of(path: Path) -> tuple[str, ...]:
    rel = path.relative_to(SRC).with_suffix("")
    parts = rel.parts
    if parts == ("lib",):
        return ()
    if parts[-1] == "mod":
        parts = parts[:-1]
    return tuple(parts)


def strip(text: str) -> str:
    """The code without comments, string and char literals (their braces and paths)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:]) and (i == 0 or not text[i - 1].isalnum()):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            out.append('""')
            i = n if end < 0 else end + 1 + len(hashes)
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            out.append('""')
            i += 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:]):
            i += len(re.match(r"'(\\.|[^\\'])'", text[i:]).group(0))
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def expand(tree: str) -> list[list[str]]:
    """`a::{b, c::{d, e}}` → [[a, b], [a, c, d], [a, c, e]] (renames and globs dropped)."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)
    results: list[list[str]] = []

    def walk(prefix: list[str], text: str) -> None:
        depth, start, items = 0, 0, []
        for k, ch in enumerate(text):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                items.append(text[start:k])
                start = k + 1
        items.append(text[start:])
        for item in filter(None, items):
            brace = item.find("{")
            if brace >= 0:
                head = [p for p in item[:brace].split("::") if p]
                walk(prefix + head, item[brace + 1 : item.rfind("}")])
            else:
                results.append(prefix + [p for p in item.split("::") if p and p not in ("*", "self")])

    walk([], tree)
    return results


def graph() -> tuple[dict[Path, set[Path]], dict[Path, set[Path]]]:
    files = [p for p in SRC.rglob("*.rs") if p.name != "main.rs"]
    modules = {module_of(p): p for p in files}
    arrows: dict[Path, set[Path]] = {p: set() for p in files}
    upward: dict[Path, set[Path]] = {p: set() for p in files}

    def resolve(path: list[str], here: tuple[str, ...]) -> Path | None:
        if not path:
            return None
        if path[0] == "crate":
            absolute = list(path[1:])
        elif path[0] in ("self", "super"):
            base = list(here)
            while path and path[0] in ("self", "super"):
                if path[0] == "super" and base:
                    base.pop()
                path = path[1:]
            absolute = base + list(path)
        elif tuple(here) + (path[0],) in modules:
            absolute = list(here) + list(path)
        else:
            return None  # another crate
        for k in range(len(absolute), -1, -1):
            if tuple(absolute[:k]) in modules:
                return modules[tuple(absolute[:k])]
        return None

    for file in files:
        code = strip(file.read_text())
        here = module_of(file)
        # Inline modules (`mod tests { … }`) shift what `self` and `super` mean inside.
        stack: list[tuple[int, str]] = []
        depth = 0
        position = 0
        spans: list[tuple[int, int, tuple[str, ...]]] = []
        for match in re.finditer(r"(#\[cfg\(test\)\]\s*)?\bmod\s+(\w+)\s*\{|[{}]", code):
            token = match.group(0)
            if token == "{":
                depth += 1
            elif token == "}":
                if stack and stack[-1][0] == depth:
                    stack.pop()
                depth -= 1
            else:
                depth += 1
                name = "#test" if match.group(1) else match.group(2)
                stack.append((depth, name))
            spans.append((position, match.end(), here + tuple(name for _, name in stack)))
            position = match.end()
        spans.append((position, len(code), here))

        def module_at(offset: int) -> tuple[str, ...] | None:
            for start, end, module in spans:
                if start <= offset < end:
                    return None if "#test" in module else module
            return here

        found: list[tuple[list[str], tuple[str, ...]]] = []
        for use in re.finditer(r"\buse\s+([^;]+);", code):
            for path in expand(use.group(1)):
                found.append((path, module_at(use.start())))
        for inline in re.finditer(r"(?<![\w:])((?:crate|super|self)(?:::\w+)+)", code):
            found.append((inline.group(1).split("::"), module_at(inline.start())))
        enclosing = {modules[here[:k]] for k in range(len(here)) if here[:k] in modules}
        for path, module in found:
            if module is None:
                continue
            target = resolve(path, module)
            if target is None or target == file:
                continue
            if target in enclosing:
                upward[file].add(target)
            else:
                arrows[file].add(target)
    return arrows, upward


def circles(arrows: dict[Path, set[Path]]) -> list[list[Path]]:
    """Tarjan's strongly connected components of two files or more."""
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    on_stack: set[Path] = set()
    stack: list[Path] = []
    found: list[list[Path]] = []
    counter = [0]
    sys.setrecursionlimit(10_000)

    def visit(node: Path) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(arrows[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(arrows):
        if node not in index:
            visit(node)
    return found


SQL = re.compile(r"\bsqlx::query")


def without_tests(code: str) -> str:
    """`code` (already stripped) less its `#[cfg(test)] mod … { … }` blocks."""
    out, i = [], 0
    for match in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", code):
        if match.start() < i:
            continue
        out.append(code[i : match.start()])
        depth, j = 1, match.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        i = j
    out.append(code[i:])
    return "".join(out)


def sql_outside_stores() -> list[Path]:
    """The files of src/ that write SQL and are not a store (nor db.rs)."""
    found = []
    for path in sorted(SRC.rglob("*.rs")):
        rel = path.relative_to(SRC)
        if path.name in ("store.rs", "db.rs") or "store" in rel.parts[:-1]:
            continue
        if SQL.search(without_tests(strip(path.read_text()))):
            found.append(path)
    return found


def main() -> int:
    arrows, upward = graph()
    name = lambda p: str(p.relative_to(SRC.parent))  # noqa: E731
    if "--graph" in sys.argv:
        for file in sorted(arrows):
            for target in sorted(arrows[file]):
                print(f"{name(file)} -> {name(target)}")
    loops = circles(arrows)
    for loop in loops:
        print(f"circle of {len(loop)}: {', '.join(name(p) for p in loop)}", file=sys.stderr)
        for file in loop:
            inside = sorted(name(t) for t in arrows[file] if t in loop)
            print(f"  {name(file)} imports {', '.join(inside)}", file=sys.stderr)
    count = sum(len(t) for t in arrows.values())
    back_up = sum(len(t) for t in upward.values())
    stray = sql_outside_stores()
    for file in stray:
        print(f"SQL outside a store: {name(file)}", file=sys.stderr)
    if loops:
        print(f"{len(loops)} circle(s) among the imports of src/", file=sys.stderr)
    if loops or stray:
        return 1
    print(
        f"imports: {len(arrows)} files of src/, {count} arrows "
        f"(and {back_up} into a file's own enclosing module), no circle; SQL only in stores"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
