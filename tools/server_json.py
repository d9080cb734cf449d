#!/usr/bin/env python3
"""server.json, the MCP Registry entry of adrkit-mcp, written from the one place each fact lives.

    python3 tools/server_json.py           # rewrite server.json, README.md's mcp-name marker
                                           # and the owner in README.md's repository links
    python3 tools/server_json.py --check   # exit 1 if either is not what this would write
    python3 tools/server_json.py --release dist/adrkit-mcp.mcpb --tag v0.1.0 \\
        --owner "$GITHUB_REPOSITORY_OWNER" --output dist/server.json
    python3 tools/server_json.py --tag v0.1.0 --owner "$GITHUB_REPOSITORY_OWNER"
                                           # the same two checks alone, writing nothing (the
                                           # release's first step, before anything is built)

Where each fact comes from
  * the GitHub owner of the repository: `github-owner` under [tool.adrkit-mcp] in pyproject.toml
    (a fork changes that line and runs this script); it makes the name
    io.github.<owner>/adrkit-mcp, the repository URL and the URL of the .mcpb release asset, and
    it is the owner in every https://github.com/<owner>/adrkit-mcp link of README.md and in its
    workflow snippet's `uses: <owner>/adrkit-mcp@...` (PyPI shows the README as the project's
    description and resolves no relative link, so the README links its pages as
    https://github.com/<owner>/adrkit-mcp/blob/main/docs/...);
  * the description: pyproject.toml's [project] description (the registry allows 100 characters);
  * the version: the `__version__` literal of adrkit_mcp.py;
  * the environment variables the server reads (ADRKIT_MCP_CWD, ADRKIT_MCP_DIR,
    ADRKIT_MCP_EXPOSE, ADRKIT_MCP_FROM, ADRKIT_MCP_MARKERS).

The .mcpb's SHA-256
  The bundle's bytes depend on the commit (its timestamps are the commit's date), so a committed
  file cannot carry the hash of the bundle built from that same commit.  The committed server.json
  carries PLACEHOLDER_SHA256 (64 zeros, which the schema's pattern accepts and no real file has);
  `--release` writes a copy with the SHA-256 of the bundle the release attaches, after checking
  that the tag is v<version> and the owner is the configured one.  The release workflow publishes
  that copy, never the committed file (docs/RELEASING.md, docs/adr/0014).
"""

import argparse
import ast
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

PROJECT = Path(__file__).resolve().parent.parent
SERVER_JSON = PROJECT / "server.json"
README = PROJECT / "README.md"
PYPROJECT = PROJECT / "pyproject.toml"
MODULE = PROJECT / "adrkit_mcp.py"

SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
PACKAGE = "adrkit-mcp"  # the PyPI name, the repository's name and the bundle's manifest name
TITLE = "adrkit decision records"
PLACEHOLDER_SHA256 = "0" * 64
MCP_NAME_MARKER = re.compile(r"<!-- mcp-name: (\S+) -->")
# A link to this repository on GitHub, and a workflow step using it as an action, whoever owns it.
REPOSITORY_LINK = re.compile(r"https://github\.com/[A-Za-z0-9][A-Za-z0-9-]*/%s(?![A-Za-z0-9_.-])" % re.escape(PACKAGE))
ACTION_USE = re.compile(r"^(\s*-?\s*uses: )[A-Za-z0-9][A-Za-z0-9-]*/%s@" % re.escape(PACKAGE), re.M)

ENVIRONMENT = [
    {"name": "ADRKIT_MCP_CWD",
     "description": "Repository root: a folder with a .git entry. Defaults to the working directory "
                    "the client starts the server in.",
     "isRequired": False, "isSecret": False, "format": "filepath"},
    {"name": "ADRKIT_MCP_DIR",
     "description": "Folder of the decision records, relative to the root and required to stay "
                    "inside it. Defaults to docs/adr.",
     "isRequired": False, "isSecret": False},
    {"name": "ADRKIT_MCP_EXPOSE",
     "description": "Also serve the decisions as MCP resources and prompts: resources, prompts or "
                    "resources,prompts. Unset or empty: the tools alone.",
     "isRequired": False, "isSecret": False},
    {"name": "ADRKIT_MCP_FROM",
     "description": "madr to read MADR and Nygard (adr-tools) Markdown as `adrkit-mcp migrate "
                    "--from madr` would leave it, writing nothing. Unset: adrkit records.",
     "isRequired": False, "isSecret": False, "choices": ["madr"]},
    {"name": "ADRKIT_MCP_MARKERS",
     "description": "1 to also name the decisions a file declares in an `@adr <id>` comment of its "
                    "first 8,192 bytes (read when the file is asked about). Unset or 0: off.",
     "isRequired": False, "isSecret": False},
]


def load_toml(path: Path) -> Dict[str, Any]:
    try:
        import tomllib  # type: ignore[import-not-found]
    except ImportError:  # Python 3.9 and 3.10
        import tomli as tomllib  # type: ignore[import-not-found,no-redef]
    with open(str(path), "rb") as handle:
        return tomllib.load(handle)


def module_version(module: Path = MODULE) -> str:
    """The `__version__ = "..."` literal, read without importing the module."""
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                and [getattr(target, "id", None) for target in node.targets] == ["__version__"]):
            return str(node.value.value)
    raise SystemExit("server_json.py: %s has no __version__ literal" % module)


def github_owner(pyproject: Optional[Dict[str, Any]] = None) -> str:
    config = (pyproject or load_toml(PYPROJECT)).get("tool", {}).get("adrkit-mcp", {})
    owner = config.get("github-owner")
    if not isinstance(owner, str) or not re.match(r"^[A-Za-z0-9][A-Za-z0-9-]{0,38}$", owner):
        raise SystemExit("server_json.py: pyproject.toml needs [tool.adrkit-mcp] github-owner = "
                         "\"<the GitHub user or organisation>\"")
    return owner


def server_name(owner: str) -> str:
    return "io.github.%s/%s" % (owner, PACKAGE)


def mcpb_url(owner: str, version: str) -> str:
    return "https://github.com/%s/%s/releases/download/v%s/%s.mcpb" % (owner, PACKAGE, version,
                                                                      PACKAGE)


def server_json(owner: str, version: str, description: str,
                mcpb_sha256: str = PLACEHOLDER_SHA256) -> Dict[str, Any]:
    environment: List[Dict[str, Any]] = [dict(variable) for variable in ENVIRONMENT]
    return {
        "$schema": SCHEMA_URL,
        "name": server_name(owner),
        "title": TITLE,
        "description": description,
        "version": version,
        "repository": {"url": "https://github.com/%s/%s" % (owner, PACKAGE), "source": "github"},
        "packages": [
            {"registryType": "pypi", "registryBaseUrl": "https://pypi.org", "identifier": PACKAGE,
             "version": version, "runtimeHint": "uvx", "transport": {"type": "stdio"},
             "environmentVariables": environment},
            {"registryType": "mcpb", "identifier": mcpb_url(owner, version), "version": version,
             "fileSha256": mcpb_sha256, "transport": {"type": "stdio"}},
        ],
    }


def expected(mcpb_sha256: str = PLACEHOLDER_SHA256) -> Dict[str, Any]:
    pyproject = load_toml(PYPROJECT)
    return server_json(github_owner(pyproject), module_version(),
                       pyproject["project"]["description"], mcpb_sha256)


def dumps(document: Dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def readme_for(text: str, name: str, owner: str) -> str:
    """README.md with the registry name in its mcp-name marker and `owner` in each link to this
    repository and in its workflow snippet's `uses:`."""
    if not MCP_NAME_MARKER.search(text):
        raise SystemExit("server_json.py: README.md has no `<!-- mcp-name: ... -->` line")
    text = MCP_NAME_MARKER.sub("<!-- mcp-name: %s -->" % name, text, count=1)
    text = REPOSITORY_LINK.sub("https://github.com/%s/%s" % (owner, PACKAGE), text)
    return ACTION_USE.sub(lambda match: "%s%s/%s@" % (match.group(1), owner, PACKAGE), text)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(str(path), "rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def release_refusal(tag: str, owner: str, version: str) -> Optional[str]:
    """Why a release from this tag and repository owner must not go ahead, or None."""
    if tag != "v" + version:
        return "tag %s is not v%s, the version of adrkit_mcp.py" % (tag, version)
    if owner.lower() != github_owner().lower():
        return ("this repository's owner is %s but pyproject.toml's github-owner is %s: change "
                "that line (a fork) and run tools/server_json.py" % (owner, github_owner()))
    return None


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Write or check server.json (see the docstring).")
    parser.add_argument("--check", action="store_true",
                        help="compare server.json and README.md's marker and links, write nothing")
    parser.add_argument("--release", type=Path, metavar="MCPB",
                        help="the .mcpb the release attaches: write a copy with its SHA-256")
    parser.add_argument("--tag", help="the release tag, which must be v<version> (alone with "
                                      "--owner: check both, write nothing)")
    parser.add_argument("--owner", help="the repository owner, which must be pyproject.toml's "
                                        "github-owner")
    parser.add_argument("--output", type=Path, help="with --release: where to write the copy")
    args = parser.parse_args(argv)
    document = expected()
    if args.release or args.tag or args.owner:
        if not (args.tag and args.owner and (args.output or not args.release)):
            parser.error("--tag and --owner go together; --release needs them and --output")
        refusal = release_refusal(args.tag, args.owner, document["version"])
        if refusal:
            sys.stderr.write("server_json.py: %s\n" % refusal)
            return 1
        if not args.release:
            print("tag %s names version %s; owner %s is pyproject.toml's github-owner"
                  % (args.tag, document["version"], args.owner))
            return 0
        released = expected(sha256_of(args.release))
        args.output.write_text(dumps(released), encoding="utf-8")
        print("wrote %s (%s, fileSha256 %s)" % (args.output, released["name"],
                                                 released["packages"][1]["fileSha256"]))
        return 0
    text = dumps(document)
    readme = README.read_text(encoding="utf-8")
    new_readme = readme_for(readme, document["name"], github_owner())
    if args.check:
        stale = [path.name for path, new in ((SERVER_JSON, text), (README, new_readme))
                 if not path.exists() or path.read_text(encoding="utf-8") != new]
        if stale:
            sys.stderr.write("server_json.py: %s out of date: run python3 tools/server_json.py\n"
                             % " and ".join(stale))
            return 1
        return 0
    SERVER_JSON.write_text(text, encoding="utf-8")
    if new_readme != readme:
        README.write_text(new_readme, encoding="utf-8")
    print("wrote server.json (%s %s)" % (document["name"], document["version"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
