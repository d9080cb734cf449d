"""A quoted scalar cut short by a less-indented line, as yaml 2.9.0 reads it.

The JS library's lexer looks for the closing quote first (skipping `''` pairs,
or escaped `\\"`), then cuts the scalar at the end of the first line whose
successor does not continue it (indented less than the scalar needs, or a
`---`/`...` marker); its CR is not part of the scalar.  Its composer then
calls the scalar closed when the cut text ends with the quote character: so
`- 'Core:0001''` before an unindented line is the string ``Core:0001'``, with
no error, while a cut scalar that ends in any other character is
MISSING_CHAR.  A double-quoted scalar's final escape reads into that last
character (`"x\\"` cut there is ``x"``).

Expected outcomes recorded from yaml 2.9.0 (parseDocument with strict: true,
then toJS) on each source: ("ok", value) or (stage, first error code).
"""
import pytest

from adrkit_mcp import FrontmatterYaml

FrontmatterYamlError = FrontmatterYaml.Error
load_frontmatter_yaml = FrontmatterYaml.load

CASES = [
    ("supersedes:\n  - 'Core:0001''\nstatus: 'accepted'\n",
     ('ok', {'supersedes': ["Core:0001'"], 'status': 'accepted'})),
    ("supersedes:\n  - 'Core:0001''\nstatus: accepted\n",
     ('parse', 'MISSING_CHAR')),
    ("supersedes:\n  - 'Core:0001''\nstatus: x # it's\n",
     ('ok', {'supersedes': ["Core:0001'"], 'status': 'x'})),
    ("a:\n  - 'x'' y''\nb: 'c'\n",
     ('ok', {'a': ["x' y'"], 'b': 'c'})),
    ("a:\n  - 'x\nb: 'c'\n",
     ('parse', 'MISSING_CHAR')),
    ("a:\n  - 'x'\nb: 'c'\n",
     ('ok', {'a': ['x'], 'b': 'c'})),
    ("a:\n  - 'x''\n  b: 'c'\n",
     ('parse', 'BAD_INDENT')),
    ("a:\n  - 'x''\n   b'\n",
     ('ok', {'a': ["x' b"]})),
    ("a: 'x''\nb: 'c'\n",
     ('ok', {'a': "x'", 'b': 'c'})),
    ("a:\n  b: 'x''\nc: 'd'\n",
     ('ok', {'a': {'b': "x'"}, 'c': 'd'})),
    ("- 'x''\n'y'\n",
     ('parse', 'UNEXPECTED_TOKEN')),
    ('a:\n  - "x\\"\nb: "c"\n',
     ('ok', {'a': ['x"'], 'b': 'c'})),
    ('a:\n  - "x\\\\"\nb: "c"\n',
     ('ok', {'a': ['x\\'], 'b': 'c'})),
    ("a:\n  - 'x'''\nb: 'c'\n",
     ('ok', {'a': ["x'"], 'b': 'c'})),
    ("a:\n  - 'x' '\nb: 'c'\n",
     ('parse', 'UNEXPECTED_TOKEN')),
    ("a:\n  - ''''\nb: 'c'\n",
     ('ok', {'a': ["'"], 'b': 'c'})),
    ("a:\n  - '''\nb: 'c'\n",
     ('ok', {'a': ["'"], 'b': 'c'})),
    ("a:\n  - 'x''\n\nb: 'c'\n",
     ('parse', 'MISSING_CHAR')),
    ("a:\n  - 'x''  \nb: 'c'\n",
     ('parse', 'MISSING_CHAR')),
    ("a:\n  - 'x'' # c\nb: 'c'\n",
     ('parse', 'MISSING_CHAR')),
    ("[ 'x''\n]\n'",
     ('parse', 'MISSING_CHAR')),
    ("a:\n  - 'x''\r\nb: 'c'\r\n",
     ('ok', {'a': ["x'"], 'b': 'c'})),
    ('a:\n  - "x\\"\nb: "c"\n',
     ('ok', {'a': ['x"'], 'b': 'c'})),
    ('a:\n  - "x\\\\\\"\nb: "c"\n',
     ('ok', {'a': ['x\\"'], 'b': 'c'})),
    ('a:\n  - "x\\x4"\nb: 1\n',
     ('parse', 'BAD_DQ_ESCAPE')),
    ('a:\n  - "x\\"\nb: 1\n',
     ('parse', 'MISSING_CHAR')),
    ("a: 'x''",
     ('ok', {'a': "x'"})),
    ("a: 'x'''",
     ('ok', {'a': "x'"})),
    ('a: "x\\"',
     ('ok', {'a': 'x"'})),
    ("a: 'x''\nb: 1",
     ('parse', 'MISSING_CHAR')),
    ("a:\n  - 'x''\n...\n'",
     ('parse', 'MULTIPLE_DOCS')),
    ("a:\n  - 'x''\n---\nb: 'c'\n",
     ('parse', 'MULTIPLE_DOCS')),
    ("- 'x''\n- 'y'\n",
     ('ok', ["x'", 'y'])),
    ("'x'': 1\n'y': 2\n",
     ('parse', 'MULTILINE_IMPLICIT_KEY')),
    ("a:\n  - 'x'' y\n  z''\nb: 'c'\n",
     ('parse', 'MISSING_CHAR')),
    ("a:\n  - 'x''\n    y''\nb: 'c'\n",
     ('ok', {'a': ["x' y'"], 'b': 'c'})),
    ("a:\n  - [ 'x''\nb: 'c'\n",
     ('parse', 'BAD_INDENT')),
    ("a:\n  - { k: 'x''\nb: 'c' }\n",
     ('parse', 'BAD_INDENT')),
    ('a:\n  - \'x""\nb: "c"\n',
     ('parse', 'MISSING_CHAR')),
    ('a:\n  - "x\\\\\nb: "c"\n',
     ('parse', 'MISSING_CHAR')),
    ("a:\n  - '\nb: 'c'\n",
     ('parse', 'MISSING_CHAR')),
    ("a:\n  - ''\nb: 'c'\n",
     ('ok', {'a': [''], 'b': 'c'})),
    ("a:\n  - 'x'' \\\nb: 'c'\n",
     ('parse', 'MISSING_CHAR')),
    ('a:\n  - "\\"\nb: "c"\n',
     ('ok', {'a': ['"'], 'b': 'c'})),
    ('a:\n  - "x\\u00"\nb: "c"\n',
     ('parse', 'BAD_DQ_ESCAPE')),
    ("a:\n  - &q 'x''\nb: *q\nc: 'd'\n",
     ('ok', {'a': ["x'"], 'b': "x'", 'c': 'd'})),
    ("a:\n  - !!str 'x''\nb: 'c'\n",
     ('ok', {'a': ["x'"], 'b': 'c'})),
    ("k: 'v''\n# it's\n",
     ('ok', {'k': "v'"})),
]


def outcome(source, route):
    try:
        return ("ok", load_frontmatter_yaml(source, route))
    except FrontmatterYamlError as error:
        return (error.stage, error.code)


@pytest.mark.parametrize("route", ["auto", "full"])
@pytest.mark.parametrize("source,expected", CASES, ids=["cut-%d" % i for i in range(len(CASES))])
def test_cut_quoted_scalar(source, expected, route):
    assert outcome(source, route) == expected
