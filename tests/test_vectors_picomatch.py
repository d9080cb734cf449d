"""Conformance of the path matcher with picomatch 4.0.5.

The vectors (tests/data/vectors/picomatch.json) were produced by running the
reference's matchPathPattern, i.e. picomatch(pattern, {dot: false,
nocase: false, nonegate: true}) plus the wrapper's dot-segment rule.
"""
import json
import pathlib
import sys

import pathspec
import pytest

from adrkit_mcp import picomatch_pattern_type

PicomatchPattern = picomatch_pattern_type()  # the door: the type, registered with pathspec

# The module that holds the matcher, for tests that reach its engines.
GLOBS = sys.modules[PicomatchPattern.__module__]


def match_path_pattern(pattern, paths):
    """The reference's matchPathPattern, through the door."""
    return PicomatchPattern(pattern).match_paths(paths)


def compile_path_pattern(pattern):
    """The engine's compiled matcher behind the door (its pathspec "regex")."""
    return PicomatchPattern(pattern).regex

VECTORS_PATH = pathlib.Path(__file__).resolve().parent / "data" / "vectors" / "picomatch.json"
DATA = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
CASES = [(group["id"], index, case)
         for group in DATA["groups"] for index, case in enumerate(group["cases"])]


def test_vector_file_is_complete():
    assert DATA["library"] == {"name": "picomatch", "version": "4.0.5"}
    assert len(CASES) == DATA["caseCount"]


@pytest.mark.parametrize("case", [case for _, _, case in CASES],
                         ids=["%s-%d" % (group_id, index) for group_id, index, _ in CASES])
def test_match_path_pattern(case):
    matched, bad_pattern = match_path_pattern(case["pattern"], [case["path"]])
    assert matched is case["matched"]
    assert bad_pattern == case["badPattern"]


def test_both_engines_agree_with_picomatch_on_every_vector():
    """rawMatch (picomatch alone) holds for Python's re and for the NFA.

    match_path_pattern picks the engine by candidate length, so the vectors
    alone would exercise the NFA only for long paths; here each engine is run
    on every case directly.
    """
    failures = []
    for group_id, index, case in CASES:
        if case["badPattern"] is not None:
            continue
        matcher = compile_path_pattern(case["pattern"])
        candidate = GLOBS._glob_normalise_candidate(case["path"])
        if not candidate or candidate == case["pattern"] or matcher._regex is None:
            continue  # decided before any regex runs
        units = GLOBS.JS.code_units(candidate)
        engines = {"nfa": matcher._built_machine().accepts(units)}
        if matcher._re_match is not None:
            engines["re"] = matcher._re_match(units) is not None
        for name, got in engines.items():
            if got is not case["rawMatch"]:
                failures.append((group_id, index, name, case["pattern"], case["path"]))
    assert failures == []


def test_the_literal_prefix_turns_away_only_candidates_the_regex_refuses():
    """The matcher refuses a candidate without running any engine when it does not start with
    the regex's leading literal text (ADR 0018): on every vector where that happens, picomatch
    itself did not match (literal equality with the pattern aside) and nothing threw."""
    turned_away = 0
    for group_id, index, case in CASES:
        if case["badPattern"] is not None:
            continue
        matcher = compile_path_pattern(case["pattern"])
        candidate = GLOBS._glob_normalise_candidate(case["path"])
        if matcher._prefix and not candidate.startswith(matcher._prefix) \
                and candidate != case["pattern"]:
            turned_away += 1
            assert case["rawMatch"] is False and case["matched"] is False, (group_id, index)
    assert turned_away > 500  # the rule is exercised, not vacuous


@pytest.mark.parametrize("pattern, prefix", [
    ("src/db/**", "src/db"), ("src/db/pool.ts", "src/db/pool.ts"), ("**/*.ts", ""),
    ("src/auth/**/*.{ts,tsx}", "src/auth"), ("services/{api,db}/**", "services/"),
    ("docs/naïve café/**", "docs/naïve café"), ("a/😀/b", "a/"), ("!(x)/y", ""),
    ("/abs/**", ""), ("src/a\\*b", "src/a*b")])
def test_the_literal_prefix_of_typical_patterns(pattern, prefix):
    assert compile_path_pattern(pattern)._prefix == prefix


# --- pathspec integration ---------------------------------------------------

def test_registered_as_a_pathspec_pattern_type():
    spec = pathspec.PathSpec.from_lines("picomatch", ["src/db/**", "**/*.md"])
    assert all(isinstance(p, PicomatchPattern) for p in spec.patterns)
    assert spec.match_file("src/db/schema.sql")
    assert spec.match_file("docs/adr/0001-x.md")
    assert not spec.match_file("src/api/index.ts")
    assert pathspec.util.lookup_pattern("picomatch") is not None


def test_pattern_match_file_follows_the_product_rules():
    assert PicomatchPattern("src/**").match_file("src") is not None
    # The wrapper's dot rule: a dot segment needs a dot segment in the pattern.
    assert PicomatchPattern("**").match_file(".github/ci.yml") is None
    assert PicomatchPattern(".github/**").match_file(".github/ci.yml") is not None
    # Rejected patterns are pathspec null-operations carrying the reason.
    rejected = PicomatchPattern("/src/**")
    assert rejected.include is None
    assert rejected.bad_pattern == "leading-slash"


def test_registration_survives_a_second_import():
    """The module may be imported twice under different names."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("globs_second_copy", GLOBS.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # must not raise AlreadyRegisteredError
    assert module.picomatch_pattern_type()("a/*").match_paths(["a/b"]) == (True, None)


# --- compilation cache ------------------------------------------------------

def test_compilation_is_cached_per_pattern():
    first = compile_path_pattern("packages/*/src/**/*.ts")
    hits = GLOBS._glob_compile.cache_info().hits
    assert compile_path_pattern("packages/*/src/**/*.ts") is first
    assert GLOBS._glob_compile.cache_info().hits == hits + 1
    assert GLOBS._glob_compile.cache_info().maxsize >= 1024


def test_compiled_matcher_interface():
    matcher = PicomatchPattern("src/db/**")
    assert matcher.bad_pattern is None
    assert matcher.match_file("src/db/models/user.ts")
    assert not matcher.match_file("src/api/x.ts")
    assert PicomatchPattern("").bad_pattern == "invalid-glob"
    assert PicomatchPattern("/abs").bad_pattern == "leading-slash"


# --- behaviours worth a named test -------------------------------------------

def test_any_of_several_paths():
    assert match_path_pattern("**/*.sql", ["README.md", "db/001.sql"]) == (True, None)
    assert match_path_pattern("**/*.sql", []) == (False, None)


def test_candidates_are_normalised_like_the_reference():
    assert match_path_pattern("src/*.ts", ["src\\a.ts"]) == (True, None)
    assert match_path_pattern("a", ["./a"]) == (True, None)
    # Only one "./" is dropped from a candidate.
    assert match_path_pattern("a", ["././a"]) == (False, None)


def test_astral_characters_are_two_code_units():
    assert match_path_pattern("??", ["\U0001F600"]) == (True, None)
    assert match_path_pattern("?", ["\U0001F600"]) == (False, None)


def test_v8_limits_are_mirrored():
    # V8 compiles a regex on first use and throws for a run of 32,768 literal
    # characters; the reference then reports the pattern as invalid, but only
    # once a candidate actually reaches the regex.
    huge = "a" * 32768
    assert match_path_pattern(huge, ["b"]) == (False, "invalid-glob")
    assert match_path_pattern(huge, []) == (False, None)
    assert match_path_pattern(huge, [huge]) == (True, None)  # literal equality first
    assert match_path_pattern("a" * 32767, ["b"]) == (False, None)
    # More than 32,767 capture groups is a SyntaxError: never matches.
    assert match_path_pattern("()" * 32768, ["x"]) == (False, None)


def test_pattern_that_hangs_picomatch_is_reported_invalid():
    # picomatch 4.0.5 loops forever on a trailing run of four backslashes;
    # the port reports the pattern instead of hanging.
    assert match_path_pattern("a/\\\\\\\\", ["a"]) == (False, "invalid-glob")
