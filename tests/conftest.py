"""Fixtures for the reader and tool unit tests (helpers live in _support.py)."""

import os
import shutil
import stat
import tempfile

import pytest

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)


@pytest.fixture
def repo(tmp_path):
    """An empty repository root with a .git directory and docs/adr."""
    return support.Repo(tmp_path / "repo")


@pytest.fixture
def make_repo(tmp_path):
    """A factory of repository roots under tmp_path: make_repo(name, **Repo options)."""
    def make(name="repo", **options):
        return support.Repo(tmp_path / name, **options)
    return make


@pytest.fixture
def public_tmp():
    """A folder every user can traverse (tmp_path's parents are 0700), removed afterwards."""
    path = tempfile.mkdtemp(prefix="adrkit-unit-")
    os.chmod(path, 0o755)
    yield path
    for dirpath, dirnames, _ in os.walk(path):
        for name in dirnames:
            full = os.path.join(dirpath, name)
            if not os.path.islink(full):
                os.chmod(full, stat.S_IRWXU)
    shutil.rmtree(path, ignore_errors=True)
