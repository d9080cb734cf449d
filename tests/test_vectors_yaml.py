"""Reference vectors for the frontmatter YAML loader (JS `yaml` 2.9.0).

Each case in tests/data/vectors/yaml.json records what the reference product
does with one YAML source: the value `document.toJS()` returns, or the stage
("parse" / "toJS") and first error code of the failure.  The loader must
agree with at least 98% of all cases; every case outside DIVERGENCES must
agree exactly (ok/not-ok, stage, first error code, value incl. key order and
the int/float distinction).
"""

import base64
import json
import math
import pathlib

import pytest

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)

from adrkit_mcp import FrontmatterYaml

FrontmatterYamlError = FrontmatterYaml.Error
load_frontmatter_yaml = FrontmatterYaml.load


def load_full_path(source):
    """The full path alone, without the line-based fast path."""
    return load_frontmatter_yaml(source, "full")

DATA_PATH = pathlib.Path(__file__).resolve().parent / "data" / "vectors" / "yaml.json"
DATA = json.loads(DATA_PATH.read_text(encoding="utf-8"))
CASES = [(group["id"], index, case) for group in DATA["groups"] for index, case in enumerate(group["cases"])]
CASE_IDS = ["%s-%d" % (group, index) for group, index, _ in CASES]

# Cases where the loader knowingly differs from the JS library, as
#   "group-index": "source snippet | JS does ... | we do ... | because ...",
# Currently none: all 573 cases agree, through the default route (fast path,
# else full path) and through the full path alone.
DIVERGENCES = {}


# -- expected values --------------------------------------------------------


def decode(value):
    """Encoded vector value -> plain Python with JS number semantics."""
    if isinstance(value, list):
        return [decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    kind = value.get("$type")
    if kind is None:
        return {(key[1:] if key.startswith("$$") else key): decode(item) for key, item in value.items()}
    if kind == "number":
        text = value["value"]
        if text in ("NaN", "Infinity", "-Infinity"):
            return float(text.replace("Infinity", "inf"))
        if text == "-0":
            return -0.0
        return int(text) if value["integer"] else float(text)
    if kind == "date":
        return ("date", value["value"])
    if kind == "binary":
        return base64.b64decode(value["base64"])
    if kind == "map":
        return [(decode(key), decode(item)) for key, item in value["entries"]]
    if kind == "set":
        return [decode(item) for item in value["items"]]
    return (kind, value)  # circular / undefined / bigint markers


def to_comparable(value, path=(), ancestors=()):
    """Loader output -> the shapes decode() produces (cycles become markers)."""
    for depth, ancestor in enumerate(ancestors):
        if ancestor is value:
            return ("circular", {"$type": "circular", "path": list(path[:depth])})
    # The door's value objects for tagged values: a JS Date (`.iso`), Map
    # (`.entries`) and Set (`.items`, a list).
    if hasattr(value, "iso"):
        return ("date", value.iso)
    if hasattr(value, "entries"):
        inner = ancestors + (value,)
        return [
            (to_comparable(key, path + (i,), inner), to_comparable(item, path + (i,), inner))
            for i, (key, item) in enumerate(value.entries)
        ]
    if not isinstance(value, dict) and isinstance(getattr(value, "items", None), list):
        inner = ancestors + (value,)
        return [to_comparable(item, path + (i,), inner) for i, item in enumerate(value.items)]
    if isinstance(value, list):
        inner = ancestors + (value,)
        return [to_comparable(item, path + (i,), inner) for i, item in enumerate(value)]
    if isinstance(value, dict):
        inner = ancestors + (value,)
        return {key: to_comparable(item, path + (key,), inner) for key, item in value.items()}
    return value


def same(expected, actual):
    """Strict structural equality: types (int/float/bool), NaN, key order."""
    if isinstance(expected, float):
        if not isinstance(actual, float):
            return False
        if math.isnan(expected):
            return math.isnan(actual)
        return expected == actual and math.copysign(1, expected) == math.copysign(1, actual)
    if isinstance(expected, bool) or expected is None:
        return actual is expected
    if isinstance(expected, int):
        return type(actual) is int and actual == expected
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and list(expected) == list(actual)
            and all(same(expected[key], actual[key]) for key in expected)
        )
    if isinstance(expected, (list, tuple)):
        return (
            type(actual) is type(expected)
            and len(expected) == len(actual)
            and all(same(e, a) for e, a in zip(expected, actual))
        )
    return type(actual) is type(expected) and expected == actual


def check_case(case, loader=None):
    """Return None when the loader agrees with the case, else a description."""
    loader = loader or load_frontmatter_yaml
    try:
        got = loader(case["source"])
    except FrontmatterYamlError as error:
        if case["ok"]:
            return "expected a value, got %s/%s: %s" % (error.stage, error.code, error.message)
        if (error.stage, error.code) != (case["errorStage"], case["error"]):
            return "expected %s/%s, got %s/%s: %s" % (
                case["errorStage"], case["error"], error.stage, error.code, error.message,
            )
        return None
    if not case["ok"]:
        return "expected %s/%s, got value %r" % (case["errorStage"], case["error"], got)
    expected = decode(case["value"])
    actual = to_comparable(got)
    if not same(expected, actual):
        return "expected %r, got %r" % (expected, actual)
    return None


# -- tests ------------------------------------------------------------------


@pytest.mark.parametrize("group,index,case", CASES, ids=CASE_IDS)
def test_frontmatter_yaml_vector(group, index, case):
    key = "%s-%d" % (group, index)
    problem = check_case(case)
    if key in DIVERGENCES:
        if problem is None:
            pytest.fail("listed in DIVERGENCES but agrees now; remove the entry")
        pytest.skip("known divergence: " + DIVERGENCES[key])
    assert problem is None, problem


def test_agreement_bar():
    failures = [key for key, (_, _, case) in zip(CASE_IDS, CASES) if check_case(case) is not None]
    agreed = len(CASES) - len(failures)
    assert agreed / len(CASES) >= 0.98, failures
    reachable = [(key, case) for key, (_, _, case) in zip(CASE_IDS, CASES) if case["frontmatterReachable"]]
    reachable_failures = [key for key, case in reachable if check_case(case) is not None]
    assert set(failures) <= set(DIVERGENCES), sorted(set(failures) - set(DIVERGENCES))
    assert not (set(reachable_failures) - set(DIVERGENCES))


def test_pure_python_path_agrees():
    """The pure-Python path alone (what the zipapp ships) meets the same bar."""
    pure = load_full_path
    failures = {key for key, (_, _, case) in zip(CASE_IDS, CASES) if check_case(case, pure) is not None}
    assert failures <= set(DIVERGENCES), sorted(failures - set(DIVERGENCES))


def test_default_route_matches_the_full_path():
    """The default route (fast path first) gives the full path's result on every case."""
    pure = load_full_path
    differences = []
    for key, (_, _, case) in zip(CASE_IDS, CASES):
        if check_case(case, load_frontmatter_yaml) != check_case(case, pure):
            differences.append(key)
    assert not differences, differences


# -- hostile input: bounded time and memory, no interpreter crash -----------

HOSTILE_SECONDS = 30.0  # a hang guard: these take well under a second


def _outcome(source):
    """Outcome of the default loader, checked against the pure-Python one."""
    results = []
    for loader in (load_frontmatter_yaml, load_full_path):
        try:
            support.hang_guard(lambda: loader(source), HOSTILE_SECONDS, "the hostile document")
            results.append(("ok", None, None))
        except FrontmatterYamlError as error:
            results.append(("error", error.stage, error.code))
    assert results[0] == results[1]
    return results[0]


def test_billion_laughs_is_refused_at_tojs_stage():
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 10):
        refs = ", ".join(["*l%d" % (level - 1)] * 10)
        lines.append("l%d: &l%d [%s]" % (level, level, refs))
    assert _outcome("\n".join(lines) + "\n") == ("error", "toJS", "ReferenceError")


def test_alias_cap_counts_like_the_js_library():
    ok = "a: &a x\n" + "".join("k%d: *a\n" % i for i in range(99))
    too_many = "a: &a x\n" + "".join("k%d: *a\n" % i for i in range(100))
    assert _outcome(ok) == ("ok", None, None)
    assert _outcome(too_many) == ("error", "toJS", "ReferenceError")


@pytest.mark.parametrize(
    "source",
    [
        "[" * 30000 + "]" * 30000 + "\n",
        "{a: " * 20000 + "1" + "}" * 20000 + "\n",
        "- " * 20000 + "x\n",
        "".join(" " * i + "k:\n" for i in range(900)),
    ],
    ids=["flow-seq", "flow-map", "block-seq", "block-map"],
)
def test_deep_nesting_is_a_parse_error_not_a_crash(source):
    # The JS library overflows its stack around 800-950 levels and reports
    # RESOURCE_EXHAUSTION; the port refuses nesting beyond 800 the same way.
    assert _outcome(source) == ("error", "parse", "RESOURCE_EXHAUSTION")


def test_nesting_just_below_the_cap_still_loads():
    assert _outcome("[" * 790 + "]" * 790 + "\n") == ("ok", None, None)
    assert _outcome("{a: " * 790 + "1" + "}" * 790 + "\n") == ("ok", None, None)


@pytest.mark.parametrize(
    "source",
    [
        "v: [" + ", ".join(["a"] * 21000) + "]\n",
        "[" + ", ".join(["a"] * 21000) + "]: x\n",
        "".join("k%d: v\n" % i for i in range(6500)),
        "a: 1\n" * 13000,
        "v: \"" + "\\u263A" * 10900 + "\"\n",
        "v: !!omap [" + ", ".join("k%d: 1" % i for i in range(5000)) + "]\n",
        "k" * 65500 + ": v\n",
    ],
    ids=["long-flow-seq", "long-flow-key", "many-keys", "many-duplicates", "escapes", "omap", "long-key"],
)
def test_64k_inputs_finish_quickly(source):
    assert len(source) <= 65536 + 16
    _outcome(source)


if __name__ == "__main__":  # quick report without pytest
    bad = [(key, check_case(case)) for key, (_, _, case) in zip(CASE_IDS, CASES)]
    bad = [(key, why) for key, why in bad if why]
    reach = {key for key, (_, _, case) in zip(CASE_IDS, CASES) if case["frontmatterReachable"]}
    for key, why in bad:
        print(key, "R" if key in reach else "U", why[:300])
    print("failures: %d / %d (reachable failures: %d)" % (len(bad), len(CASES), len([k for k, _ in bad if k in reach])))
