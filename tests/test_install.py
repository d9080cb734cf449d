"""The three ways people install a Python MCP server, each in a fresh environment and each ending
in a real handshake (tests/_handshake.py): `pip install .` (then `python -m adrkit_mcp` and the
`adrkit-mcp` script), `pipx install .` and `uvx --from . adrkit-mcp`; and what a release ships:
the sdist and the wheel the PyPA build frontend makes from a checkout, which `twine check --strict`
accepts, which are byte-identical when built twice (SOURCE_DATE_EPOCH, tools/reproducible_sdist.py),
and which each give a working `adrkit-mcp` once installed in a fresh environment.

Everything they write goes to this test's temporary folder: HOME, PIPX_HOME and its bin and man
folders, uv's cache, tool and Python folders, the XDG folders.  They need the package index (PyPI)
for setuptools, PyYAML, pathspec and idna.  pipx and uv come pinned from requirements-dev.txt;
where one is missing its test skips and says so.  All are marked `slow`.
"""

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import _handshake

PROJECT = Path(__file__).resolve().parent.parent
MODULE = Path(os.environ.get("ADRKIT_TEST_MODULE") or PROJECT / "adrkit_mcp.py").resolve()
SOURCE_FILES = ("pyproject.toml", "README.md", "LICENSE", "NOTICE")
INSTALL_TIMEOUT = 900  # a hang guard for installs that download from the index
# Where a virtual environment keeps its programs, and their suffix.
BIN, EXE = ("Scripts", ".exe") if os.name == "nt" else ("bin", "")
# What a downstream packager needs from the sdist, besides the module and the metadata.
SDIST_MUST_HOLD = ("LICENSE", "NOTICE", "README.md", "pyproject.toml", "server.json", "build.py",
                   "requirements-dev.txt", "requirements-release.txt", "docs/adr/", "docs/PORTABILITY.md", "tests/conftest.py",
                   "tests/data/", "tests/conformance/", "tools/reproducible_sdist.py",
                   "action.yml", ".pre-commit-hooks.yaml")
# Not part of a checkout: caches, builds, installed clients.
NOT_SOURCE = shutil.ignore_patterns(".git", "node_modules", "dist", "build", ".venv*", "__pycache__",
                                    "*.egg-info", ".pytest_cache", ".mypy_cache")

# One worker runs the whole file (pytest-xdist's loadgroup): its module fixture builds the sdist and
# wheel twice, which two workers would each do.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("install")]


@pytest.fixture
def place(tmp_path):
    """(source checkout, repository to serve, private HOME, environment extras) under tmp_path."""
    source = tmp_path / "src"
    source.mkdir()
    for name in SOURCE_FILES:
        shutil.copyfile(str(PROJECT / name), str(source / name))
    shutil.copyfile(str(MODULE), str(source / "adrkit_mcp.py"))
    repo = _handshake.make_repo(str(tmp_path / "repo"))
    home = tmp_path / "home"
    home.mkdir()
    xdg = {"XDG_%s_HOME" % kind: str(tmp_path / ("xdg-" + kind.lower()))
           for kind in ("CACHE", "CONFIG", "DATA", "STATE")}
    return source, repo, str(home), xdg


def run(command, env, cwd, timeout=INSTALL_TIMEOUT):
    result = subprocess.run([str(part) for part in command], env=env, cwd=str(cwd),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True, timeout=timeout)
    assert result.returncode == 0, "%s\n%s\n%s" % (command, result.stdout, result.stderr)
    return result.stdout


def installer_env(home, xdg, **extra):
    """The installer's environment: this process's PATH (it may need git, compilers' absence
    notwithstanding) and proxies, with every home-like folder redirected."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PIPX_", "UV_", "XDG_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(xdg, HOME=home, PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.update(extra)
    return env


def test_pip_install_then_module_and_script(place, tmp_path):
    source, repo, home, xdg = place
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], installer_env(home, xdg), tmp_path)
    python = venv / BIN / ("python" + EXE)
    run([python, "-m", "pip", "install", "-q", source], installer_env(home, xdg), tmp_path)
    # The working directory holds no adrkit_mcp.py: `-m` must find the installed module.
    where = run([python, "-c", "import adrkit_mcp; print(adrkit_mcp.__file__)"],
                _handshake.bare_env(home), tmp_path)
    assert where.strip().startswith(str(venv)), where
    env = _handshake.bare_env(home, ADRKIT_MCP_CWD=repo)
    _handshake.handshake([str(python), "-m", "adrkit_mcp"], env, str(tmp_path))
    script = venv / BIN / ("adrkit-mcp" + EXE)
    _handshake.handshake([str(script)], env, str(tmp_path))
    metadata = json.loads(run([python, "-c", (
        "import importlib.metadata as m, json; d = m.distribution('adrkit-mcp'); "
        "print(json.dumps([d.metadata['License-Expression'], d.metadata.get_all('License-File'), "
        "d.requires]))")], _handshake.bare_env(home), tmp_path))
    assert metadata[0] == "Apache-2.0"
    assert sorted(metadata[1]) == ["LICENSE", "NOTICE"]
    runtime = sorted(item for item in metadata[2] if "extra ==" not in item)
    assert runtime == ["PyYAML<7,>=6.0.1", "idna<4,>=3.20", "pathspec<2,>=1.1.1"], metadata[2]
    config = run([script, "config", "cursor", "--cwd", repo], _handshake.bare_env(home), tmp_path)
    entry = json.loads(config)["mcpServers"]["adrkit"]
    assert entry["command"] == str(script) and entry["args"] == []
    # The Claude Code hook (tests/test_hook.py) from the installed script, on one Edit event.
    with open(os.path.join(repo, "docs", "adr", "0002-hooked.md"), "w", encoding="utf-8") as handle:
        handle.write('---\nid: "0002"\ntitle: Keep the app small\nstatus: accepted\ndate: "2026-01-05"\n'
                     'deciders: ["@alice"]\naffects:\n  - type: path\n    pattern: src/**\n---\nWhy.\n')
    event = {"session_id": "s", "transcript_path": "", "cwd": repo, "permission_mode": "default",
             "hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_use_id": "t",
             "tool_input": {"file_path": os.path.join(repo, "src", "app.py"), "old_string": "a",
                            "new_string": "b"}}
    hook = subprocess.run([str(script), "hook"], input=json.dumps(event), env=_handshake.bare_env(home),
                          cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=120)
    assert hook.returncode == 0 and hook.stderr == "", hook.stderr
    context = json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
    assert '- ADR 0002 "Keep the app small" (accepted)' in context


def test_pipx_install(place, tmp_path):
    if importlib.util.find_spec("pipx") is None:
        pytest.skip("pipx is not installed here (requirements-dev.txt pins it)")
    source, repo, home, xdg = place
    pipx = {"PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(tmp_path / "pipx-bin"),
            "PIPX_MAN_DIR": str(tmp_path / "pipx-man"), "PIPX_DEFAULT_PYTHON": sys.executable}
    run([sys.executable, "-m", "pipx", "install", source], installer_env(home, xdg, **pipx),
        tmp_path)
    command = tmp_path / "pipx-bin" / ("adrkit-mcp" + EXE)
    assert command.exists(), sorted(os.listdir(str(tmp_path / "pipx-bin")))
    env = _handshake.bare_env(home, ADRKIT_MCP_CWD=repo)
    _handshake.handshake([str(command)], env, str(tmp_path))
    assert not (Path(home) / ".local").exists()  # nothing went to the default pipx places


def uvx_binary():
    if importlib.util.find_spec("uv") is None:
        return None
    from uv import find_uv_bin
    uvx = Path(find_uv_bin()).with_name("uvx" + (".exe" if os.name == "nt" else ""))
    return uvx if uvx.exists() else None


def test_uvx_from_the_checkout(place, tmp_path):
    uvx = uvx_binary()
    if uvx is None:
        pytest.skip("uv (with its uvx) is not installed here (requirements-dev.txt pins it)")
    source, repo, home, xdg = place
    uv = {"UV_CACHE_DIR": str(tmp_path / "uv-cache"), "UV_TOOL_DIR": str(tmp_path / "uv-tools"),
          "UV_TOOL_BIN_DIR": str(tmp_path / "uv-bin"),
          "UV_PYTHON_INSTALL_DIR": str(tmp_path / "uv-python"), "UV_PYTHON_DOWNLOADS": "never",
          "UV_NO_CONFIG": "1", "ADRKIT_MCP_CWD": repo}
    env = installer_env(home, xdg, **uv)
    # Exactly what a user types in the checkout, with the interpreter named (no download).
    command = [str(uvx), "--python", sys.executable, "--from", ".", "adrkit-mcp"]
    _handshake.handshake(command, env, str(source), timeout=INSTALL_TIMEOUT)
    assert os.listdir(str(tmp_path / "uv-cache"))  # uv worked in the private cache
    assert not (Path(home) / ".cache").exists()


# ---------------------------------------------------------------------------
# What the release builds: sdist and wheel by the PyPA frontend, from a copy of the checkout.
# ---------------------------------------------------------------------------

def checkout_copy(target):
    """The files of a checkout (what `git clone` gives), without caches, builds or clients."""
    shutil.copytree(str(PROJECT), str(target), ignore=NOT_SOURCE)
    shutil.copyfile(str(MODULE), str(target / "adrkit_mcp.py"))
    return target


def frontend(outdir, source, epoch, cwd):
    """`pyproject-build --sdist --wheel` (here `python -m build`, run from outside the checkout:
    inside it, `python -m build` would run our build.py), then the sdist made reproducible."""
    if importlib.util.find_spec("build") is None or importlib.util.find_spec("twine") is None:
        pytest.skip("the PyPA build frontend or twine is not installed (requirements-dev.txt pins them)")
    env = dict(os.environ, SOURCE_DATE_EPOCH=str(epoch), PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIP_CONSTRAINT=str(PROJECT / "tools" / "build-constraints.txt"))
    run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", outdir, source], env, cwd)
    sdists = sorted(Path(outdir).glob("*.tar.gz"))
    run([sys.executable, str(PROJECT / "tools" / "reproducible_sdist.py")] + sdists, env, cwd)
    return {path.name: path for path in Path(outdir).iterdir()}


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    """(sdist, wheel), built by the frontend; a second build of another copy must match them."""
    work = tmp_path_factory.mktemp("dists")
    epoch = 1700000000
    first = frontend(work / "out-1", checkout_copy(work / "src-1"), epoch, work)
    second = frontend(work / "out-2", checkout_copy(work / "src-2"), epoch, work)
    assert sorted(first) == sorted(second) and len(first) == 2, (first, second)
    for name in first:
        assert first[name].read_bytes() == second[name].read_bytes(), "%s differs between builds" % name
    sdist = next(path for name, path in first.items() if name.endswith(".tar.gz"))
    wheel = next(path for name, path in first.items() if name.endswith(".whl"))
    return sdist, wheel


def test_the_frontend_makes_an_sdist_and_a_wheel_twine_accepts(dists, tmp_path):
    import tarfile
    import zipfile
    sdist, wheel = dists
    output = run([sys.executable, "-m", "twine", "check", "--strict", sdist, wheel],
                 dict(os.environ), tmp_path)
    assert output.count("PASSED") == 2, output
    with tarfile.open(str(sdist)) as archive:
        names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    missing = [name for name in SDIST_MUST_HOLD
               if not any(entry == name or entry.startswith(name) for entry in names)]
    assert not missing, missing
    assert not [name for name in names if "node_modules" in name or "__pycache__" in name]
    with zipfile.ZipFile(str(wheel)) as archive:
        inside = archive.namelist()
    assert "adrkit_mcp.py" in inside and not [name for name in inside if name.startswith("tests/")]


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_the_built_dists_install_a_working_command(dists, kind, place, tmp_path):
    _, repo, home, xdg = place
    artefact = dists[1] if kind == "wheel" else dists[0]
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], installer_env(home, xdg), tmp_path)
    python = venv / BIN / ("python" + EXE)
    run([python, "-m", "pip", "install", "-q", artefact], installer_env(home, xdg), tmp_path)
    script = venv / BIN / ("adrkit-mcp" + EXE)
    version = run([script, "--version"], _handshake.bare_env(home), tmp_path)
    assert version.split()[-1] == run([python, "-c", "import adrkit_mcp; print(adrkit_mcp.__version__)"],
                                      _handshake.bare_env(home), tmp_path).strip()
    _handshake.handshake([str(script)], _handshake.bare_env(home, ADRKIT_MCP_CWD=repo), str(tmp_path))
