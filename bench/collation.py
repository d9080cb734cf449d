#!/usr/bin/env python3
"""Cost of the Collation engine (JavaScript's localeCompare): decoding its table, and keying and
sorting 10,000 generated ADR paths, ULIDs and accented paths with `sorted(key=LocaleCollation.key)`.

    python3 bench/collation.py             # median of 5 runs each, in ms
    python3 bench/collation.py --runs 9 --count 50000

Standard library and adrkit_mcp.py (next to bench/) only; it never asserts a time.
"""

import argparse
import os
import random
import statistics
import sys
import time

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, PROJECT)

import adrkit_mcp  # noqa: E402  (the module next to bench/)

WORDS = ("use", "postgres", "for", "storage", "adopt", "kafka", "event", "bus", "api", "gateway",
         "cache", "redis", "auth", "oauth2", "record", "ADR", "Decision", "v2", "x")
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def inputs(count, seed=7):
    rnd = random.Random(seed)
    paths = ["docs/adr/%04d-%s.md" % (rnd.randint(1, 9999), "-".join(rnd.choice(WORDS) for _ in range(rnd.randint(2, 6))))
             for _ in range(count)]
    ulids = ["".join(rnd.choice(CROCKFORD) for _ in range(26)) for _ in range(count)]
    accented = [path.replace("e", rnd.choice("éèêë"), 1) for path in paths]
    return {"ASCII paths": paths, "ULIDs": ulids, "accented paths": accented}


def timed(function):
    start = time.perf_counter()
    function()
    return (time.perf_counter() - start) * 1000


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--count", type=int, default=10000)
    args = parser.parse_args(argv)
    rows = []
    decode = []
    for _ in range(args.runs):
        adrkit_mcp._lc_data.cache_clear()
        decode.append(timed(adrkit_mcp._lc_data))
    rows.append(("decode the table (first use)", decode))
    key = adrkit_mcp.LocaleCollation.key
    for name, texts in inputs(args.count).items():
        rows.append(("sort %d %s" % (len(texts), name), [timed(lambda: sorted(texts, key=key)) for _ in range(args.runs)]))
    for name, times in rows:
        print("%-36s %8.1f ms  (%.1f to %.1f)" % (name, statistics.median(times), min(times), max(times)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
