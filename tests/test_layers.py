"""The module's layering, read from its syntax tree: two floors, calls that only go down, one door
per engine, doors between product sections, short sections and functions, hinted public functions.

The sections come from the headers of adrkit_mcp.py, read by tools/sections.py (the same reading
prints the line ranges of docs/ARCHITECTURE.md). The product floor holds the sections named in
tools/sections.PRODUCT, in that order; every section after them is a compatibility engine.

Inside the product, calls go down the stack a request travels, never back up:

    Commands -> Dispatch -> Era -> Wire
                Dispatch -> Tools -> Projection -> Importer -> Reader -> Schema
    and every product section may use the Contract, which keeps only what several sections
    share: a definition that one other section alone uses belongs in that section.

The command line (Commands) and the sections of its commands (Doctor, Config, Hook, Migrate,
Reference CLI, PR check) are one family of peers: each may use another's door and everything
below. A product section uses another product section only through its doors, its public names:
no section names another's `_private` definition.

An engine refers to no product name, and to another engine only through that engine's door; the
product refers to an engine only through its door, the one public name of the engine. An engine
may span several sections (tools/sections.FAMILIES: Globs and YAML are cut into their stages):
its parts share its private names, and the whole still has one door. No section is longer than
tools/sections.MAX_SECTION_LINES lines.
"""

import ast
import importlib.util
import os
import re
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sections", os.path.join(HERE, "..", "tools", "sections.py"))
sections = importlib.util.module_from_spec(spec)
sys.modules["sections"] = sections
spec.loader.exec_module(sections)

MODULE = os.environ.get("ADRKIT_MCP_MODULE", sections.MODULE)
SHAPE = sections.read_shape(MODULE)

# What each product section may refer to besides itself: the sections below it in the call stack.
SERVER = {"Dispatch", "Era", "Wire", "Tools", "Projection", "Importer", "Reader", "Schema", "Contract"}
COMMANDS = set(sections.FAMILIES["Commands"])
BELOW = {
    **{command: SERVER | COMMANDS - {command} for command in COMMANDS},
    "Dispatch": {"Era", "Wire", "Tools", "Projection", "Contract"},
    "Era": {"Wire", "Contract"},
    "Wire": {"Contract"},
    "Tools": {"Projection", "Reader", "Schema", "Contract"},
    "Projection": {"Importer", "Reader", "Schema", "Contract"},
    "Importer": {"Reader", "Schema", "Contract"},
    "Reader": {"Schema", "Contract"},
    "Schema": {"Contract"},
    "Contract": set(),
}
MAX_FUNCTION_LINES = 80


def engines():
    return [section for section in SHAPE.sections if section.floor == "engine"]


def engine_families():
    """{engine: its sections, in order}: one section, or the parts of a cut engine."""
    found = {}
    for section in engines():
        found.setdefault(section.family, []).append(section)
    return found


def doors(parts):
    return sorted(name for name, definition in SHAPE.definitions.items()
                  if definition.section in parts and not name.startswith("_"))


def test_the_product_floor_comes_first_in_data_flow_order_then_the_engines():
    names = [section.name for section in SHAPE.sections]
    product = [name for name in names if name in sections.PRODUCT]
    assert product == list(sections.PRODUCT), "product sections missing or out of order: %s" % names
    assert names[:len(product)] == product, "an engine section stands among the product: %s" % names
    assert len(engine_families()) >= 3, "expected the glob, YAML and semver engines: %s" % names
    for whole, parts in sections.FAMILIES.items():
        found = [name for name in names if sections.family(name) == whole]
        assert found == list(parts), "%s's sections, in order and together: %s" % (whole, found)
        first = names.index(parts[0])
        assert names[first:first + len(parts)] == list(parts), "%s's parts stand apart" % whole
    numbers = [section.number for section in SHAPE.sections]
    assert numbers == list(range(1, len(numbers) + 1)), "sections are numbered 1..N in order"
    assert set(BELOW) == set(sections.PRODUCT)


def test_every_top_level_definition_lies_in_a_section():
    loose = [name for name, definition in SHAPE.definitions.items()
             if definition.section is None and not (name.startswith("__") and name.endswith("__"))]
    assert loose == [], "definitions before the first section header: %s" % loose


def test_no_section_is_longer_than_the_limit():
    long = ["%s (%d lines)" % (section.name, section.count) for section in SHAPE.sections
            if section.count > sections.MAX_SECTION_LINES]
    assert long == [], "cut these along the parts they already have: %s" % long


@pytest.mark.parametrize("engine", sorted(engine_families()))
def test_each_engine_opens_with_a_docstring_and_has_exactly_one_door(engine):
    parts = engine_families()[engine]
    assert len(doors(parts)) == 1, "%s exposes %s; an engine has exactly one door" % (
        engine, doors(parts) or "nothing")
    section = parts[0]
    lines = SHAPE.source.splitlines()[section.first - 1:section.last]
    text = "\n".join(lines)
    for word in ("reproduc", "guarant", "test"):
        assert word in text[:3000].lower(), (
            "%s's opening comment must say what it reproduces, what it guarantees and how it is "
            "tested (missing %r)" % (engine, word))


def violations(shape=SHAPE):
    found = []
    for referrer, referred in sections.references(shape):
        source, target = referrer.section, referred.section
        if source is None or target is None:
            continue
        private = referred.name.startswith("_")
        if target.floor == "engine" and private and source.family != target.family:
            found.append("%s (%s) uses %s, private to the %s engine" % (
                referrer.name, source.name, referred.name, target.family))
        elif source.floor == "product" and target.floor == "product" and private:
            found.append("%s (%s) uses %s, private to %s: use a door of %s" % (
                referrer.name, source.name, referred.name, target.name, target.name))
        elif source.floor == "engine" and target.floor == "product":
            found.append("%s (engine %s) calls up into %s (%s)" % (
                referrer.name, source.name, referred.name, target.name))
        elif source.floor == "product" and target.floor == "product" \
                and target.name not in BELOW[source.name]:
            found.append("%s (%s) calls up into %s (%s)" % (
                referrer.name, source.name, referred.name, target.name))
    return found


def test_nothing_calls_upward_and_sections_are_reached_only_through_their_doors():
    assert violations() == []


def private_of(name):
    """A private function or class of the named section."""
    return next(definition.name for definition in SHAPE.definitions.values()
                if definition.section is not None and definition.section.name == name
                and definition.name.startswith("_")
                and isinstance(definition.node, (ast.FunctionDef, ast.ClassDef)))


def plant(tmp_path, section_name, body):
    """The module with `def _planted(): return <body>` at the end of the named section."""
    section = next(section for section in SHAPE.sections if section.name == section_name)
    lines = SHAPE.source.splitlines()
    planted = ["def _planted():", "    return %s" % body, ""]
    path = tmp_path / "planted.py"
    path.write_text("\n".join(lines[:section.last] + planted + lines[section.last:]) + "\n",
                    encoding="utf-8")
    return sections.read_shape(str(path))


def test_the_checker_sees_a_planted_upward_call(tmp_path):
    """The checks above could fail: plant an upward call and a private engine reference."""
    engine = engines()[0]
    private = private_of(engine.name)
    tool = next(name for name, definition in SHAPE.definitions.items()
                if definition.section is not None and definition.section.name == "Tools")
    shape = plant(tmp_path, "Schema", "%s, %s" % (tool, private))
    found = [(referrer.name, referred.name) for referrer, referred in sections.references(shape)]
    assert ("_planted", tool) in found and ("_planted", private) in found
    assert any("_planted (Schema) calls up into %s" % tool in line for line in violations(shape))
    assert any("_planted (Schema) uses %s" % private in line for line in violations(shape))


def test_the_checker_sees_a_planted_private_name_of_another_product_section(tmp_path):
    """Tools may use the Reader, but only its doors: a Reader private name is refused."""
    private = private_of("Reader")
    found = violations(plant(tmp_path, "Tools", private))
    assert found == ["_planted (Tools) uses %s, private to Reader: use a door of Reader" % private]


def test_an_engine_s_parts_share_its_private_names_and_no_other_engine_does(tmp_path):
    """YAML's loader may use the YAML scanner's private names; the Globs engines may not."""
    private = private_of("YAML scanner")
    assert violations(plant(tmp_path, "YAML loader", private)) == []
    found = violations(plant(tmp_path, "Globs engines", private))
    assert found == ["_planted (Globs engines) uses %s, private to the YAML engine" % private]


def kept_for_one(shape=SHAPE):
    """The Contract's statements that one other section alone uses (and the Contract does not):
    they belong beside their user, in that section."""
    contract = next(section for section in shape.sections if section.name == "Contract")
    users = {}
    for referrer, referred in sections.references(shape):
        if referred.section == contract and referrer.section is not None:
            users.setdefault(referred.name, set()).add(referrer.section.name)
    statements = [(node, sections._bound_names(node)) for node in shape.tree.body]
    statements = [(node, names) for node, names in statements
                  if names and shape.definitions[names[0]].section == contract]
    inside = {sub.id for node, names in statements for sub in ast.walk(node)
              if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and sub.id not in names}
    found = []
    for node, names in statements:
        using = set().union(*(users.get(name, set()) for name in names))
        if len(using) == 1 and not inside & set(names):
            found.append("%s (only %s uses it)" % (", ".join(names), using.pop()))
    return found


def test_the_contract_keeps_only_what_several_sections_share(tmp_path):
    assert kept_for_one() == []


@pytest.mark.parametrize("also_in_contract", [False, True])
def test_the_contract_check_sees_a_constant_one_section_alone_uses(tmp_path, also_in_contract):
    """A Contract constant only Tools uses is flagged; one the Contract uses too stays."""
    lines = SHAPE.source.splitlines()
    contract, tools = (next(section for section in SHAPE.sections if section.name == name)
                       for name in ("Contract", "Tools"))
    planted = ["_PLANTED_ONE = 1", ""]
    if also_in_contract:
        planted += ["def _planted_contract_user():", "    return _PLANTED_ONE", ""]
    user = ["def _planted_user():", "    return _PLANTED_ONE", ""]
    text = lines[:contract.last] + planted + lines[contract.last:tools.last] + user \
        + lines[tools.last:]
    path = tmp_path / "one_user.py"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    expected = [] if also_in_contract else ["_PLANTED_ONE (only Tools uses it)"]
    assert kept_for_one(sections.read_shape(str(path))) == expected


def test_no_function_is_longer_than_80_lines():
    long = ["%s (%d lines, line %d)" % (name, sections.length(node), node.lineno)
            for name, node in sections.functions(SHAPE.tree)
            if sections.length(node) > MAX_FUNCTION_LINES]
    assert long == []


def public_functions():
    """Public functions and the methods of public classes (each engine's door among them);
    dunder methods other than __init__ follow Python's own protocols and are left out."""
    return [(name, node) for name, node in sections.functions(SHAPE.tree, nested=False)
            if sections.is_public(name)
            and not (name.split(".")[-1].startswith("__") and name.split(".")[-1] != "__init__")]


def test_every_public_and_door_function_carries_type_hints():
    bare = [name for name, node in public_functions() if not sections.is_hinted(node)]
    assert bare == []


def test_the_command_line_starts_after_every_section_is_defined():
    """`python3 adrkit_mcp.py` runs main() from the module's last statement: engines included."""
    last = SHAPE.tree.body[-1]
    assert isinstance(last, ast.If) and "__main__" in ast.dump(last.test), ast.dump(last)[:200]
    assert not any(isinstance(node, ast.If) and "__main__" in ast.dump(node.test)
                   for node in SHAPE.tree.body[:-1])


# ---- the map: every list of the sections names the sections the headers make --------------------

def listed_sections(text, entry, engines_start):
    """(every (number, name) the lines of `text` matching `entry` list, in order; those listed
    before the first line matching `engines_start`, the product floor's)."""
    listed, product = [], None
    for line in text.splitlines():
        if product is None and re.search(engines_start, line):
            product = list(listed)
        match = re.match(entry, line)
        if match:
            listed.append((int(match.group(1)), match.group(2)))
    return listed, product


def headers():
    """(every (number, name) of the section headers, the product floor's)."""
    found = [(section.number, section.name) for section in SHAPE.sections]
    return found, [(number, name) for number, name in found if name in sections.PRODUCT]


MAPS = {  # where each list lives: (file, how a line lists a section, where the engines start)
    "module docstring": (None, r"^ {0,2}(\d+)\. (\S+(?: \S+)*?)(?:  |$)", r"compatibility engines below"),
    "ADR 0001": (os.path.join("docs", "adr", "0001-keep-the-server-in-one-module.md"),
                 r"^(\d+)\. \*\*(.+?)\*\*", r"compatibility engines"),
    "docs/ARCHITECTURE.md": (os.path.join("docs", "ARCHITECTURE.md"),
                             r"^ (?:floor|      ) +\| (\d+) (\S+(?: \S+)*?)  ", r"^ engine "),
}


@pytest.mark.parametrize("where", sorted(MAPS))
def test_each_map_of_the_module_lists_the_sections_its_headers_make(where):
    """The module docstring, ADR 0001 and the architecture page's drawing each list every section
    by number and name, in order, split into the same two floors: a section added, renamed,
    renumbered or moved to the other floor fails here until the words follow."""
    path, entry, engines_start = MAPS[where]
    if path is None:
        text = ast.get_docstring(SHAPE.tree) or ""
    else:
        if MODULE != sections.MODULE:
            pytest.skip("%s describes adrkit_mcp.py itself, not $ADRKIT_MCP_MODULE" % where)
        with open(os.path.join(HERE, "..", path), encoding="utf-8") as handle:
            text = handle.read()
    listed, product = listed_sections(text, entry, engines_start)
    expected, expected_product = headers()
    assert listed == expected, "%s lists %s; the headers make %s" % (where, listed, expected)
    assert product == expected_product, "%s's product floor: %s, not %s" % (where, product, expected_product)


def test_the_map_check_sees_a_missing_or_misnumbered_section():
    """The check above could fail: a docstring without Collation, or with Reader numbered 7."""
    _, entry, engines_start = MAPS["module docstring"]
    text = ast.get_docstring(SHAPE.tree)
    expected, _ = headers()
    assert listed_sections(text, entry, engines_start)[0] == expected
    dropped = "\n".join(line for line in text.splitlines() if "Collation" not in line)
    assert listed_sections(dropped, entry, engines_start)[0] == expected[:-1]
    reader = next(number for number, name in expected if name == "Reader")
    renumbered = re.sub(r"(?m)^ {0,2}%d\. Reader" % reader, " %d. Reader" % (reader - 1), text)
    assert listed_sections(renumbered, entry, engines_start)[0] != expected


def test_the_architecture_page_shows_the_current_line_ranges():
    page = os.path.join(HERE, "..", "docs", "ARCHITECTURE.md")
    with open(page, encoding="utf-8") as handle:
        text = handle.read()
    if MODULE != sections.MODULE:
        pytest.skip("the page describes adrkit_mcp.py itself, not $ADRKIT_MCP_MODULE")
    assert sections.markdown_table(SHAPE) in text, (
        "docs/ARCHITECTURE.md is out of date: paste `python3 tools/sections.py --markdown`")
