#!/usr/bin/env python3
"""The shape of adrkit_mcp.py, read from its source: sections, floors, references, long functions.

    python3 tools/sections.py                 # the sections with their line ranges (same as --sections)
    python3 tools/sections.py --longest 15    # the longest functions and methods
    python3 tools/sections.py --hints         # how many functions carry type hints
    python3 tools/sections.py --graph         # references between sections, with examples
    python3 tools/sections.py --markdown      # the line-range table of docs/ARCHITECTURE.md

A section starts at a header: a rule of dashes, then a numbered title (comment lines may follow):

    # ---------------------------------------------------------------------------
    # 6. Projection: a fresh, consistent view of the corpus for every call
    # ---------------------------------------------------------------------------

Several headers may share one number and name (sub-parts of one section). The product floor is
the sections named in PRODUCT, in that order; every later section is a compatibility engine.
Sections named together in FAMILIES make one whole: the command line and its commands; an engine
cut into parts (its first part opens with what it reproduces, and the whole has one door). No
section is longer than MAX_SECTION_LINES. The
same reading serves tests/test_layers.py, which turns the layering into a checked fact, and
docs/ARCHITECTURE.md, whose line ranges come from `--sections`. Standard library only.
"""

import argparse
import ast
import collections
import os
import re
import sys
from typing import Dict, Iterator, List, NamedTuple, Optional, Set, Tuple

MODULE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "adrkit_mcp.py")

# The product floor, in the order a request flows through it: the server's path from the wire
# down to the schema, then the command line and one section per command.
PRODUCT = ("Wire", "Era", "Dispatch", "Contract", "Tools", "Projection", "Importer", "Reader",
           "Schema", "Commands", "Doctor", "Config", "Hook", "Migrate", "Reference CLI", "PR check")

# Families: sections that make one whole. The command sections are the command line and its
# commands, peers that use each other's doors. An engine too long for one section is cut into
# parts along the stages it already has; its parts share its private names and it keeps one door.
FAMILIES = {
    "Commands": ("Commands", "Doctor", "Config", "Hook", "Migrate", "Reference CLI", "PR check"),
    "Globs": ("Globs parser", "Globs regex", "Globs engines"),
    "YAML": ("YAML scanner", "YAML parser", "YAML composer", "YAML writer", "YAML loader"),
}
MAX_SECTION_LINES = 2000


def family(name: str) -> str:
    """The family a section belongs to: its own name when it stands alone."""
    return next((whole for whole, parts in FAMILIES.items() if name in parts), name)

_RULE = re.compile(r"^# -{20,}$")
_TITLE = re.compile(r"^# (\d+)\. ([A-Za-z][A-Za-z0-9 ]*?): (.+)$")


class Section(NamedTuple):
    number: int
    name: str
    first: int   # first line (1-based), the header's opening rule included
    last: int    # last line
    titles: Tuple[str, ...]

    @property
    def floor(self) -> str:
        return "product" if self.name in PRODUCT else "engine"

    @property
    def family(self) -> str:
        return family(self.name)

    @property
    def count(self) -> int:
        return self.last - self.first + 1


class Definition(NamedTuple):
    name: str
    section: Optional[Section]
    node: ast.AST


class Shape(NamedTuple):
    source: str
    tree: ast.Module
    sections: Tuple[Section, ...]
    definitions: Dict[str, Definition]


def read_sections(lines: List[str]) -> Tuple[Section, ...]:
    """The numbered sections of the module, each spanning to the next section's header."""
    starts = []  # (1-based line of the opening rule, number, name, title)
    for index in range(1, len(lines) - 1):  # index: the title's 0-based index = the rule's line
        match = _TITLE.match(lines[index])
        if match and _RULE.match(lines[index - 1]):
            starts.append((index, int(match.group(1)), match.group(2), match.group(3)))
    merged: List[List] = []
    for first, number, name, title in starts:
        if merged and merged[-1][0] == number and merged[-1][1] == name:
            merged[-1][3].append(title)
        else:
            merged.append([number, name, first, [title]])
    sections = []
    for position, (number, name, first, titles) in enumerate(merged):
        last = merged[position + 1][2] - 1 if position + 1 < len(merged) else len(lines)
        sections.append(Section(number, name, first, last, tuple(titles)))
    return tuple(sections)


def section_at(sections: Tuple[Section, ...], line: int) -> Optional[Section]:
    """The section holding a 1-based line, or None for the preamble."""
    found = None
    for section in sections:
        if section.first <= line:
            found = section
    return found


def _bound_names(node: ast.AST) -> List[str]:
    """The names a top-level statement defines."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    targets: List[ast.AST] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    return [sub.id for target in targets for sub in ast.walk(target) if isinstance(sub, ast.Name)]


def read_shape(path: str = MODULE) -> Shape:
    """Parse the module once: its sections and the section of every top-level definition."""
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    tree = ast.parse(source)
    sections = read_sections(source.splitlines())
    definitions: Dict[str, Definition] = {}
    for node in tree.body:
        for name in _bound_names(node):
            definitions.setdefault(name, Definition(name, section_at(sections, node.lineno), node))
    return Shape(source, tree, sections, definitions)


def _local_names(node: ast.AST) -> Set[str]:
    """Names bound anywhere inside a definition (parameters, assignments, loops, imports)."""
    local: Set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            local.add(sub.id)
        elif isinstance(sub, ast.arg):
            local.add(sub.arg)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and sub is not node:
            local.add(sub.name)
        elif isinstance(sub, (ast.Import, ast.ImportFrom)):
            local.update((alias.asname or alias.name).split(".")[0] for alias in sub.names)
        elif isinstance(sub, ast.ExceptHandler) and sub.name:
            local.add(sub.name)
    globals_declared = {name for sub in ast.walk(node) if isinstance(sub, ast.Global)
                        for name in sub.names}
    return local - globals_declared


def references(shape: Shape) -> Iterator[Tuple[Definition, Definition]]:
    """Every (referrer, referred) pair of top-level definitions in different sections."""
    seen = set()
    for node in shape.tree.body:
        names = _bound_names(node)
        if not names:
            continue
        referrer = shape.definitions[names[0]]
        local = _local_names(node) - set(names) if not isinstance(node, (ast.Assign, ast.AnnAssign)) \
            else set()
        for sub in ast.walk(node):
            if not (isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load)):
                continue
            referred = shape.definitions.get(sub.id)
            if referred is None or sub.id in local or sub.id in names:
                continue
            if referred.section == referrer.section:
                continue
            key = (referrer.name, referred.name)
            if key not in seen:
                seen.add(key)
                yield referrer, referred


def functions(tree: ast.Module, nested: bool = True) -> Iterator[Tuple[str, ast.AST]]:
    """Every function and method, with a dotted name; nested=False leaves out the functions
    defined inside other functions (closures are no one's interface)."""
    def walk(node: ast.AST, prefix: str) -> Iterator[Tuple[str, ast.AST]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield prefix + child.name, child
                if nested:
                    yield from walk(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, prefix + child.name + ".")
    yield from walk(tree, "")


def is_public(name: str) -> bool:
    """A dotted name none of whose parts is private (dunder names such as __init__ are not)."""
    return not any(part.startswith("_") and not (part.startswith("__") and part.endswith("__"))
                   for part in name.split("."))


def length(node: ast.AST) -> int:
    """Lines a definition spans, decorators excluded."""
    return node.end_lineno - node.lineno + 1  # type: ignore[attr-defined]


def is_hinted(node: ast.AST) -> bool:
    """True when every parameter but self/cls, and the return, is annotated."""
    arguments = node.args  # type: ignore[attr-defined]
    params = arguments.posonlyargs + arguments.args + arguments.kwonlyargs
    params += [arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None]
    if params and params[0].arg in ("self", "cls"):
        params = params[1:]
    returns_ok = node.returns is not None or node.name == "__init__"  # type: ignore[attr-defined]
    return returns_ok and all(param.annotation is not None for param in params)


def _print_sections(shape: Shape) -> None:
    lines = shape.source.count("\n") + 1
    first = shape.sections[0].first if shape.sections else lines
    print("%-8s %-12s %13s %6s  %s" % ("floor", "section", "lines", "count", "parts"))
    print("%-8s %-12s %13s %6d" % ("", "(preamble)", "1-%d" % (first - 1), first - 1))
    for section in shape.sections:
        span = "%d-%d" % (section.first, section.last)
        print("%-8s %-12s %13s %6d  %s" % (section.floor, "%d. %s" % (section.number, section.name),
                                          span, section.last - section.first + 1,
                                          "; ".join(section.titles)))


def markdown_table(shape: Shape) -> str:
    """The line-range table docs/ARCHITECTURE.md carries (tests/test_layers.py keeps it current)."""
    first = shape.sections[0].first if shape.sections else shape.source.count("\n") + 1
    rows = ["| floor | section | lines | count |", "|---|---|---|---|",
            "| | (preamble: licence, docstring, imports) | 1-%d | %d |" % (first - 1, first - 1)]
    for section in shape.sections:
        rows.append("| %s | %d. %s | %d-%d | %d |" % (section.floor, section.number, section.name,
                                                     section.first, section.last,
                                                     section.last - section.first + 1))
    return "\n".join(rows)


def _print_longest(shape: Shape, count: int) -> None:
    ranked = sorted(functions(shape.tree), key=lambda item: -length(item[1]))
    for name, node in ranked[:count]:
        section = section_at(shape.sections, node.lineno)  # type: ignore[attr-defined]
        label = section.name if section else "(preamble)"
        print("%5d  %-48s %s:%d" % (length(node), name, label, node.lineno))  # type: ignore[attr-defined]


def _print_hints(shape: Shape) -> None:
    every = list(functions(shape.tree))
    hinted = [name for name, node in every if is_hinted(node)]
    public = [name for name, _ in functions(shape.tree, nested=False) if is_public(name)]
    public_hinted = [name for name in public if name in set(hinted)]
    print("functions: %d, fully hinted: %d" % (len(every), len(hinted)))
    print("public functions and methods: %d, fully hinted: %d" % (len(public), len(public_hinted)))


def _print_graph(shape: Shape) -> None:
    edges: Dict[Tuple[str, str], List[str]] = collections.defaultdict(list)
    for referrer, referred in references(shape):
        if referrer.section is None or referred.section is None:
            continue
        edges[(referrer.section.name, referred.section.name)].append(
            "%s->%s" % (referrer.name, referred.name))
    for (source, target), examples in sorted(edges.items()):
        print("%-11s -> %-11s %4d  %s" % (source, target, len(examples), ", ".join(examples[:3])))


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", default=MODULE, help="the module to read (default: %(default)s)")
    parser.add_argument("--sections", action="store_true", help="sections and line ranges (default)")
    parser.add_argument("--longest", type=int, metavar="N", help="the N longest functions")
    parser.add_argument("--hints", action="store_true", help="type-hint counts")
    parser.add_argument("--graph", action="store_true", help="references between sections")
    parser.add_argument("--markdown", action="store_true", help="the line-range table as Markdown")
    options = parser.parse_args(argv)
    shape = read_shape(options.module)
    chosen = options.longest or options.hints or options.graph or options.markdown
    if options.sections or not chosen:
        _print_sections(shape)
    if options.longest:
        _print_longest(shape, options.longest)
    if options.hints:
        _print_hints(shape)
    if options.graph:
        _print_graph(shape)
    if options.markdown:
        print(markdown_table(shape))
    return 0


if __name__ == "__main__":
    sys.exit(main())
