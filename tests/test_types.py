"""The module's type hints are checked by mypy (pinned in requirements-dev.txt).

Level, set in pyproject.toml's [tool.mypy]: the whole module, for the oldest Python we support
(3.9), with PyYAML's published stubs, under disallow_untyped_defs and disallow_incomplete_defs:
every function, private helpers included, is annotated in full, so every body is type-checked.
Findings and tool results are TypedDicts (Finding, ToolResult, ...); the few `# type: ignore`
left carry their error code and a reason beside them.
"""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_mypy_finds_no_error_in_the_module():
    pytest.importorskip("mypy", reason="mypy is a test requirement (requirements-dev.txt)")
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "adrkit_mcp.py"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
