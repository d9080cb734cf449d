"""Seeded generators for the suite's generated-input tests: the few Hypothesis strategies they
used (`integers`, `text`, `lists`, `recursive`, `composite`...), as plain functions of one
`random.Random`.

The generated-input tests used Hypothesis with a fixed seed, no example database and no deadline:
what they wanted of it was a reproducible stream of varied inputs.  Hypothesis's own engine (its
choice sequences, coverage targeting and shrinking) took most of their time, four to five times
what the checks themselves take.  These generators draw the same kinds of values with the same
edges weighted in (empty and full collections, zero, one, the integer and float boundaries,
NaN, the infinities, -0.0, subnormals, control, non-Latin and astral characters, U+2028, U+FEFF),
and a failing example is reported with its seed, its index and the input:

    check_each(strategy, 2000, "yaml-fast-path/generated", check)   # check(value) per example

With $ADRKIT_FUZZ_INDEX=N set, each check_each runs example N alone (`replaying()` is then true,
for the tests to leave out what they assert of a whole run):

    ADRKIT_FUZZ_INDEX=1234 python3 -m pytest -n 0 'tests/test_yaml_fast_path.py::test_mutated_documents'

A strategy is an object with `draw(rnd)`; `composite` turns `def f(draw, ...)` into a strategy
factory as Hypothesis's does.  Standard library only; every Python the suite supports.
"""

import math
import os
import random
import struct
from typing import Any, Callable, List, Optional, Sequence, Union


class Strategy:
    """Values drawn from one random stream."""

    def draw(self, rnd: random.Random) -> Any:
        raise NotImplementedError

    def map(self, function: Callable[[Any], Any]) -> "Strategy":
        return _Mapped(self, function)


class _Mapped(Strategy):
    def __init__(self, inner: Strategy, function: Callable[[Any], Any]) -> None:
        self.inner, self.function = inner, function

    def draw(self, rnd: random.Random) -> Any:
        return self.function(self.inner.draw(rnd))


class _FromFunction(Strategy):
    def __init__(self, function: Callable[[random.Random], Any]) -> None:
        self.function = function

    def draw(self, rnd: random.Random) -> Any:
        return self.function(rnd)


def _strategy(value: Any) -> Strategy:
    return value if isinstance(value, Strategy) else just(value)


# ---- the running of a test ----------------------------------------------------------------------

def replay(strategy: Strategy, seed: Union[int, str], index: int) -> Any:
    """Example `index` of `strategy` drawn from `seed`: it depends on those two alone, so it is
    the same whatever was drawn before it."""
    return strategy.draw(random.Random("%s/%d" % (seed, index)))


REPLAY_VARIABLE = "ADRKIT_FUZZ_INDEX"


def replaying() -> bool:
    """True when $ADRKIT_FUZZ_INDEX asks for one example of each run alone."""
    return bool(os.environ.get(REPLAY_VARIABLE, "").strip())


def _cut(text: str, limit: int) -> str:
    """text, cut to `limit` characters (saying how long it was)."""
    return text if len(text) <= limit else "%s... (%d characters in all)" % (text[:limit], len(text))


def check_each(strategy: Strategy, count: int, seed: Union[int, str], check: Callable[[Any], Any],
               input_limit: int = 600) -> int:
    """check(value) for each of `count` examples of `strategy` drawn from `seed` (only example
    $ADRKIT_FUZZ_INDEX when set); returns how many it checked.  The first failure becomes an
    AssertionError naming the seed, the index, the input (its repr, cut to `input_limit`), the
    error, and the command that runs that example alone."""
    indices = [int(os.environ[REPLAY_VARIABLE])] if replaying() else range(count)
    for index in indices:
        value = replay(strategy, seed, index)
        try:
            check(value)
        except Exception as error:
            test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
            raise AssertionError(
                "example %d of seed %r failed: %s: %s\ninput: %s\nrun it alone: %s=%d python3 -m pytest -n 0 '%s'"
                % (index, seed, type(error).__name__, _cut(str(error), 2000), _cut(repr(value), input_limit),
                   REPLAY_VARIABLE, index, test)) from error
    return len(indices)


# ---- scalars ------------------------------------------------------------------------------------

def just(value: Any) -> Strategy:
    return _FromFunction(lambda rnd: value)


def none() -> Strategy:
    return just(None)


def booleans() -> Strategy:
    return _FromFunction(lambda rnd: rnd.random() < 0.5)


_INTEGER_EDGES = (0, 1, -1, 2, 127, 128, 255, 256, 2 ** 15, 2 ** 31 - 1, 2 ** 31, -2 ** 31, 2 ** 32,
                  2 ** 53 - 1, 2 ** 53, 2 ** 53 + 1, -2 ** 53, 2 ** 63 - 1, 2 ** 63, -2 ** 63, 2 ** 64)


def integers(min_value: Optional[int] = None, max_value: Optional[int] = None) -> Strategy:
    """Integers in [min_value, max_value] (either end open when None): the ends, zero and the
    machine boundaries inside the range a third of the time, else small numbers or any width."""
    def draw(rnd: random.Random) -> int:
        roll = rnd.random()
        if roll < 0.35:
            edges = sorted({edge for edge in _INTEGER_EDGES + (min_value, max_value) if edge is not None
                            and (min_value is None or edge >= min_value) and (max_value is None or edge <= max_value)})
            if edges:
                return rnd.choice(edges)
        low = min_value if min_value is not None else (-(2 ** 128) if max_value is None else max_value - 2 ** 128)
        high = max_value if max_value is not None else low + 2 ** 129
        if roll < 0.75:  # small: within 20 of zero when it lies inside, else of the low end
            centre = 0 if low <= 0 <= high else low
            return rnd.randint(max(low, centre - 20), min(high, centre + 20))
        width = rnd.randint(1, max(1, (high - low).bit_length()))
        return low + rnd.randrange(min(2 ** width, high - low + 1))
    return _FromFunction(draw)


_FLOAT_EDGES = (0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 1e-7, 1e21, 1e22, 2.0 ** 53, 2.0 ** 53 + 2, 5e-324, -5e-324,
                2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308, 0.1, 1e16, 123.456)


def floats(allow_nan: bool = True, allow_infinity: bool = True) -> Strategy:
    """Doubles: the edges (signed zeros, subnormals, the largest finite, the exponent-notation
    thresholds), NaN and the infinities where allowed, short decimals, and any bit pattern."""
    def draw(rnd: random.Random) -> float:
        roll = rnd.random()
        if roll < 0.3:
            specials = list(_FLOAT_EDGES)
            if allow_nan:
                specials += [math.nan, -math.nan]
            if allow_infinity:
                specials += [math.inf, -math.inf]
            return rnd.choice(specials)
        if roll < 0.6:
            return round(rnd.uniform(-1000, 1000), rnd.randint(0, 4))
        while True:
            value = struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0]
            if (allow_nan or not math.isnan(value)) and (allow_infinity or not math.isinf(value)):
                return value
    return _FromFunction(draw)


# Code point ranges and their weights: ASCII most, then the controls, Latin-1, the rest of the
# BMP (no surrogates: a str of them cannot be encoded, and Hypothesis's characters() leaves them
# out too), the astral planes, and the characters that break line-based readers.
_CHARACTER_RANGES = (
    (0.40, 0x20, 0x7E), (0.08, 0x00, 0x1F), (0.02, 0x7F, 0x9F), (0.10, 0xA0, 0xFF),
    (0.20, 0x100, 0xD7FF), (0.05, 0xE000, 0xFFFF), (0.10, 0x10000, 0x10FFFF),
)
_CHARACTER_EDGES = "\x00\t\n\r\x0b\x0c\x85\xa0\u2028\u2029\ufeff\ufffd\uffff\U0010ffff\U0001f600 \"'\\#:-"


def _character(rnd: random.Random) -> str:
    roll = rnd.random()
    if roll < 0.05:
        return rnd.choice(_CHARACTER_EDGES)
    roll = rnd.random()
    for weight, low, high in _CHARACTER_RANGES:
        if roll < weight:
            return chr(rnd.randint(low, high))
        roll -= weight
    return chr(rnd.randint(0x20, 0x7E))


def characters() -> Strategy:
    return _FromFunction(_character)


def _size(rnd: random.Random, min_size: int, max_size: Optional[int], average: int) -> int:
    """A collection size: the least 12% and the most 8% of the time, else above the least by
    about `average` (geometric, capped at the most)."""
    high = max_size if max_size is not None else min_size + 2 * average
    roll = rnd.random()
    if roll < 0.12 or high <= min_size:
        return min_size
    if roll < 0.2:
        return high
    return min(high, min_size + 1 + int(rnd.expovariate(1.0 / max(1, average))))


def text(alphabet: Union[None, str, Strategy] = None, min_size: int = 0, max_size: Optional[int] = None) -> Strategy:
    """Strings of `alphabet`'s characters (a string or a strategy; default: characters())."""
    if alphabet is None:
        pick = _character
    elif isinstance(alphabet, str):
        letters = alphabet
        pick = lambda rnd: rnd.choice(letters)  # noqa: E731
    else:
        pick = alphabet.draw
    def draw(rnd: random.Random) -> str:
        return "".join(pick(rnd) for _ in range(_size(rnd, min_size, max_size, 5)))
    return _FromFunction(draw)


def binary(min_size: int = 0, max_size: Optional[int] = None) -> Strategy:
    def draw(rnd: random.Random) -> bytes:
        size = _size(rnd, min_size, max_size, 8)
        if rnd.random() < 0.2:
            return bytes(rnd.choice((0, 0xFF, 0x0A, 0x7B)) for _ in range(size))
        return bytes(rnd.getrandbits(8) for _ in range(size))
    return _FromFunction(draw)


def sampled_from(values: Sequence[Any]) -> Strategy:
    values = list(values)
    if not values:
        raise ValueError("sampled_from needs at least one value")
    return _FromFunction(lambda rnd: rnd.choice(values))


def randoms() -> Strategy:
    """A random.Random seeded from the stream: its draws are reproducible too."""
    return _FromFunction(lambda rnd: random.Random(rnd.getrandbits(64)))


# ---- combinations -------------------------------------------------------------------------------

def one_of(*strategies: Any) -> Strategy:
    """One of the strategies, each as likely (as Hypothesis's one_of picks its branch)."""
    if len(strategies) == 1 and not isinstance(strategies[0], Strategy):
        strategies = tuple(strategies[0])
    branches = [_strategy(strategy) for strategy in strategies]
    return _FromFunction(lambda rnd: rnd.choice(branches).draw(rnd))


def tuples(*strategies: Any) -> Strategy:
    parts = [_strategy(strategy) for strategy in strategies]
    return _FromFunction(lambda rnd: tuple(part.draw(rnd) for part in parts))


def builds(function: Callable[..., Any], *strategies: Any) -> Strategy:
    parts = [_strategy(strategy) for strategy in strategies]
    return _FromFunction(lambda rnd: function(*(part.draw(rnd) for part in parts)))


def lists(elements: Strategy, min_size: int = 0, max_size: Optional[int] = None,
          unique_by: Optional[Callable[[Any], Any]] = None) -> Strategy:
    """Lists of elements; with unique_by, an element whose key is taken is drawn again (a few
    times, then the list stays shorter, never below min_size unless the keys run out)."""
    def draw(rnd: random.Random) -> List[Any]:
        size = _size(rnd, min_size, max_size, 3)
        if unique_by is None:
            return [elements.draw(rnd) for _ in range(size)]
        items: List[Any] = []
        seen = set()
        misses = 0
        while len(items) < size and misses < 10 + size:
            item = elements.draw(rnd)
            key = unique_by(item)
            if key in seen:
                misses += 1
                continue
            seen.add(key)
            items.append(item)
        return items
    return _FromFunction(draw)


def dictionaries(keys: Strategy, values: Strategy, max_size: Optional[int] = None) -> Strategy:
    pairs = lists(tuples(keys, values), max_size=max_size, unique_by=lambda pair: pair[0])
    return pairs.map(dict)


class _Recursive(Strategy):
    """A base value or `extend(children)`, with at most max_leaves base values in one draw."""

    def __init__(self, base: Strategy, extend: Callable[[Strategy], Strategy], max_leaves: int) -> None:
        self.base, self.max_leaves = base, max_leaves
        self.left = 0
        self.extended = extend(_FromFunction(self._child))

    def _child(self, rnd: random.Random) -> Any:
        if self.left <= 1 or rnd.random() < 0.45:
            self.left -= 1
            return self.base.draw(rnd)
        return self.extended.draw(rnd)

    def draw(self, rnd: random.Random) -> Any:
        saved = self.left
        self.left = rnd.randint(1, self.max_leaves)
        try:
            return self._child(rnd) if rnd.random() < 0.75 else self.base.draw(rnd)
        finally:
            self.left = saved


def recursive(base: Strategy, extend: Callable[[Strategy], Strategy], max_leaves: int = 100) -> Strategy:
    return _Recursive(base, extend, max_leaves)


def composite(function: Callable[..., Any]) -> Callable[..., Strategy]:
    """@composite def f(draw, *args): ... -> f(*args) is a strategy; draw(s) draws from s."""
    def factory(*args: Any, **kwargs: Any) -> Strategy:
        return _FromFunction(lambda rnd: function(lambda strategy: _strategy(strategy).draw(rnd), *args, **kwargs))
    factory.__name__ = getattr(function, "__name__", "composite")
    factory.__doc__ = function.__doc__
    return factory


__all__ = ["Strategy", "replay", "replaying", "check_each", "just", "none", "booleans", "integers", "floats", "characters",
           "text", "binary", "sampled_from", "randoms", "one_of", "tuples", "builds", "lists", "dictionaries",
           "recursive", "composite"]
