#!/usr/bin/env python3
"""Build dist/adrkit-mcp.pyz: adrkit_mcp.py plus pure-Python PyYAML, pathspec and idna, packed by
shiv; and dist/adrkit-mcp.mcpb, the MCP Bundle for Claude Desktop that holds it.

    python3 build.py                  # fetch the pinned wheels if needed, build, print size and SHA-256
    python3 build.py --download-only  # just fill the wheelhouse (do this once while online)
    python3 build.py --offline        # never contact an index (also implied by PIP_NO_INDEX=1)

What goes in
  * adrkit_mcp.py (line endings normalised to LF),
  * PyYAML 6.0.3, pathspec 1.1.1 and idna 3.20 as pure Python: the PyYAML wheel's C extension (yaml/_yaml*.so)
    and its `_yaml` compatibility shim are removed; PyYAML falls back to its pure-Python loader by
    design (`yaml.__with_libyaml__` is False).  The build checks that no .so/.pyd/.dylib/.dll and
    no ELF/Mach-O/PE file is left, and imports everything in an isolated interpreter before packing.
  * shiv 1.0.8's bootstrap, entry point adrkit_mcp:main, shebang `/usr/bin/env python3`.

Reproducible
  Every input is pinned by file name and SHA-256 (below).  The PyYAML wheel is always the same file
  (the CPython 3.9 manylinux x86_64 one, whatever machine builds: only its .py files are kept), so
  the vendored tree does not depend on the build interpreter.  Timestamps come from
  SOURCE_DATE_EPOCH, else the date of the last commit (`git log -1 --format=%ct`); file order and
  permissions are fixed.  Two builds of the same commit with the same shiv are byte-identical.

Offline
  pip's HTTP cache alone cannot install offline (pip still asks the index which files exist), so the
  pinned wheels are kept in a wheelhouse directory: build/wheelhouse, or --wheelhouse DIR, or
  $ADRKIT_WHEELHOUSE.  Once it holds the three files (any online build, or --download-only, fills it;
  you may also copy them there by hand), builds never touch the network.  --offline, or
  PIP_NO_INDEX=1 in the environment, forbids the download step and fails with a clear message if a
  wheel is missing.

Where the .pyz unpacks
  shiv unpacks the vendored packages once, on first run, and by default into ~/.shiv, which fails
  with a read-only or missing HOME.  The archive's entry point (__main__.py, which answers a hook
  event for a tool that edits nothing and otherwise hands over to _adrkit_start.py, wrapping shiv's
  own bootstrap: functions of adrkit_mcp.py that this build copies out by name, ADR 0023) picks
  instead, in order: $SHIV_ROOT if set; $XDG_CACHE_HOME/adrkit-mcp or
  ~/.cache/adrkit-mcp (~/Library/Caches/adrkit-mcp on macOS, %LOCALAPPDATA%\\adrkit-mcp\\Cache on
  Windows); a private per-user directory in the temp dir ($TMPDIR/adrkit-mcp-<uid>, mode 0700,
  refused if not owned by the user).  A complete earlier copy anywhere in that list is reused
  without writing.  Two first runs at once are serialised by shiv's lock file and an atomic rename.
  The unpacking also compiles the bytecode (once, in-process); the running program never writes
  bytecode (sys.dont_write_bytecode).  A copy unpacked by another Python lacks this interpreter's
  bytecode: its first run compiles it into the copy, once, under the same lock.  After that, no
  run of any interpreter writes anything.

Licences
  LICENSE and NOTICE go to the root of the .pyz (appended after shiv's entries, fixed time and
  mode); each vendored library keeps its own licence file in its .dist-info folder.

The bundle (.mcpb, next to the .pyz)
  A zip of manifest.json, server/adrkit-mcp.pyz, LICENSE and NOTICE, in sorted order with the
  build's timestamp and fixed modes, so it is as reproducible as the .pyz.  The manifest follows
  the MCPB manifest specification 0.3 (github.com/anthropics/mcpb, MANIFEST.md): server type
  python, run as `python3 ${__dirname}/server/adrkit-mcp.pyz` (`python` on Windows), the repository
  and the ADR folder from user_config as ADRKIT_MCP_CWD and ADRKIT_MCP_DIR (and the optional
  resources and prompts setting as ADRKIT_MCP_EXPOSE, empty by default: ADR 0015; the source
  markers switch as ADRKIT_MCP_MARKERS, off by default: ADR 0020), the tools as
  the module lists them, its version from the module's __version__ literal.
"""

import argparse
import ast
import collections
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent
DEFAULT_OUTPUT = PROJECT / "dist" / "adrkit-mcp.pyz"
DEFAULT_WHEELHOUSE = PROJECT / "build" / "wheelhouse"
ENTRY_POINT = "adrkit_mcp:main"
SHEBANG = "/usr/bin/env python3"
SHIV_VERSION = "1.0.8"
LICENCE_FILES = ("LICENSE", "NOTICE")  # at the root of the .pyz and of the .mcpb
MCPB_MANIFEST_VERSION = "0.3"
MCPB_ENTRY_POINT = "server/adrkit-mcp.pyz"
MCPB_PYTHONS = ">=3.9 <3.15"  # the Pythons the .pyz is tested on: 3.9, 3.10, 3.11, 3.12, 3.13, 3.14

# The vendored pure-Python packages: one Pin per line (project, version, wheel file, its SHA-256,
# the import name checked in the archive).  Each version lies inside pyproject.toml's range.
Pin = collections.namedtuple("Pin", "name version wheel sha256 module")
PYYAML_WHEEL = ("pyyaml-6.0.3-cp39-cp39-manylinux2014_x86_64.manylinux_2_17_x86_64."
                "manylinux_2_28_x86_64.whl")
VENDORED = (
    Pin("PyYAML", "6.0.3", PYYAML_WHEEL,
        "0150219816b6a1fa26fb4699fb7daa9caf09eb1999f3b70fb6e786805e80375a", "yaml"),
    Pin("pathspec", "1.1.1", "pathspec-1.1.1-py3-none-any.whl",
        "a00ce642f577bf7f473932318056212bc4f8bfdf53128c78bbd5af0b9b20b189", "pathspec"),
    Pin("idna", "3.20", "idna-3.20-py3-none-any.whl",
        "ab7ae7122974553370f0bdb919e1a960b2cd1bc1ef0276416d896db81c14582c", "idna"),
)
# The one wheel target used to select the files above, on any build machine.
WHEEL_TARGET = ("--platform", "manylinux2014_x86_64", "--python-version", "3.9",
                "--implementation", "cp", "--abi", "cp39")

BINARY_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")
BINARY_MAGIC = (b"\x7fELF", b"MZ", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe")
# dist-info files kept in the vendored copy (RECORD/WHEEL/INSTALLER would describe the removed
# C extension and an installation that never happened).
DIST_INFO_KEEP = ("METADATA", "top_level.txt", "entry_points.txt", "licenses", "LICENSE",
                  "LICENSE.txt", "LICENCE")
START_MODULE = "_adrkit_start.py"  # the entry point's second half, at the root of the archive
ZIP_EPOCH_MIN = 315532800  # 1980-01-01T00:00:00Z, the earliest time a zip entry can carry

# The archive's two entry files are functions of adrkit_mcp.py (its part "The .pyz entry point",
# in Commands), copied by name below these heads; nothing of them is written here but the imports
# they use and the lines that call them.
MAIN_HEAD = """# -*- coding: utf-8 -*-
# Entry point of adrkit-mcp.pyz, written by adrkit-mcp's build.py around shiv's bootstrap.
# `adrkit-mcp.pyz hook`, which agents start on every tool call, is answered here when it can be
# (ADR 0018): the module's hook_gate and HOOK_FORMATS, copied below, answer an event for a tool
# that edits nothing before anything else is read. Everything else goes on to _adrkit_start.py,
# beside this file in the archive: where the bundled packages are unpacked, and the module's run.
# The two are apart because Python compiles this file from source on every start, and the other
# only when the gate hands over. The code below is adrkit_mcp.py's, copied by name.
from __future__ import annotations

import json
import sys

"""
MAIN_NAMES = ("HOOK_FORMATS", "HOOK_DETECTION_ORDER", "HOOK_MAX_EVENT_BYTES", "_hook_dig",
              "hook_gate", "_pyz_hook_forced", "_pyz_hook_early")
MAIN_TAIL = """

if sys.argv[1:2] == ["hook"]:
    _pyz_hook_early()

from _adrkit_start import _pyz_bootstrap

_bootstrap = _pyz_bootstrap()  # shiv's own, told where to unpack
"""
START_HEAD = """# -*- coding: utf-8 -*-
# Start-up of adrkit-mcp.pyz past its entry point (__main__.py), written by adrkit-mcp's build.py.
# It changes where shiv's bootstrap unpacks the bundled packages on the first run (shiv's default,
# ~/.shiv, fails when HOME is read-only or missing), in this order: $SHIV_ROOT, when set; a
# per-user cache directory; a private directory in the temp dir (_pyz_roots). A complete copy
# unpacked earlier anywhere in that list is used as it is, without any write. A hook event the
# entry point could not answer comes here (_pyz_hook_onward) and runs the module from the
# unpacked copy directly when it is complete with this interpreter's bytecode. The code below is
# adrkit_mcp.py's, copied by name (ADR 0023 says why it replaces two of shiv's functions).
from __future__ import annotations

import io
import os
import stat
import sys

# Nothing is written after the one-time unpacking: no __pycache__ next to the unpacked sources.
sys.dont_write_bytecode = True

"""
START_NAMES = ("_PYZ_APP", "_PYZ_VENDORED", "_pyz_sentinels", "_pyz_roots", "_pyz_private",
               "_pyz_usable", "_pyz_complete", "_pyz_compiled", "_pyz_add_bytecode", "_PyzReplay",
               "_pyz_hook_onward", "_pyz_hook_direct", "_pyz_cache_path", "_pyz_extract",
               "_pyz_bootstrap")


def module_pieces(module, names):
    """The top-level definitions and assignments `names` of the module, in that order, as they are
    written there (they use nothing else of the module: tests/test_build.py checks it)."""
    source = Path(module).read_text(encoding="utf-8")
    pieces = {}
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found = [node.name]
        else:
            targets = getattr(node, "targets", [getattr(node, "target", None)])
            found = [target.id for target in targets if isinstance(target, ast.Name)]
        for name in found:
            if name in names:
                pieces[name] = (node, ast.get_source_segment(source, node))
    missing = [name for name in names if name not in pieces]
    if missing:
        fail("%s lacks the .pyz entry point's %s" % (Path(module).name, ", ".join(missing)))
    return pieces


def module_source(module, names):
    """The pieces `names` of the module, one after the other."""
    pieces = module_pieces(module, names)
    return "\n\n\n".join(pieces[name][1] for name in names) + "\n"


def main_source(module):
    """The archive's __main__.py, up to shiv's bootstrap call (shiv's template adds it)."""
    return MAIN_HEAD + module_source(module, MAIN_NAMES) + MAIN_TAIL


def start_source(module):
    """The archive's _adrkit_start.py, after checking that the module names the libraries this
    build vendors (its sentinel files)."""
    node = module_pieces(module, ("_PYZ_VENDORED",))["_PYZ_VENDORED"][0]
    vendored = tuple(pin.module for pin in VENDORED)
    if ast.literal_eval(node.value) != vendored:
        fail("adrkit_mcp.py's _PYZ_VENDORED is not %r, the packages this build vendors"
             % (vendored,))
    return START_HEAD + module_source(module, START_NAMES)


def fail(message):
    sys.stderr.write("build.py: error: %s\n" % message)
    sys.exit(1)


def note(message):
    sys.stderr.write("build.py: %s\n" % message)


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def source_date_epoch():
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if value:
        try:
            return max(int(value), ZIP_EPOCH_MIN), "SOURCE_DATE_EPOCH"
        except ValueError:
            fail("SOURCE_DATE_EPOCH must be an integer, got %r" % value)
    try:
        out = subprocess.run(
            ["git", "-C", str(PROJECT), "log", "-1", "--format=%ct"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True,
            check=True,
        ).stdout.strip()
        return max(int(out), ZIP_EPOCH_MIN), "date of the last commit"
    except (OSError, subprocess.CalledProcessError, ValueError):
        note("no git commit to date the build: using 1980-01-01 (set SOURCE_DATE_EPOCH to choose)")
        return ZIP_EPOCH_MIN, "fallback, no commit"


def requirements_file(directory):
    path = Path(directory) / "vendored-requirements.txt"
    lines = ["%s==%s --hash=sha256:%s" % (name, version, digest)
             for name, version, _, digest, _ in VENDORED]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def pip_env(isolated):
    env = dict(os.environ)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_ROOT_USER_ACTION"] = "ignore"
    env.pop("PIP_REQUIRE_VIRTUALENV", None)
    if isolated:
        # Installing from the wheelhouse: no user or site configuration may add indexes or links.
        for key in list(env):
            if key.startswith("PIP_") and key not in ("PIP_DISABLE_PIP_VERSION_CHECK",
                                                      "PIP_ROOT_USER_ACTION"):
                del env[key]
        env["PIP_CONFIG_FILE"] = os.devnull
    return env


def missing_wheels(wheelhouse):
    missing = []
    for _, _, filename, digest, _ in VENDORED:
        path = wheelhouse / filename
        if not path.is_file():
            missing.append(filename)
        elif sha256_of(path) != digest:
            note("%s has the wrong SHA-256: removing it" % path)
            path.unlink()
            missing.append(filename)
    return missing


def ensure_wheels(wheelhouse, offline, scratch):
    missing = missing_wheels(wheelhouse)
    if not missing:
        return
    if offline:
        fail("offline build, but the wheelhouse %s lacks: %s.\n"
             "Run `python3 build.py --download-only` once with network access, or copy those files "
             "there (sha256 in build.py)." % (wheelhouse, ", ".join(missing)))
    wheelhouse.mkdir(parents=True, exist_ok=True)
    note("downloading the pinned wheels into %s" % wheelhouse)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
    command += list(WHEEL_TARGET)
    command += ["--dest", str(wheelhouse), "-r", str(requirements_file(scratch)), "-q"]
    result = subprocess.run(command, env=pip_env(isolated=False), stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        fail("pip download failed (exit %d); see above" % result.returncode)
    missing = missing_wheels(wheelhouse)
    if missing:
        fail("after download the wheelhouse still lacks: %s" % ", ".join(missing))


def install_vendored(wheelhouse, site, scratch):
    command = [sys.executable, "-m", "pip", "install", "--no-index", "--find-links",
               str(wheelhouse), "--no-deps", "--no-compile", "--only-binary=:all:",
               "--no-cache-dir", "--target", str(site), "-q"]
    command += list(WHEEL_TARGET)
    command += ["-r", str(requirements_file(scratch))]
    result = subprocess.run(command, env=pip_env(isolated=True), stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        fail("pip install into the staging directory failed (exit %d)" % result.returncode)


def is_binary(path):
    if path.name.endswith(BINARY_SUFFIXES) or ".so." in path.name:
        return True
    with open(path, "rb") as handle:
        head = handle.read(4)
    return any(head.startswith(magic) for magic in BINARY_MAGIC)


def make_pure(site):
    """Strip compiled code and install records, fix permissions; return the removed paths."""
    removed = []
    for path in sorted(site.rglob("*"), key=str, reverse=True):
        if path.is_dir() and path.name == "__pycache__":
            shutil.rmtree(path)
            removed.append(path)
    for junk in ("_yaml", "bin"):  # _yaml only re-exports the C extension
        if (site / junk).exists():
            shutil.rmtree(site / junk)
            removed.append(site / junk)
    for dist_info in site.glob("*.dist-info"):
        for entry in dist_info.iterdir():
            if entry.name not in DIST_INFO_KEEP:
                if entry.is_dir():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
                removed.append(entry)
    for path in sorted(site.rglob("*"), key=str):
        if path.is_file() and (path.suffix == ".pyc" or is_binary(path)):
            path.unlink()
            removed.append(path)
    for path in site.rglob("*"):
        if path.is_symlink():
            fail("unexpected symlink in the vendored tree: %s" % path)
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    left = [p for p in site.rglob("*") if p.is_file() and is_binary(p)]
    if left:
        fail("compiled files left in the vendored tree: %s" % left)
    return removed


def copy_module(module, site):
    data = module.read_bytes().replace(b"\r\n", b"\n")
    target = site / "adrkit_mcp.py"
    target.write_bytes(data)
    os.chmod(target, 0o644)


def check_imports(site):
    """Import everything with the standard library alone; return the server's tool list
    [(name, description)] for the bundle's manifest."""
    code = (
        "import json, sys; sys.path.insert(0, %r)\n"
        "import adrkit_mcp, pathspec, yaml\n"
        "for name in %r:\n"
        "    module = __import__(name)\n"
        "    assert module.__file__.startswith(sys.path[0]), module.__file__\n"
        "assert adrkit_mcp.url_is_valid('http://xn--mnchen-3ya.de/')\n"
        "assert not yaml.__with_libyaml__, 'the C loader must not be present'\n"
        "assert yaml.safe_load('a: [1, 2]') == {'a': [1, 2]}\n"
        "assert pathspec.PathSpec.from_lines('gitwildmatch', ['*.md']).match_file('x/y.md')\n"
        "assert callable(adrkit_mcp.main)\n"
        "print(json.dumps([[tool['name'], tool['description']]\n"
        "                  for tool in adrkit_mcp.tool_definitions()]))\n"
        % (str(site), ["adrkit_mcp"] + [pin.module for pin in VENDORED])
    )
    result = subprocess.run([sys.executable, "-I", "-S", "-c", code], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, cwd=str(site))
    if result.returncode != 0:
        fail("the vendored tree does not import cleanly with the standard library alone:\n%s"
             % result.stderr)
    return [tuple(tool) for tool in json.loads(result.stdout)]


def module_version(module):
    """__version__ of adrkit_mcp.py, read as the literal it is (the one place the version lives)."""
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
                "__version__"] and isinstance(node.value, ast.Constant):
            return str(node.value.value)
    fail("%s has no top-level __version__ = '...' literal" % module)


def load_shiv():
    try:
        import shiv
        import shiv.builder
        import shiv.cli
    except ImportError:
        fail("shiv is not installed: python3 -m pip install -r requirements-release.txt")
    version = getattr(shiv, "__version__", None)
    if version is None:
        from shiv.__version__ import __version__ as version
    if version != SHIV_VERSION:
        fail("shiv %s is installed; this build is pinned to shiv==%s (requirements-release.txt)"
             % (version, SHIV_VERSION))
    return shiv


def run_shiv(shiv, site, output, epoch, scratch):
    """Run shiv's own CLI in-process with two small, pinned adjustments (shiv 1.0.8):
    the archive's __main__.py gets main_source() in front of shiv's bootstrap call, and shiv's
    bootstrap files are added in sorted order with fixed permissions (shiv lists them in directory
    order and with the installed files' modes, which vary between machines)."""
    builder = shiv.builder
    prelude = main_source(Path(site) / "adrkit_mcp.py")
    template = prelude.replace("{", "{{").replace("}", "}}") + "\n{module}.{fn}()\n"
    original_template = builder.MAIN_TEMPLATE
    original_iter = builder.iter_package_files
    staged = Path(scratch) / "bootstrap"
    staged.mkdir()

    def iter_sorted(package):
        files = []
        for path, name in original_iter(package):
            copy = staged / name
            shutil.copyfile(str(path), str(copy))
            os.chmod(copy, 0o644)
            files.append((copy, name))
        return iter(sorted(files, key=lambda item: item[1]))

    args = ["--site-packages", str(site), "--entry-point", ENTRY_POINT, "--output-file",
            str(output), "--python", SHEBANG, "--reproducible", "--compressed"]
    saved_epoch = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    builder.MAIN_TEMPLATE = template
    builder.iter_package_files = iter_sorted
    try:
        shiv.cli.main.main(args=args, prog_name="shiv", standalone_mode=False)
    finally:
        builder.MAIN_TEMPLATE = original_template
        builder.iter_package_files = original_iter
        if saved_epoch is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved_epoch


def check_archive(path):
    with open(path, "rb") as handle:
        first = handle.readline()
    if first != ("#!" + SHEBANG + "\n").encode():
        fail("unexpected first line %r" % first)
    with zipfile.ZipFile(str(path)) as archive:
        names = archive.namelist()
        bad = [n for n in names if n.endswith(BINARY_SUFFIXES) or ".so." in n]
        if bad:
            fail("compiled files in the archive: %s" % bad)
        needed = ["__main__.py", START_MODULE, "environment.json", "site-packages/adrkit_mcp.py"]
        needed += ["site-packages/%s/__init__.py" % pin.module for pin in VENDORED]
        for required in needed + list(LICENCE_FILES):
            if required not in names:
                fail("%s is missing from the archive" % required)
        return len(names)


def zip_entry(archive, name, data, epoch, mode, compress=zipfile.ZIP_DEFLATED):
    """One reproducible zip entry: fixed time, Unix mode, compression level."""
    info = zipfile.ZipInfo(name, date_time=time.gmtime(epoch)[:6])
    info.create_system = 3  # Unix, on every build machine: external_attr carries the mode
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = compress
    archive.writestr(info, data, compresslevel=9 if compress == zipfile.ZIP_DEFLATED else None)


def add_licences(pyz, epoch, module):
    """_adrkit_start.py (the entry point's second half), LICENSE and NOTICE at the root of the
    archive, after shiv's entries."""
    with zipfile.ZipFile(str(pyz), "a") as archive:
        zip_entry(archive, START_MODULE, start_source(module).encode("utf-8"), epoch, 0o644)
        for name in LICENCE_FILES:
            zip_entry(archive, name, (PROJECT / name).read_bytes(), epoch, 0o644)


def bundle_manifest(version, tools):
    """manifest.json of the MCP Bundle (manifest spec 0.3 of github.com/anthropics/mcpb)."""
    return {
        "manifest_version": MCPB_MANIFEST_VERSION,
        "name": "adrkit-mcp",
        "display_name": "adrkit decision records",
        "version": version,
        # The same words as pyproject.toml's description and server.json's (tests/test_registry.py).
        "description": "Read-only MCP stdio server over a Git repository's Architecture Decision "
                       "Records",
        "long_description": (
            "A local, read-only MCP server over the decision records (one Markdown file per "
            "decision with typed YAML frontmatter) of one Git repository, giving the same answers "
            "as @adrkit/mcp 0.8.0. Rejected and superseded decisions are included, so the model "
            "stops re-proposing what the team already ruled out. No network, no model calls, no "
            "writes. Needs Python 3.9 or newer."),
        "author": {"name": "the adrkit-mcp contributors"},
        "license": "Apache-2.0",
        "keywords": ["adr", "architecture", "decisions", "git", "read-only"],
        "server": {
            "type": "python",
            "entry_point": MCPB_ENTRY_POINT,
            "mcp_config": {
                "command": "python3",
                "args": ["${__dirname}/" + MCPB_ENTRY_POINT],
                "env": {"ADRKIT_MCP_CWD": "${user_config.repository}",
                        "ADRKIT_MCP_DIR": "${user_config.adr_dir}",
                        "ADRKIT_MCP_EXPOSE": "${user_config.expose}",
                        "ADRKIT_MCP_FROM": "${user_config.records_format}",
                        "ADRKIT_MCP_MARKERS": "${user_config.markers}"},
                # python.org's Windows installer puts python.exe (not python3.exe) on PATH.
                "platform_overrides": {"win32": {"command": "python"}},
            },
        },
        "tools": [{"name": name, "description": text} for name, text in tools],
        "user_config": {
            "repository": {
                "type": "directory", "title": "Repository", "required": True,
                "description": "The Git repository whose decision records to read: its top "
                               "folder, the one holding .git."},
            "adr_dir": {
                "type": "string", "title": "Decision records folder", "required": False,
                "default": "docs/adr",
                "description": "The folder of the records, relative to the repository."},
            "expose": {
                "type": "string", "title": "Resources and prompts", "required": False,
                "default": "",
                "description": "Empty for the tools alone; resources, prompts or resources,prompts "
                               "to also offer the decisions as attachable resources and as "
                               "prompts (adr-context, adr-check, explain-decision)."},
            "records_format": {
                "type": "string", "title": "Records format", "required": False, "default": "",
                "description": "Leave empty for adrkit records. Write madr to read MADR or "
                               "Nygard (adr-tools) Markdown as `adrkit-mcp migrate --from madr` "
                               "would leave it, without changing any file."},
            "markers": {
                "type": "boolean", "title": "Source markers", "required": False, "default": False,
                "description": "Also name the decisions a file declares in an `@adr <id>` comment "
                               "near its top (its first 8,192 bytes are read when the file is "
                               "asked about). Off: only the records' affects patterns count."},
        },
        "compatibility": {"platforms": ["darwin", "linux", "win32"],
                          "runtimes": {"python": MCPB_PYTHONS}},
    }


def write_mcpb(pyz, output, epoch, manifest):
    """The bundle: manifest.json, the .pyz, LICENSE and NOTICE; sorted, fixed times and modes."""
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    entries = [("manifest.json", text.encode("utf-8"), 0o644, zipfile.ZIP_DEFLATED),
               (MCPB_ENTRY_POINT, pyz.read_bytes(), 0o755, zipfile.ZIP_STORED)]
    entries += [(name, (PROJECT / name).read_bytes(), 0o644, zipfile.ZIP_DEFLATED)
                for name in LICENCE_FILES]
    partial = output.with_name(".%s.%d.partial" % (output.name, os.getpid()))
    try:
        with zipfile.ZipFile(str(partial), "w") as archive:
            for name, data, mode, compress in sorted(entries):
                zip_entry(archive, name, data, epoch, mode, compress)
        os.replace(str(partial), str(output))
    finally:
        if partial.exists():
            partial.unlink()


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Build the adrkit-mcp zipapp and MCP Bundle (see the docstring of build.py).")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUTPUT,
                        help="where to write the .pyz (default: dist/adrkit-mcp.pyz); the .mcpb "
                             "goes next to it, with the suffix .mcpb")
    parser.add_argument("--wheelhouse", type=Path,
                        default=Path(os.environ.get("ADRKIT_WHEELHOUSE") or DEFAULT_WHEELHOUSE),
                        help="directory holding the pinned wheels (default: build/wheelhouse or "
                             "$ADRKIT_WHEELHOUSE)")
    parser.add_argument("--offline", action="store_true",
                        default=os.environ.get("PIP_NO_INDEX", "").lower() in
                        ("1", "true", "yes", "on"),
                        help="never contact a package index (implied by PIP_NO_INDEX=1)")
    parser.add_argument("--download-only", action="store_true",
                        help="only fetch the pinned wheels into the wheelhouse")
    parser.add_argument("--module", type=Path, default=PROJECT / "adrkit_mcp.py",
                        help="the adrkit_mcp.py to pack (default: the one next to build.py)")
    return parser.parse_args(argv)


def build_pyz(site, output, epoch, scratch):
    """Pack the staged tree into `output` atomically; return the number of entries."""
    shiv = load_shiv()
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_name(".%s.%d.partial" % (output.name, os.getpid()))
    try:
        run_shiv(shiv, site, partial, epoch, scratch)
        add_licences(partial, epoch, Path(site) / "adrkit_mcp.py")
        entries = check_archive(partial)
        os.replace(str(partial), str(output))
    finally:
        if partial.exists():
            partial.unlink()
    return entries


def shown(path):
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def main(argv=None):
    args = parse_args(argv)
    wheelhouse = args.wheelhouse.resolve()
    with tempfile.TemporaryDirectory(prefix="adrkit-build-") as scratch:
        ensure_wheels(wheelhouse, args.offline, scratch)
        if args.download_only:
            print("wheelhouse ready: %s" % wheelhouse)
            return 0
        module = args.module.resolve()
        if not module.is_file():
            fail("%s does not exist" % module)
        load_shiv()
        epoch, epoch_source = source_date_epoch()
        site = Path(scratch) / "site-packages"
        install_vendored(wheelhouse, site, scratch)
        make_pure(site)
        copy_module(module, site)
        tools = check_imports(site)
        output = args.output.resolve()
        entries = build_pyz(site, output, epoch, scratch)
    bundle = output.with_suffix(".mcpb")
    write_mcpb(output, bundle, epoch, bundle_manifest(module_version(module), tools))
    print("built   %s (%d entries)" % (shown(output), entries))
    print("size    %d bytes" % output.stat().st_size)
    print("sha256  %s" % sha256_of(output))
    print("built   %s (the .pyz and manifest.json, for Claude Desktop)" % shown(bundle))
    print("size    %d bytes" % bundle.stat().st_size)
    print("sha256  %s" % sha256_of(bundle))
    print("epoch   %d (%s)" % (epoch, epoch_source))
    return 0


if __name__ == "__main__":
    sys.exit(main())
