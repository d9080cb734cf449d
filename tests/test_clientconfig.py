"""`adrkit-mcp config`: every client's snippet against the shape that client documents.

The tests run the real command line, `python3 adrkit_mcp.py config ...`.
ADRKIT_TEST_MODULE=/path/to/adrkit_mcp.py tests another copy of the module.

The shape checkers encode each client's documentation (see the comments in the section):
  claude-desktop  modelcontextprotocol.io/docs/develop/connect-local-servers
  claude-code     code.claude.com/docs/en/mcp (.mcp.json, project scope)
  vscode          code.visualstudio.com/docs/agents/reference/mcp-configuration
  cursor          cursor.com/docs/mcp
  copilot-cli     docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers
  cline           docs.cline.bot/mcp/configuring-mcp-servers
  continue        docs.continue.dev/customize/deep-dives/mcp
  codex           developers.openai.com/codex/mcp; the keys of RawMcpServerConfig in
                  codex-rs/core/config.schema.json (openai/codex 000c857ecc17e5ab40a985bdaa40816450ee5ebf)
  gemini          tests/data/gemini/settings.schema.json, Gemini CLI's own schema (see its note)
  windsurf        docs.windsurf.com/windsurf/cascade/mcp (mcp_config.json, mcpServers)
  zed             docs/src/ai/mcp.md and ContextServerSettingsContent (zed-industries/zed)
  opencode        packages/web/src/content/docs/mcp-servers.mdx, the options table of a local
                  server (anomalyco/opencode 00a9a98a15c9857d2d94f4897549631d275cd3b1)
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import _platforms as platforms  # why a test cannot hold on a platform
from _child_env import child_env
import _support as support

PROJECT = Path(__file__).resolve().parent.parent
# ADRKIT_TEST_MODULE points the packaging tests at another copy of adrkit_mcp.py (development).
MODULE = Path(os.environ.get("ADRKIT_TEST_MODULE") or PROJECT / "adrkit_mcp.py").resolve()
SERVER = "adrkit"
CLIENTS = ("claude-desktop", "claude-code", "vscode", "cursor", "copilot-cli", "cline",
           "continue", "codex", "gemini", "windsurf", "zed", "opencode")
GEMINI_SCHEMA = PROJECT / "tests" / "data" / "gemini" / "settings.schema.json"
ENV_STYLE = ("claude-desktop", "cursor", "cline")  # root and dir travel in env


def launched_file():
    return str(MODULE)


def run_config(*args, cwd=None, env=None):
    # `python3 adrkit_mcp.py config ...`, its bytecode kept (tests/_launch.py); the entries it
    # prints run the script itself, as clients do.
    command = support.module_command(MODULE, sys.executable) + ["config"] + list(args)
    full_env = dict(os.environ)
    for name in ("ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR"):
        full_env.pop(name, None)
    full_env.update(env or {})
    return subprocess.run(command, cwd=str(cwd or PROJECT), env=full_env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=60)


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "my repo"  # a space, as in many real paths
    (root / ".git").mkdir(parents=True)
    (root / "docs" / "adr").mkdir(parents=True)
    return root


# ---- shape checkers, one per client ---------------------------------------------------------

def _is_str_list(value):
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _is_str_map(value):
    return isinstance(value, dict) and all(
        isinstance(key, str) and isinstance(item, str) for key, item in value.items())


def _check_stdio_entry(entry, allowed, required, type_value=None):
    assert isinstance(entry, dict), entry
    assert set(entry) <= set(allowed), "undocumented keys: %s" % (set(entry) - set(allowed))
    assert set(required) <= set(entry), "missing keys: %s" % (set(required) - set(entry))
    assert isinstance(entry["command"], str) and entry["command"]
    if "args" in entry:
        assert _is_str_list(entry["args"])
    if "env" in entry:
        assert _is_str_map(entry["env"])
    if type_value is not None:
        assert entry["type"] == type_value


def _only_entry_of_map(snippet, key):
    assert isinstance(snippet, dict) and list(snippet) == [key], snippet
    servers = snippet[key]
    assert isinstance(servers, dict) and list(servers) == [SERVER], servers
    return servers[SERVER]


def check_claude_desktop(snippet):
    # {"mcpServers": {name: {"command", "args", "env"}}}
    entry = _only_entry_of_map(snippet, "mcpServers")
    _check_stdio_entry(entry, {"command", "args", "env"}, {"command"})
    return entry


def check_claude_code(snippet):
    # .mcp.json: {"mcpServers": {name: {"type": "stdio", "command", "args", "env"}}}
    entry = _only_entry_of_map(snippet, "mcpServers")
    _check_stdio_entry(entry, {"type", "command", "args", "env"}, {"type", "command"}, "stdio")
    return entry


def check_vscode(snippet):
    # .vscode/mcp.json: {"servers": {name: {"type": "stdio" (required), "command", "args", ...}}}
    entry = _only_entry_of_map(snippet, "servers")
    _check_stdio_entry(entry, {"type", "command", "args", "env", "envFile", "sandboxEnabled",
                               "sandbox", "dev"}, {"type", "command"}, "stdio")
    return entry


def check_cursor(snippet):
    # .cursor/mcp.json: {"mcpServers": {name: {"command", "args", "env"}}}
    entry = _only_entry_of_map(snippet, "mcpServers")
    _check_stdio_entry(entry, {"type", "command", "args", "env", "envFile"}, {"command"})
    assert entry.get("type", "stdio") == "stdio"
    return entry


def check_copilot_cli(snippet):
    # ~/.copilot/mcp-config.json: {"mcpServers": {name: {"type": "local", "command", "args",
    #                                                    "env", "tools": ["*"]}}}
    entry = _only_entry_of_map(snippet, "mcpServers")
    _check_stdio_entry(entry, {"type", "command", "args", "env", "tools", "cwd"},
                       {"type", "command", "tools"}, "local")
    assert entry["tools"] == ["*"]
    return entry


def check_cline(snippet):
    # cline_mcp_settings.json: {"mcpServers": {name: {"command", "args", "env", "alwaysAllow",
    #                                                 "disabled", "timeout", "type"}}}
    entry = _only_entry_of_map(snippet, "mcpServers")
    _check_stdio_entry(entry, {"type", "command", "args", "env", "alwaysAllow", "disabled",
                               "timeout"}, {"command"})
    assert entry.get("type", "stdio") == "stdio"
    return entry


def check_continue(snippet):
    # config.yaml: mcpServers is a LIST of {"name", "type": "stdio", "command", "args", "env"}
    assert isinstance(snippet, dict) and list(snippet) == ["mcpServers"], snippet
    servers = snippet["mcpServers"]
    assert isinstance(servers, list) and len(servers) == 1, servers
    entry = servers[0]
    _check_stdio_entry(entry, {"name", "type", "command", "args", "env", "cwd"},
                       {"name", "command"})
    assert entry["name"] == SERVER
    assert entry.get("type", "stdio") == "stdio"
    return entry


# The keys of RawMcpServerConfig (additionalProperties: false) in Codex's config.schema.json.
CODEX_SERVER_KEYS = {
    "args", "bearer_token_env_var", "command", "cwd", "default_tools_approval_mode",
    "disabled_tools", "enabled", "enabled_tools", "env", "env_http_headers", "env_vars",
    "environment_id", "http_headers", "name", "oauth", "oauth_resource", "required", "scopes",
    "startup_timeout_ms", "startup_timeout_sec", "supports_parallel_tool_calls", "tool_timeout_sec",
    "tools", "url"}


def check_codex(snippet):
    # config.toml: [mcp_servers.<name>] command = "...", args = [...]
    entry = _only_entry_of_map(snippet, "mcp_servers")
    _check_stdio_entry(entry, CODEX_SERVER_KEYS, {"command"})
    return entry


def check_gemini(snippet):
    # .gemini/settings.json: {"mcpServers": {name: MCPServerConfig}}, Gemini CLI's own schema
    errors = [error.message for error in support.json_schema_validator(GEMINI_SCHEMA).iter_errors(snippet)]
    assert not errors, errors
    entry = _only_entry_of_map(snippet, "mcpServers")
    _check_stdio_entry(entry, {"command", "args", "env", "cwd", "type", "timeout", "trust",
                               "description", "includeTools", "excludeTools"}, {"command"})
    return entry


def check_windsurf(snippet):
    # mcp_config.json: {"mcpServers": {name: {"command", "args", "env", "disabled", ...}}}
    entry = _only_entry_of_map(snippet, "mcpServers")
    _check_stdio_entry(entry, {"command", "args", "env", "disabled", "disabledTools"}, {"command"})
    return entry


def check_zed(snippet):
    # settings.json: {"context_servers": {name: {"source": "custom", "command", "args", "env"}}};
    # args is required (ContextServerCommand.args has no default).
    entry = _only_entry_of_map(snippet, "context_servers")
    _check_stdio_entry(entry, {"source", "enabled", "remote", "command", "args", "env", "timeout"},
                       {"command", "args"})
    assert entry.get("source", "custom") == "custom"
    return entry


def check_opencode(snippet):
    # opencode.json: {"$schema", "mcp": {name: {"type": "local", "command": [...], "cwd",
    # "environment", "enabled", "timeout"}}}; McpLocalConfig is strict. Returned as command, args.
    assert isinstance(snippet, dict) and set(snippet) <= {"$schema", "mcp"}, snippet
    servers = snippet["mcp"]
    assert isinstance(servers, dict) and list(servers) == [SERVER], servers
    entry = servers[SERVER]
    assert set(entry) <= {"type", "command", "cwd", "environment", "enabled", "timeout"}, entry
    assert entry["type"] == "local" and _is_str_list(entry["command"]) and entry["command"]
    assert isinstance(entry.get("cwd", ""), str) and entry.get("enabled", True) is True
    return {"command": entry["command"][0], "args": entry["command"][1:], "cwd": entry.get("cwd")}


CHECKERS = {
    "claude-desktop": check_claude_desktop,
    "claude-code": check_claude_code,
    "vscode": check_vscode,
    "cursor": check_cursor,
    "copilot-cli": check_copilot_cli,
    "cline": check_cline,
    "continue": check_continue,
    "codex": check_codex,
    "gemini": check_gemini,
    "windsurf": check_windsurf,
    "zed": check_zed,
    "opencode": check_opencode,
}


def root_and_dir(client, entry):
    """Where the entry points the server: (root, dir), from env or from the arguments."""
    if client in ENV_STYLE:
        assert "--cwd" not in entry["args"] and "--dir" not in entry["args"]
        return entry["env"]["ADRKIT_MCP_CWD"], entry["env"]["ADRKIT_MCP_DIR"]
    args = entry["args"]
    if client == "opencode":  # the root is the entry's own "cwd"
        assert "--cwd" not in args and args[-2] == "--dir", args
        return entry["cwd"], args[-1]
    assert args[-4] == "--cwd" and args[-2] == "--dir", args
    return args[-3], args[-1]


def leading_args(client, entry):
    args = entry["args"]
    if client == "opencode":
        return args[:-2]
    return args if client in ENV_STYLE else args[:-4]


def parse_stdout(result):
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)  # the whole of stdout is one JSON value, nothing else


def parse_snippet(client, result):
    """The printed snippet as a value: TOML for Codex's config.toml, JSON for every other file."""
    if client != "codex":
        return parse_stdout(result)
    assert result.returncode == 0, result.stderr
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and newer
    return tomllib.loads(result.stdout)


# ---- tests ----------------------------------------------------------------------------------

@pytest.mark.parametrize("client", CLIENTS)
def test_snippet_has_the_documented_shape(client, repo):
    result = run_config(client, "--cwd", str(repo))
    CHECKERS[client](parse_snippet(client, result))
    if client == "codex":
        assert result.stdout.startswith("[mcp_servers.adrkit]\n")
    else:
        assert result.stdout.endswith("}\n") and result.stdout.startswith("{")
    assert "MERGE" in result.stderr and "overwrite" in result.stderr


@pytest.mark.parametrize("client", CLIENTS)
def test_command_and_paths_are_absolute(client, repo):
    entry = CHECKERS[client](parse_snippet(client, run_config(client, "--cwd", str(repo))))
    assert os.path.isabs(entry["command"]) and os.path.isfile(entry["command"])
    assert entry["command"] == os.path.abspath(sys.executable)
    assert leading_args(client, entry) == [launched_file()]
    root, adr_dir = root_and_dir(client, entry)
    assert root == os.path.realpath(str(repo))
    assert adr_dir == "docs/adr"


def test_relative_cwd_is_resolved(repo):
    result = run_config("claude-desktop", "--cwd", repo.name, "--dir", "decisions",
                        cwd=repo.parent)
    entry = check_claude_desktop(parse_stdout(result))
    assert entry["env"] == {"ADRKIT_MCP_CWD": os.path.realpath(str(repo)),
                            "ADRKIT_MCP_DIR": "decisions"}


def test_root_defaults_to_the_current_directory(repo):
    entry = check_claude_code(parse_stdout(run_config("claude-code", cwd=repo)))
    assert root_and_dir("claude-code", entry) == (os.path.realpath(str(repo)), "docs/adr")


def test_environment_variables_give_the_defaults(repo):
    env = {"ADRKIT_MCP_CWD": str(repo), "ADRKIT_MCP_DIR": "adr"}
    entry = check_copilot_cli(parse_stdout(run_config("copilot-cli", env=env)))
    assert root_and_dir("copilot-cli", entry) == (os.path.realpath(str(repo)), "adr")


def test_equals_form_of_the_options(repo):
    entry = check_cursor(parse_stdout(run_config("cursor", "--cwd=" + str(repo), "--dir=x/y")))
    assert root_and_dir("cursor", entry) == (os.path.realpath(str(repo)), "x/y")


def test_vscode_uses_workspace_folder_unless_cwd_is_given(repo):
    entry = check_vscode(parse_stdout(run_config("vscode", cwd=repo)))
    assert root_and_dir("vscode", entry) == ("${workspaceFolder}", "docs/adr")
    entry = check_vscode(parse_stdout(run_config("vscode", "--cwd", str(repo))))
    assert root_and_dir("vscode", entry)[0] == os.path.realpath(str(repo))


def test_list_names_every_client_and_its_file():
    result = run_config("--list")
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(CLIENTS)
    text = result.stdout
    for where in ("claude_desktop_config.json", ".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json",
                  ".copilot/mcp-config.json", "cline_mcp_settings.json", "config.yaml",
                  ".codex/config.toml", ".gemini/settings.json", "windsurf/mcp_config.json",
                  "zed/settings.json", "opencode.json"):
        assert where in text


def test_all_gives_every_client_labelled(repo):
    snippets = parse_stdout(run_config("--all", "--cwd", str(repo)))
    assert list(snippets) == list(CLIENTS)
    for client, snippet in snippets.items():
        entry = CHECKERS[client](snippet)
        assert os.path.isabs(entry["command"])
        assert root_and_dir(client, entry)[0] == os.path.realpath(str(repo))


@pytest.mark.parametrize("args", [("no-such-client",), ("Claude-Desktop",), ("claude_desktop",)])
def test_unknown_client_exits_2_with_the_list(args):
    result = run_config(*args)
    assert result.returncode == 2 and result.stdout == ""
    for client in CLIENTS:
        assert client in result.stderr


@pytest.mark.parametrize("args", [(), ("cursor", "vscode"), ("cursor", "--all"), ("--list", "--all"),
                                  ("cursor", "--cwd"), ("cursor", "--dir", ""), ("cursor", "--frob")])
def test_usage_errors_exit_2(args):
    result = run_config(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert "usage:" in result.stderr


def test_missing_root_exits_1(tmp_path):
    result = run_config("cursor", "--cwd", str(tmp_path / "nowhere"))
    assert result.returncode == 1 and result.stdout == ""
    assert "not a directory" in result.stderr


def test_warns_when_the_root_is_not_a_repository(tmp_path):
    result = run_config("claude-code", "--cwd", str(tmp_path))
    check_claude_code(parse_stdout(result))
    assert ".git" in result.stderr and "docs/adr" in result.stderr


def test_help_goes_to_stdout():
    result = run_config("--help")
    assert result.returncode == 0 and "usage:" in result.stdout


@pytest.mark.parametrize("client", ["claude-desktop", "claude-code"])
def test_the_printed_command_starts_the_program(client, repo):
    entry = CHECKERS[client](parse_stdout(run_config(client, "--cwd", str(repo))))
    env = child_env(entry.get("env"), PATH=os.defpath)  # what a GUI client passes: no shell PATH
    result = subprocess.run([entry["command"]] + leading_args(client, entry) + ["--version"],
                            env=env, cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


@pytest.mark.parametrize("client", ["codex", "gemini", "windsurf", "zed", "opencode"])
def test_the_new_clients_entries_start_a_server_that_answers(client, repo):
    """Each entry run as its client starts it: command and args, no shell PATH, from a folder of
    the client's choosing (opencode's from the entry's own cwd), then a real tool call."""
    (repo / "docs" / "adr" / "0001-use-postgresql.md").write_text(RECORD)
    entry = CHECKERS[client](parse_snippet(client, run_config(client, "--cwd", str(repo))))
    cwd = entry.get("cwd") or repo.parent
    env = child_env(PATH=os.defpath, HOME=str(repo.parent))
    _handshake([entry["command"]] + entry["args"], cwd, env)


# ---- team configs: a .pyz committed in the repository ---------------------------------------

PROJECT_FILES = {"claude-code": ".mcp.json", "vscode": ".vscode/mcp.json", "cursor": ".cursor/mcp.json"}
RECORD = """---
id: "0001"
title: Use PostgreSQL
status: accepted
date: 2026-01-05
deciders: ["team:platform"]
---
We use PostgreSQL.
"""


def _substitute(value, variables, claude_code):
    """What the client does to each string before it starts the command."""
    import re
    if isinstance(value, list):
        return [_substitute(item, variables, claude_code) for item in value]
    if isinstance(value, dict):
        return {key: _substitute(item, variables, claude_code) for key, item in value.items()}
    if claude_code:  # ${VAR} and ${VAR:-default} from the environment
        return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}",
                      lambda m: variables.get(m.group(1), m.group(2) or ""), value)
    return value.replace("${workspaceFolder}", variables["workspaceFolder"])


def _handshake(command, cwd, env):
    frames = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                  "protocolVersion": "2025-11-25", "capabilities": {},
                  "clientInfo": {"name": "team", "version": "1"}}},
              {"jsonrpc": "2.0", "method": "notifications/initialized"},
              {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "get_decision", "arguments": {"ref": "0001"}}}]
    # stdin stays open until the tool call is answered: closing it abandons calls in flight.
    import threading
    child = subprocess.Popen(command, cwd=str(cwd), env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    guard = threading.Timer(60, child.kill)  # a hang guard only
    guard.start()
    try:
        child.stdin.write("".join(json.dumps(frame) + "\n" for frame in frames))
        child.stdin.flush()
        answers = {}
        while 2 not in answers:
            line = child.stdout.readline()
            assert line, child.stderr.read()
            message = json.loads(line)
            answers[message["id"]] = message
        child.stdin.close()
        assert child.wait() == 0, child.stderr.read()
    finally:
        guard.cancel()
        child.kill()
        child.wait()
        for stream in (child.stdout, child.stderr):
            stream.close()
    assert answers[1]["result"]["serverInfo"]["name"] == "adrkit-mcp"
    decision = answers[2]["result"]["structuredContent"]["result"]["decision"]
    assert decision["title"] == "Use PostgreSQL"


@platforms.SYMLINKS
def test_a_committed_team_config_starts_the_server_on_a_teammates_clone(tmp_path, built_pyz):
    """What a team commits: the .pyz build.py makes (it carries PyYAML, pathspec and idna) and the
    project config files; a teammate's clone elsewhere starts it with a bare python3."""
    import shutil
    mine = tmp_path / "mine"
    (mine / "tools").mkdir(parents=True)
    (mine / "docs" / "adr").mkdir(parents=True)
    (mine / "docs" / "adr" / "0001-use-postgresql.md").write_text(RECORD)
    support.git("init", "-q", cwd=mine)
    shutil.copyfile(str(built_pyz[0]), str(mine / "tools" / "adrkit-mcp.pyz"))
    my_env = {k: v for k, v in os.environ.items() if not k.startswith("ADRKIT_MCP_")}
    my_env["XDG_CACHE_HOME"] = str(tmp_path / "my-cache")  # where the .pyz unpacks, not ~/.cache
    for client, name in PROJECT_FILES.items():
        # The .pyz lies inside the repository: config gives the team form by itself.
        result = subprocess.run([sys.executable, "tools/adrkit-mcp.pyz", "config", client],
                                cwd=str(mine), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                universal_newlines=True, timeout=60, env=my_env)
        snippet = parse_stdout(result)
        CHECKERS[client](snippet)
        assert str(tmp_path) not in result.stdout and sys.executable not in result.stdout
        assert "python3" in result.stderr and "teammate" in result.stderr
        (mine / name).parent.mkdir(parents=True, exist_ok=True)
        (mine / name).write_text(result.stdout)
    support.git("add", "-A", cwd=mine)
    support.git("commit", "-q", "-m", "team config", cwd=mine)

    theirs = tmp_path / "elsewhere" / "theirs"  # another machine: another absolute path
    support.git("clone", "-q", str(mine), str(theirs), cwd=tmp_path)
    path_dir = tmp_path / "bin"  # the teammate's PATH has a python3 and nothing of ours
    path_dir.mkdir()
    # The bare interpreter behind this one (a virtual environment's python3, linked from another
    # folder, runs as its base interpreter anyway: it finds no pyvenv.cfg there), so nothing the
    # test environment installed is on its path; the .pyz brings what the server needs.
    (path_dir / "python3").symlink_to(os.path.realpath(sys.executable))
    env = child_env(PATH=str(path_dir) + os.pathsep + os.defpath, HOME=tmp_path)
    for client, name in PROJECT_FILES.items():
        entry = _only_entry_of_map(json.loads((theirs / name).read_text()),
                                   "servers" if client == "vscode" else "mcpServers")
        if client == "claude-code":  # started in the project folder, ${VAR} expanded
            entry = _substitute(entry, env, claude_code=True)
            cwd = theirs
        else:  # VS Code and Cursor: ${workspaceFolder}, started from a folder of their own
            entry = _substitute(entry, {"workspaceFolder": str(theirs)}, claude_code=False)
            cwd = tmp_path / "bin"
        server_env = child_env(env, **(entry.get("env") or {}))
        import shutil
        command = [shutil.which(entry["command"], path=env["PATH"])] + entry["args"]
        assert command[0] is not None and command[0].startswith(str(path_dir))
        _handshake(command, cwd, server_env)


def test_portable_needs_the_program_inside_the_repository(repo):
    result = run_config("vscode", "--portable", "--cwd", str(repo))
    assert result.returncode == 1 and result.stdout == ""
    assert "inside the repository" in result.stderr


def test_portable_module_file_inside_the_repository(repo):
    import shutil
    (repo / "tools").mkdir()
    shutil.copy(str(MODULE), str(repo / "tools" / "adrkit_mcp.py"))
    result = subprocess.run([sys.executable, str(repo / "tools" / "adrkit_mcp.py"), "config", "--all",
                             "--portable", "--cwd", str(repo)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
    snippets = parse_stdout(result)
    for client in PROJECT_FILES:
        entry = CHECKERS[client](snippets[client])
        assert entry["command"] == "python3" and str(repo) not in json.dumps(entry)
        assert any(arg.endswith("tools/adrkit_mcp.py") for arg in entry["args"])
    assert os.path.isabs(CHECKERS["claude-desktop"](snippets["claude-desktop"])["command"])
    assert "PyYAML" in result.stderr


# ---- config tells the truth about what is committed (ADR 0022) -------------------------------

@pytest.mark.parametrize("client, file", [("claude-code", ".mcp.json"), ("vscode", ".vscode/mcp.json"),
                                          ("cursor", ".cursor/mcp.json")])
def test_an_absolute_entry_for_a_committed_file_is_warned_about(repo, client, file):
    result = run_config(client, "--cwd", str(repo))
    assert result.returncode == 0, result.stderr
    warning = [line for line in result.stderr.splitlines() if "names paths of this machine" in line]
    assert len(warning) == 1, result.stderr
    assert warning[0].startswith("adrkit-mcp: warning: %s is meant to be committed" % file)
    assert str(MODULE) in warning[0] and "per-user file" in warning[0]
    # A per-user client's file holds nothing a teammate reads: no such warning.
    assert "names paths of this machine" not in run_config("claude-desktop", "--cwd", str(repo)).stderr


@pytest.mark.skipif(not __import__("shutil").which("git"), reason="needs git for check-ignore")
def test_no_commit_advice_for_a_program_git_ignores(tmp_path):
    import shutil
    root = tmp_path / "repo"
    (root / "docs" / "adr").mkdir(parents=True)
    support.git("init", "-q", cwd=root)
    (root / ".gitignore").write_text("dist/\n")
    for folder in ("dist", "tools"):
        (root / folder).mkdir()
        shutil.copyfile(str(MODULE), str(root / folder / "adrkit_mcp.py"))

    def config(program, *args):
        # Each copy runs twice: the second run loads the bytecode the first kept (tests/_launch.py).
        return subprocess.run(support.module_command(program, sys.executable) + ["config", "claude-code", "--portable"]
                              + list(args),
                              cwd=str(root), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
    for args in ([], ["--hook"]):
        ignored = config("dist/adrkit_mcp.py", *args)
        assert ignored.returncode == 0, ignored.stderr
        assert "commit this file with" not in ignored.stderr and "commit it with" not in ignored.stderr
        assert ("warning: dist/adrkit_mcp.py is ignored by Git in this repository (git check-ignore "
                "dist/adrkit_mcp.py)") in ignored.stderr
        tracked = config("tools/adrkit_mcp.py", *args)
        assert "team config: commit " in tracked.stderr and "ignored by Git" not in tracked.stderr
