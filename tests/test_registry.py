"""server.json, the MCP Registry entry: valid against the registry's published schema (2025-12-11,
copied unmodified into tests/data/registry/), and in agreement with everything else that states
the same facts: pyproject.toml (name, description, the GitHub owner), adrkit_mcp.py's
__version__ and the variables it reads, the .mcpb manifest build.py writes, and README.md's
`mcp-name:` marker, which is how the registry verifies that the PyPI package is ours.

The committed server.json carries a placeholder for the .mcpb's SHA-256 (the bundle's bytes
depend on the commit's date); `tools/server_json.py --release` writes the copy the release
publishes, with the real hash (docs/RELEASING.md, docs/adr/0014).
"""

import hashlib
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

PROJECT = Path(__file__).resolve().parent.parent
SCHEMA = PROJECT / "tests" / "data" / "registry" / "server.schema.json"
SCHEMA_SHA256 = "3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0"
SERVER_JSON = PROJECT / "server.json"
TOOL = PROJECT / "tools" / "server_json.py"


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, str(path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tool():
    if sys.version_info < (3, 11):
        pytest.importorskip("tomli")
    return load("adrkit_server_json_tool", TOOL)


@pytest.fixture(scope="module")
def document():
    return json.loads(SERVER_JSON.read_text(encoding="utf-8"))


def validator():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def errors(instance):
    return ["%s: %s" % ("/".join(str(part) for part in error.absolute_path), error.message)
            for error in validator().iter_errors(instance)]


def test_the_schema_is_the_published_2025_12_11_file():
    assert hashlib.sha256(SCHEMA.read_bytes()).hexdigest() == SCHEMA_SHA256
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["$id"] == "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"


def test_server_json_is_valid_against_the_schema(document):
    assert document["$schema"] == json.loads(SCHEMA.read_text(encoding="utf-8"))["$id"]
    assert errors(document) == []


def test_the_schema_is_not_a_rubber_stamp(document):
    """The validator refuses what the registry refuses: a long description, a bad name or hash."""
    for key, value in (("description", "x" * 101), ("name", "adrkit-mcp"), ("version", None)):
        broken = json.loads(json.dumps(document))
        if value is None:
            del broken[key]
        else:
            broken[key] = value
        assert errors(broken), key
    broken = json.loads(json.dumps(document))
    broken["packages"][1]["fileSha256"] = "not-a-hash"
    assert errors(broken)


def test_server_json_and_the_readme_marker_are_what_the_tool_writes(tool, document):
    assert document == tool.expected(), "run python3 tools/server_json.py"
    assert SERVER_JSON.read_text(encoding="utf-8") == tool.dumps(tool.expected())
    result = subprocess.run([sys.executable, str(TOOL), "--check"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_everything_agrees_on_name_version_description_and_variables(tool, document):
    pyproject = tool.load_toml(PROJECT / "pyproject.toml")
    owner = pyproject["tool"]["adrkit-mcp"]["github-owner"]
    build = load("adrkit_build_for_registry", PROJECT / "build.py")
    module = PROJECT / "adrkit_mcp.py"
    version = build.module_version(module)
    manifest = build.bundle_manifest(version, [])
    source = module.read_text(encoding="utf-8")
    # name
    package = pyproject["project"]["name"]
    assert document["name"] == "io.github.%s/%s" % (owner, package)
    assert manifest["name"] == package
    assert re.search(r'^SERVER_NAME = "%s"$' % re.escape(package), source, re.M)
    pypi, mcpb = document["packages"]
    assert (pypi["registryType"], pypi["identifier"], pypi["runtimeHint"]) == ("pypi", package, "uvx")
    assert pypi["transport"] == mcpb["transport"] == {"type": "stdio"}
    # version: __version__ is the only place it is written; pyproject reads it from there
    assert pyproject["project"]["dynamic"] == ["version"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "adrkit_mcp.__version__"}
    assert re.search(r'^__version__ = "%s"$' % re.escape(version), source, re.M)
    assert document["version"] == pypi["version"] == mcpb["version"] == manifest["version"] == version
    # description
    description = pyproject["project"]["description"]
    assert document["description"] == manifest["description"] == description
    assert 0 < len(description) <= 100
    # environment variables: the ones the module reads, the ones the bundle sets
    names = [variable["name"] for variable in pypi["environmentVariables"]]
    assert names == ["ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR", "ADRKIT_MCP_EXPOSE", "ADRKIT_MCP_FROM", "ADRKIT_MCP_MARKERS"]
    assert sorted(manifest["server"]["mcp_config"]["env"]) == names
    for name in names:
        assert re.search(r'^_?ENV_\w+ = "%s"$' % name, source, re.M), name
    assert all(variable["description"] and not variable["isRequired"] and not variable["isSecret"]
               for variable in pypi["environmentVariables"])
    # where the owner shows
    assert document["repository"] == {"url": "https://github.com/%s/%s" % (owner, package),
                                      "source": "github"}
    assert mcpb["identifier"] == ("https://github.com/%s/%s/releases/download/v%s/%s.mcpb"
                                  % (owner, package, version, package))


def test_the_readme_carries_the_mcp_name_marker_pypi_will_show(document):
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    # The registry looks for `mcp-name: <name>` ending at a space, a newline or `-->`.
    found = re.findall(r"mcp-name: ([^\s<]+?)(?=\s|-->|$)", readme, re.M)
    assert found == [document["name"]]
    assert "<!-- mcp-name: %s -->\n" % document["name"] in readme
    pyproject = (PROJECT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^readme = "README.md"$', pyproject, re.M)  # PyPI's description is the README


def test_the_mcpb_entry_is_a_release_asset_with_a_placeholder_hash(tool, document):
    mcpb = document["packages"][1]
    assert mcpb["registryType"] == "mcpb"
    assert "mcp" in mcpb["identifier"]  # the registry's rule for MCPB URLs
    assert mcpb["identifier"].startswith("https://github.com/")
    assert "/releases/download/v%s/" % document["version"] in mcpb["identifier"]
    assert mcpb["fileSha256"] == tool.PLACEHOLDER_SHA256


def test_the_release_copy_carries_the_bundles_hash(tool, document, tmp_path):
    bundle = tmp_path / "adrkit-mcp.mcpb"
    bundle.write_bytes(b"stands in for the bundle the release attaches\n")
    output = tmp_path / "server.json"
    owner = tool.github_owner()
    tag = "v" + document["version"]

    def release(tag, owner):
        return subprocess.run([sys.executable, str(TOOL), "--release", str(bundle), "--tag", tag,
                               "--owner", owner, "--output", str(output)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=120)

    result = release(tag, owner.upper())  # GitHub owners compare case-insensitively
    assert result.returncode == 0, result.stderr
    released = json.loads(output.read_text(encoding="utf-8"))
    assert errors(released) == []
    assert released["packages"][1]["fileSha256"] == hashlib.sha256(bundle.read_bytes()).hexdigest()
    released["packages"][1]["fileSha256"] = document["packages"][1]["fileSha256"]
    assert released == document  # nothing else changes
    output.unlink()
    result = release("v9.9.9", owner)
    assert result.returncode == 1 and "is not v%s" % document["version"] in result.stderr
    result = release(tag, "someone-else")
    assert result.returncode == 1 and "github-owner" in result.stderr
    assert not output.exists()
