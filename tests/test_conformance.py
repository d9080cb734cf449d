"""Behavioural conformance: replay every scenario of tests/conformance/ against the server.

One test per scenario file.  The server command is ``python adrkit_mcp.py`` from
the repository root (through tests/_launch.py, which keeps its bytecode), or
``$ADRKIT_MCP_SERVER`` (shell-split), e.g.::

    ADRKIT_MCP_SERVER="python3 dist/adrkit-mcp.pyz" python3 -m pytest tests/test_conformance.py

``$ADRKIT_CONFORMANCE_TIMEOUT`` overrides the per-step timeout (seconds, default 10).
"""

import os
import sys

import pytest

import _support as support
import conformance_harness as harness  # tests/ is on sys.path (pytest rootdir insertion)

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_MODULE = os.path.join(REPO_ROOT, "adrkit_mcp.py")
MANIFEST = os.path.join(harness.PACK_DIR, "MANIFEST.sha256")

SCENARIOS = harness.scenario_names()


def _timeout():
    value = os.environ.get("ADRKIT_CONFORMANCE_TIMEOUT", "").strip()
    return float(value) if value else harness.DEFAULT_TIMEOUT


def server_command():
    """$ADRKIT_MCP_SERVER's command, else `python adrkit_mcp.py` with its bytecode kept."""
    if os.environ.get("ADRKIT_MCP_SERVER", "").strip():
        return harness.default_server_command(REPO_ROOT)
    return support.module_command(SERVER_MODULE, sys.executable)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=SCENARIOS)
def test_scenario(scenario):
    if not os.environ.get("ADRKIT_MCP_SERVER", "").strip() and not os.path.isfile(SERVER_MODULE):
        pytest.skip("server module %s does not exist yet" % SERVER_MODULE)
    data = harness.load_scenario(scenario)
    failure = None
    try:
        harness.run_scenario(data, server_command(), timeout=_timeout())
    except harness.ScenarioFailure as exc:
        failure = str(exc)
    if failure is not None:  # outside the except block: no chained traceback in the report
        pytest.fail(failure, pytrace=False)


def test_pack_is_intact():
    """Every pack file is present with its recorded bytes (catches end-of-line conversion)."""
    expected = support.read_manifest(MANIFEST)
    found = {}
    for folder in ("corpora", "scenarios"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(harness.PACK_DIR, folder)):
            dirnames.sort()
            for name in filenames:
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, harness.PACK_DIR).replace(os.sep, "/")
                found[rel] = support.file_digest(full)
    assert sorted(set(expected) - set(found)) == [], "pack files missing"
    assert sorted(set(found) - set(expected)) == [], "files not in the pack manifest"
    changed = sorted(p for p in expected if expected[p] != found[p])
    assert changed == [], "pack files whose bytes changed"
    assert len(SCENARIOS) == 68
    assert sum(len(harness.load_scenario(name)["steps"]) for name in SCENARIOS) == 1634
