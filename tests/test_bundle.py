"""dist/adrkit-mcp.mcpb, the MCP Bundle Claude Desktop installs by double-click: its contents and
manifest, the official validator's verdict (`npx @anthropic-ai/mcpb validate`, skipped only where
npx is absent), and a start exactly as a host does it: unpack, substitute `${__dirname}` and
`${user_config.*}` in the manifest's mcp_config (with the platform override for this platform),
run the command, complete a handshake.  Reproducibility (two builds, one byte string) is checked
by tests/test_build.py.  All slow: they build the archive once.
"""

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import _handshake
import _session as wire

PROJECT = Path(__file__).resolve().parent.parent
MODULE = Path(os.environ.get("ADRKIT_TEST_MODULE") or PROJECT / "adrkit_mcp.py").resolve()
MCPB_PACKAGE = "@anthropic-ai/mcpb@2.1.2"  # the official packer and validator, pinned
ENTRIES = ["LICENSE", "NOTICE", "manifest.json", "server/adrkit-mcp.pyz"]
HOST_PLATFORM = {"win32": "win32", "darwin": "darwin"}.get(sys.platform, "linux")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bundle(built_pyz):
    """The .mcpb build.py made next to the run's shared .pyz (conftest's built_pyz); read-only."""
    return built_pyz[0].with_suffix(".mcpb")


@pytest.fixture(scope="module")
def manifest(bundle):
    with zipfile.ZipFile(str(bundle)) as archive:
        return json.loads(archive.read("manifest.json").decode("utf-8"))


def test_contents_are_sorted_with_fixed_times_and_modes(bundle):
    with zipfile.ZipFile(str(bundle)) as archive:
        infos = archive.infolist()
        assert [info.filename for info in infos] == ENTRIES
        assert len({info.date_time for info in infos}) == 1
        modes = {info.filename: info.external_attr >> 16 for info in infos}
        assert modes == {name: stat.S_IFREG | (0o755 if name.endswith(".pyz") else 0o644)
                         for name in ENTRIES}
        for name in ("LICENSE", "NOTICE"):
            assert archive.read(name) == (PROJECT / name).read_bytes()
        assert archive.read("server/adrkit-mcp.pyz") == bundle.with_suffix(".pyz").read_bytes()


def test_manifest_describes_the_server(manifest):
    spec = importlib_module()
    assert manifest["manifest_version"] == "0.3"
    assert manifest["version"] == spec.__version__
    assert manifest["license"] == "Apache-2.0"
    server = manifest["server"]
    assert server["type"] == "python" and server["entry_point"] == "server/adrkit-mcp.pyz"
    config = server["mcp_config"]
    assert config["command"] == "python3"
    assert config["args"] == ["${__dirname}/server/adrkit-mcp.pyz"]
    assert config["platform_overrides"] == {"win32": {"command": "python"}}
    assert config["env"] == {"ADRKIT_MCP_CWD": "${user_config.repository}",
                             "ADRKIT_MCP_DIR": "${user_config.adr_dir}",
                             "ADRKIT_MCP_EXPOSE": "${user_config.expose}",
                             "ADRKIT_MCP_FROM": "${user_config.records_format}",
                             "ADRKIT_MCP_MARKERS": "${user_config.markers}"}
    options = manifest["user_config"]
    assert options["repository"]["type"] == "directory" and options["repository"]["required"]
    assert options["adr_dir"]["type"] == "string" and options["adr_dir"]["default"] == "docs/adr"
    assert options["expose"]["type"] == "string" and options["expose"]["default"] == ""
    assert not options["expose"]["required"]
    # Empty by default: an empty variable counts as unset, so the folder holds adrkit records.
    assert options["records_format"]["type"] == "string" and options["records_format"]["default"] == ""
    assert not options["records_format"]["required"]
    # Off by default (ADR 0020); a host writes a boolean as "true" or "false", which the server reads.
    assert options["markers"]["type"] == "boolean" and options["markers"]["default"] is False
    assert not options["markers"]["required"]
    tools = [(tool["name"], tool["description"]) for tool in spec.tool_definitions()]
    assert [(tool["name"], tool["description"]) for tool in manifest["tools"]] == tools
    assert manifest["compatibility"]["platforms"] == ["darwin", "linux", "win32"]
    pythons = manifest["compatibility"]["runtimes"]["python"]
    assert re.fullmatch(r">=3\.9 <3\.15", pythons), pythons


def importlib_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("adrkit_bundle_probe", str(MODULE))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def npx_mcpb(*args, cwd):
    npx = shutil.which("npx")
    if npx is None:
        pytest.skip("npx is not on PATH: cannot run the official validator %s" % MCPB_PACKAGE)
    return subprocess.run([npx, "--yes", MCPB_PACKAGE] + [str(arg) for arg in args],
                          cwd=str(cwd), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True, timeout=600)


def test_the_official_packer_unpacks_and_validates_it(bundle, tmp_path):
    unpacked = tmp_path / "unpacked"
    result = npx_mcpb("unpack", bundle, unpacked, cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert sorted(str(path.relative_to(unpacked)) for path in unpacked.rglob("*")
                  if path.is_file()) == ENTRIES
    assert os.stat(str(unpacked / "server" / "adrkit-mcp.pyz")).st_mode & 0o111
    result = npx_mcpb("validate", unpacked / "manifest.json", cwd=tmp_path)
    print(result.stdout)
    assert result.returncode == 0 and "Manifest schema validation passes!" in result.stdout, \
        result.stdout
    # The validator is real: the same manifest with a user_config type it does not know fails.
    broken = json.loads((unpacked / "manifest.json").read_text(encoding="utf-8"))
    broken["user_config"]["repository"]["type"] = "folder"
    (tmp_path / "broken.json").write_text(json.dumps(broken), encoding="utf-8")
    result = npx_mcpb("validate", tmp_path / "broken.json", cwd=tmp_path)
    assert result.returncode != 0 and "user_config" in result.stdout, result.stdout


def substitute(value, variables):
    """A host's variable substitution in one mcp_config string: ${name} from `variables`."""
    return re.sub(r"\$\{([^}]+)\}", lambda match: variables[match.group(1)], value)


def host_command(manifest, variables):
    """(command, args, env) as the host computes them for this platform."""
    config = dict(manifest["server"]["mcp_config"])
    config.update(config.pop("platform_overrides", {}).get(HOST_PLATFORM, {}))
    command = substitute(config["command"], variables)
    args = [substitute(arg, variables) for arg in config.get("args", [])]
    env = {key: substitute(value, variables) for key, value in config.get("env", {}).items()}
    return command, args, env


@pytest.mark.parametrize("adr_dir,expose,records_format",
                         [(None, None, None), ("decisions/records", "resources,prompts", None),
                          (None, None, "madr")], ids=["default", "chosen", "madr"])
def test_the_host_starts_it_from_the_manifest(bundle, manifest, tmp_path, adr_dir, expose, records_format):
    install = tmp_path / "Claude Extensions" / "adrkit-mcp"  # a space, as on macOS and Windows
    install.mkdir(parents=True)
    with zipfile.ZipFile(str(bundle)) as archive:
        for info in archive.infolist():
            archive.extract(info, str(install))
            os.chmod(str(install / info.filename), (info.external_attr >> 16) & 0o777)
    repo = _handshake.make_repo(str(tmp_path / "repo"), adr_dir or "docs/adr")
    home = tmp_path / "home"
    home.mkdir()
    user_config = {"repository": repo,
                   "adr_dir": adr_dir or manifest["user_config"]["adr_dir"]["default"],
                   "expose": expose or manifest["user_config"]["expose"]["default"],
                   "records_format": records_format or manifest["user_config"]["records_format"]["default"],
                   "markers": "true" if records_format else "false"}
    variables = {"__dirname": str(install)}
    variables.update({"user_config." + key: value for key, value in user_config.items()})
    command, args, env = host_command(manifest, variables)
    assert command == "python3" and args == [str(install / "server" / "adrkit-mcp.pyz")]
    # The host finds the interpreter on its PATH; the server gets only what the manifest says.
    executable = shutil.which(command) or pytest.fail("%s is not on PATH" % command)
    full_env = _handshake.bare_env(str(home), **env)
    init = _handshake.handshake([executable] + args, full_env, str(tmp_path))
    assert init["serverInfo"]["version"] == manifest["version"]
    # The optional setting: empty (the default) serves the tools alone (ADR 0015).
    assert init["capabilities"] == ({"tools": {}} if expose is None else
                                    {"tools": {}, "prompts": {}, "resources": {}, "completions": {}})
    assert not list(Path(repo).rglob("__pycache__"))
    assert wire.TOOL_NAMES == sorted(tool["name"] for tool in manifest["tools"])
