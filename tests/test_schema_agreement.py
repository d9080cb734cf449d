"""The published input schemas and the argument validators accept and refuse the same arguments.

tools/list publishes each tool's `inputSchema` (TOOL_INPUT_SCHEMAS); tools/call checks the
arguments with the tool's own validator (TOOLS[name][0]). A client that checks its arguments
against the schema before calling must not be refused for an argument the schema allows, and the
validator must not let through what the schema forbids. The two cannot be identical, because the
reference's validators (zod, in packages/mcp/src/tools/shared.ts) check a few things its JSON
Schema has no word for, and this server's validators reproduce them:

  * string lengths count UTF-16 code units (JavaScript's `length`), where JSON Schema's
    minLength/maxLength count code points: a text with astral characters can fit the schema and
    still be too long;
  * search_decisions' query must not be empty after JavaScript's trim();
  * status, tags and scope must not repeat an entry ("Items must be unique");
  * every file of get_decision_context must be a repo-relative POSIX path (isSafePosixPath).

So the oracle here is the JSON Schema, read by jsonschema with two JavaScript readings (lengths
in UTF-16 code units; `$` at the end of a pattern matches only at the end of the text, as in
ECMAScript, where Python's `re` also lets it match before a final newline), plus those four
rules, written here from the reference's source and not taken from the module. The tests assert:

  1. the validator accepts exactly what the oracle accepts;
  2. whatever the validator accepts, the plain schema (code points, jsonschema as it is) accepts
     too: the server is never more lenient than what it publishes.

Arguments come from a seeded generator (deterministic, several hundred per tool): valid
arguments, then mutations of them -- missing and unknown keys, wrong JSON types, lengths and
counts at and one past each bound (in UTF-16 code units, astral characters included), enum
values, duplicates, whitespace-only queries (JavaScript's whitespace, and look-alikes it does not
trim), unsafe paths, integers and their float and boolean look-alikes.
"""

import random
import re

import pytest

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test requirement (requirements-dev.txt)")
from jsonschema import Draft202012Validator, ValidationError, validators  # noqa: E402

CASES_PER_TOOL = 600
SEED = 33  # issue 33: the types that check

# ECMAScript's WhiteSpace and LineTerminator code points: what String.prototype.trim() removes.
JS_WHITESPACE = ("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
                 "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
# Characters that look blank but trim() keeps (so a query of them is not empty).
NOT_JS_WHITESPACE = "\u0085\u180e\u200b\u200c\u200d\u2060"
STATUSES = ["draft", "proposed", "accepted", "rejected", "superseded", "deprecated"]
SCOPES = ["component", "domain", "org"]
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz"
ASTRAL = "\U0001F600\U00010348\U0001D11E"


def utf16_len(text):
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


# --- The oracle: the schema read as JavaScript reads it, plus the reference's refinements ------

def _js_pattern(validator, pattern, instance, schema):
    if not validator.is_type(instance, "string"):
        return
    assert pattern.count("$") == 1 and pattern.endswith("$"), "only a final `$` is translated"
    if not re.search(pattern[:-1] + r"\Z", instance):
        yield ValidationError("%r does not match %r" % (instance, pattern))


def _utf16_min_length(validator, limit, instance, schema):
    if validator.is_type(instance, "string") and utf16_len(instance) < limit:
        yield ValidationError("%r is shorter than %d UTF-16 code units" % (instance, limit))


def _utf16_max_length(validator, limit, instance, schema):
    if validator.is_type(instance, "string") and utf16_len(instance) > limit:
        yield ValidationError("%r is longer than %d UTF-16 code units" % (instance, limit))


JsReadingValidator = validators.extend(Draft202012Validator, {
    "pattern": _js_pattern, "minLength": _utf16_min_length, "maxLength": _utf16_max_length})


def js_trim(text):
    return text.strip(JS_WHITESPACE)


def is_safe_posix_path(path):
    """isSafePosixPath of the reference (tools/shared.ts)."""
    return not ("\\" in path or path.startswith("/") or re.match(r"[a-zA-Z]:", path)
                or ".." in path.split("/") or not path)


def refinements_hold(tool, arguments):
    """The zod refinements of the reference's input schemas that JSON Schema cannot carry."""
    if tool == "search_decisions":
        if not js_trim(arguments["query"]):
            return False
        for key in ("status", "tags", "scope"):
            if key in arguments and len(set(arguments[key])) != len(arguments[key]):
                return False
    if tool == "get_decision_context":
        return all(is_safe_posix_path(path) for path in arguments["files"])
    return True


# --- The generator -----------------------------------------------------------------------------

class Generator:
    """Seeded arguments for one tool: valid ones and mutations of them."""

    def __init__(self, tool, seed):
        self.tool = tool
        self.rng = random.Random("%s:%s" % (seed, tool))

    # strings ---------------------------------------------------------------

    def text(self, units, alphabet=None):
        """A string of exactly `units` UTF-16 code units."""
        rng, out, left = self.rng, [], units
        alphabet = alphabet or "abcXYZ019 -_./:" + JS_WHITESPACE[:6] + "\u00e9\u4e2d"
        while left:
            if left >= 2 and rng.random() < 0.15:
                out.append(rng.choice(ASTRAL))
                left -= 2
            else:
                out.append(rng.choice(alphabet))
                left -= 1
        return "".join(out)

    def length(self, low, high):
        """A length in [low, high], often a bound."""
        rng = self.rng
        return rng.choice([low, high, rng.randint(low, high), rng.randint(low, min(high, low + 10))])

    def bad_length(self, low, high):
        return self.rng.choice([c for c in (low - 1, high + 1, high + 2) if c >= 0])

    # valid values ----------------------------------------------------------

    def ref(self):
        rng = self.rng
        local = ("".join(rng.choice("0123456789") for _ in range(rng.choice([4, 4, 5, 8, 20])))
                 if rng.random() < 0.7 else "".join(rng.choice(CROCKFORD) for _ in range(26)))
        if rng.random() < 0.3:
            log = rng.choice("abc019") + "".join(rng.choice("abc019-") for _ in range(rng.randint(0, 12)))
            return log + ":" + local
        return local

    def safe_path(self):
        rng = self.rng
        parts = [self.text(rng.randint(1, 12), "abcXYZ019._-\u00e9" + ASTRAL).replace("..", "._")
                 for _ in range(rng.randint(1, 4))]
        path = "/".join(parts)
        if rng.random() < 0.1:  # at the 1024-unit cap
            path = (path + "/" + "a" * 1024)[:1024]
            if utf16_len(path) > 1024:
                path = "a" * 1024
        return path

    def distinct(self, pool, count):
        return self.rng.sample(pool, count)

    def valid(self):
        rng, args = self.rng, {}
        if self.tool == "search_decisions":
            query = self.text(self.length(1, 256))
            if not js_trim(query):
                query = "q" + query[1:] if utf16_len(query[0]) == 1 else "q" + query[2:] + "q"
            args["query"] = query
            if rng.random() < 0.4:
                args["status"] = self.distinct(STATUSES, rng.randint(1, 6))
            if rng.random() < 0.4:
                count = self.length(1, 32)
                args["tags"] = list(dict.fromkeys("t%d%s" % (index, self.text(rng.randint(0, 20)))
                                                  for index in range(count)))
                args["tags"] = [tag[:64] if utf16_len(tag[:64]) <= 64 else "tag%d" % index
                                for index, tag in enumerate(args["tags"])]
                args["tags"] = list(dict.fromkeys(args["tags"]))
            if rng.random() < 0.4:
                args["scope"] = self.distinct(SCOPES, rng.randint(1, 3))
        elif self.tool == "get_decision":
            args["ref"] = self.ref()
        elif self.tool == "get_decision_context":
            args["files"] = [self.safe_path() for _ in range(self.length(1, 256) if rng.random() < 0.2
                                                              else rng.randint(1, 5))]
        for key in ("cursor", "findingsCursor"):
            if rng.random() < 0.25:
                args[key] = self.text(self.length(0, 4096) if rng.random() < 0.3 else rng.randint(0, 40))
        for key in ("limit", "findingsLimit"):
            if rng.random() < 0.3:
                args[key] = rng.choice([1, 100, rng.randint(1, 100), float(rng.randint(1, 100))])
        return args

    # mutations -------------------------------------------------------------

    def wrong_type(self, current):
        choices = [None, True, False, 0, 7, 2.5, -1, "x", "", [], ["a"], {}, {"a": 1}, 1e300, 10 ** 30]
        return self.rng.choice([c for c in choices if type(c) is not type(current) or c != current])

    def mutate(self, args):
        rng = self.rng
        keys = {"search_decisions": ["query", "status", "tags", "scope"], "get_decision": ["ref"],
                "get_decision_context": ["files"], "list_superseded": []}[self.tool]
        keys = keys + ["cursor", "limit", "findingsCursor", "findingsLimit"]
        key = rng.choice(keys)
        kind = rng.randrange(12)
        if kind == 0:
            return rng.choice([None, [], "args", 3, [args]])  # not an object at all
        if kind == 1:
            args.pop(key, None)
        elif kind == 2:
            args[rng.choice(["extra", "Query", "ref ", "__proto__", "files2", ""])] = rng.choice([1, "x", None])
        elif kind == 3:
            args[key] = self.wrong_type(args.get(key))
        elif key in ("limit", "findingsLimit"):
            args[key] = rng.choice([0, 101, -5, 1.5, 100.0, 1.0, True, False, "5", 10 ** 20, 99.999, -0.0])
        elif key in ("cursor", "findingsCursor"):
            args[key] = self.text(rng.choice([4096, 4097, 4095]))
        elif key == "query":
            args[key] = rng.choice([
                self.text(self.bad_length(1, 256)), self.text(256), "\U0001F600" * 128, "\U0001F600" * 129,
                "".join(rng.choice(JS_WHITESPACE) for _ in range(rng.randint(1, 8))),
                "".join(rng.choice(NOT_JS_WHITESPACE) for _ in range(rng.randint(1, 4))),
                " \u3000q\ufeff "])
        elif key == "ref":
            ref = self.ref()
            args[key] = rng.choice([
                ref + "\n", ref.upper(), "-" + ref, "A:" + ref, "042", "0042x", "I" * 26, "0" * 129, "0" * 128,
                ref + ":", ":" + ref, "core:" + "1" * 123, "core:" + "1" * 124, "\u0660\u0661\u0662\u0663",
                "0042\u0000", "0001\r", ref.lower()])
        elif key == "files":
            files = list(args.get("files") or ["a"])
            choice = rng.randrange(7)
            if choice == 0:
                files = []
            elif choice == 1:
                files = ["f%d" % index for index in range(257)]
            elif choice == 2:
                files[rng.randrange(len(files))] = rng.choice([
                    "/etc/passwd", "a/../b", "..", "C:/x", "c:x", "a\\b", "", "a/./b", "./a", "a/..b",
                    "a" * 1025, "\U0001F600" * 512, "\U0001F600" * 513, "1:x", "./..", "a/.."])
            elif choice == 3:
                files[rng.randrange(len(files))] = self.wrong_type("x")
            elif choice == 4:
                files = files + files  # duplicates are allowed for files
            elif choice == 5:
                files = ["a" * 1024]
            else:
                files = "a/b.py"
            args[key] = files
        else:  # status, tags, scope
            pool = STATUSES if key == "status" else SCOPES if key == "scope" else None
            values = list(args.get(key) or [])
            choice = rng.randrange(7)
            if choice == 0:
                values = []
            elif choice == 1 and values:
                values.append(values[0])  # a duplicate
            elif choice == 2:
                values = [rng.choice(["Accepted", "superseded ", "final", "", "team", "orgs"])]
            elif choice == 3:
                values = (["t%d" % index for index in range(33)] if pool is None else pool + [pool[0]])
            elif choice == 4 and pool is None:
                values = [self.text(rng.choice([64, 65, 0])), "\U0001F600" * 32 + rng.choice(["", "x"])]
            elif choice == 5:
                values = [self.wrong_type("x")]
            else:
                values = rng.choice(["accepted", {"0": "accepted"}, 1])
            args[key] = values
        if rng.random() < 0.3:
            return self.mutate(args)
        return args

    def cases(self, count):
        for index in range(count):
            args = self.valid()
            yield args if index % 3 == 0 else self.mutate(args)


# --- The tests -----------------------------------------------------------------------------------

TOOL_NAMES = ["get_decision", "get_decision_context", "list_superseded", "search_decisions"]


_VERDICTS = {}


def _verdicts(module, tool):
    """(arguments, validator accepts, oracle accepts, plain schema accepts, problems) per case,
    worked out once per tool for the three tests."""
    key = (id(module), tool)
    if key not in _VERDICTS:
        _VERDICTS[key] = list(_judge(module, tool))
    return _VERDICTS[key]


def _judge(module, tool):
    schema = module.TOOL_INPUT_SCHEMAS[tool]
    Draft202012Validator.check_schema(schema)
    plain, js_reading = Draft202012Validator(schema), JsReadingValidator(schema)
    validate = module.TOOLS[tool][0]
    for arguments in Generator(tool, SEED).cases(CASES_PER_TOOL):
        problems, _ = validate(arguments)
        oracle = js_reading.is_valid(arguments) and refinements_hold(tool, arguments)
        yield arguments, not problems, oracle, plain.is_valid(arguments), problems


def _show(arguments):
    text = repr(arguments)
    return text if len(text) < 300 else text[:300] + "..."


@pytest.mark.parametrize("tool", TOOL_NAMES)
def test_validator_accepts_exactly_what_the_schema_and_the_references_refinements_accept(module, tool):
    disagreements = [(arguments, accepted, problems) for arguments, accepted, oracle, _, problems
                     in _verdicts(module, tool) if accepted != oracle]
    assert not disagreements, "\n".join(
        "%s: validator %s (%s), schema %s" % (_show(arguments), "accepts" if accepted else "refuses",
                                              "; ".join(problems), "refuses" if accepted else "accepts")
        for arguments, accepted, problems in disagreements[:10])


@pytest.mark.parametrize("tool", TOOL_NAMES)
def test_the_validator_is_never_more_lenient_than_the_published_schema(module, tool):
    lenient = [arguments for arguments, accepted, _, plain, _ in _verdicts(module, tool) if accepted and not plain]
    assert not lenient, "\n".join(_show(arguments) for arguments in lenient[:10])


@pytest.mark.parametrize("tool", TOOL_NAMES)
def test_the_generator_reaches_both_verdicts_and_each_refinement(module, tool):
    """A generator that only made valid (or only broken) arguments would prove nothing."""
    verdicts = _verdicts(module, tool)
    accepted = sum(1 for _, ok, _, _, _ in verdicts if ok)
    assert 0.2 * len(verdicts) < accepted < 0.8 * len(verdicts), accepted
    # Cases where the plain schema and the validator part: the refinements and UTF-16 lengths at work.
    parted = sum(1 for _, ok, _, plain, _ in verdicts if plain and not ok)
    assert parted > 0
