"""`adrkit-mcp hook` for every agent it answers, run as the real command on recorded events.

The events are tests/data/hook-events.json: each agent's event as it sends it, recorded from the
agent's documentation or source types (the provenance is written beside each event there; ADR 0018
cites every source with its version). Each answer is checked against the agent's published output
schema where one exists (Codex generates them: tests/data/codex; Gemini CLI's settings schema for
the entries: tests/data/gemini), else against a schema written here from the agent's reference
(tests/data/hook-output), and against our own rule: context only, exit 0, never a permission
decision, a block, a cancel or a rewritten result (ADRs 0013 and 0018).

Also here: the VS Code case (it runs the hooks of .claude/settings.json for every tool), Codex
patches (several files, moves, deletions, heredocs), malformed events and usage errors per format,
`config <agent> --hook` run through a shell as each agent runs it from a teammate's clone with the
committed .pyz, doctor over all seven entries, and the .pyz answering an event for a tool that
edits nothing before it unpacks anything.

ADRKIT_TEST_MODULE=/path/to/adrkit_mcp.py tests another copy of the module.
"""

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _child_env import child_env
import _support as support

PROJECT = Path(support.REPO_ROOT)
MODULE = Path(os.environ.get("ADRKIT_TEST_MODULE") or PROJECT / "adrkit_mcp.py").resolve()
COMMAND = support.module_command(MODULE, sys.executable)  # `python3 adrkit_mcp.py`, bytecode kept
DATA = PROJECT / "tests" / "data"
RECORDED = json.loads((DATA / "hook-events.json").read_text(encoding="utf-8"))["events"]
FORMATS = ("claude", "codex", "vscode", "copilot", "gemini", "cursor", "cline")
AGENT_IDS = {"claude": "claude-code", "codex": "codex", "vscode": "vscode", "copilot": "copilot-cli",
             "gemini": "gemini", "cursor": "cursor", "cline": "cline"}
# What each agent must read when there is nothing to say (empty: no output at all).
NEUTRAL = {"cursor": b"{}\n", "cline": b'{"cancel": false}\n'}
# Each agent's output schema under tests/data (Codex's own is draft-07, the others 2020-12).
SCHEMAS = {"claude": "claude-code-hook-output.schema.json",
           "codex": "codex/pre-tool-use.command.output.schema.json",
           "vscode": "hook-output/vscode.schema.json", "copilot": "hook-output/copilot.schema.json",
           "gemini": "hook-output/gemini.schema.json", "cursor": "hook-output/cursor.schema.json",
           "cline": "hook-output/cline.schema.json"}
FOOTER = "Call get_decision with an id for the full record."

# (file, title, status, affects patterns, extra YAML lines)
RECORDS = (
    ("0001-keep-postgresql.md", "Keep PostgreSQL for the ledger", "accepted", ["src/db/**"], ""),
    ("0002-switch-to-mongodb.md", "Switch search to MongoDB", "rejected", ["services/search/**"], ""),
    ("0003-cache-in-redis.md", "Cache sessions in Redis", "superseded", ["src/cache/**"],
     'supersededBy: "0004"\n'),
    ("0004-cache-in-memory.md", "Cache sessions in process memory", "accepted", ["lib/memory/**"],
     'supersedes: ["0003"]\n'),
    ("0005-validate-at-the-edge.md", "Validate requests at the edge", "accepted", ["src/api/**"], ""),
    ("0006-keep-notebooks-small.md", "Keep notebooks under a megabyte", "accepted", ["notebooks/**"], ""),
)
GOVERNED = {"src/db/": "0001", "services/search/": "0002", "src/cache/": "0003", "lib/memory/": "0004",
            "src/api/": "0005", "notebooks/": "0006"}


def write_records(top):
    folder = Path(top) / "docs" / "adr"
    folder.mkdir(parents=True, exist_ok=True)
    for name, title, status, patterns, extra in RECORDS:
        affects = "".join('  - type: path\n    pattern: %s\n' % json.dumps(p) for p in patterns)
        (folder / name).write_text(support.record_text(
            name[:4], title=title, status=status, date="2026-01-05",
            extra='deciders: ["team:platform"]\naffects:\n' + affects + extra), encoding="utf-8")


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A repository whose path has a space and a non-ASCII letter, with the records above."""
    top = support.spaced_repository(tmp_path_factory, "agents")
    write_records(top)
    return top


def placed(value, top):
    """A recorded value with @ROOT@ replaced by the repository's path (in JSON text too)."""
    if isinstance(value, dict):
        return {key: placed(item, top) for key, item in value.items()}
    if isinstance(value, list):
        return [placed(item, top) for item in value]
    return value.replace("@ROOT@", str(top)) if isinstance(value, str) else value


def recorded(agent, top, edits=True):
    """(name, event, files) of the agent's recorded events that edit (or, edits=False, do not)."""
    return [(case["name"], placed(case["event"], top), case["edits"]) for case in RECORDED
            if case["agent"] == agent and bool(case["edits"]) == edits]


def base_env(**extra):
    """This environment for the hook's runs; what they compile (the module through the launcher,
    the standard library, a .pyz's packages) is kept in this process's folder support.PYCACHE,
    outside the clones, whatever PYTHONDONTWRITEBYTECODE said."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("ADRKIT_MCP_") and key not in ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR")
           and key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = support.PYCACHE
    env.update(extra)
    return env


def run_hook(event, args=(), cwd=None, env=None):
    """The hook command with `event` (an object, str or bytes) on stdin."""
    if isinstance(event, (dict, list)):
        data = json.dumps(event).encode("utf-8")
    else:
        data = event.encode("utf-8") if isinstance(event, str) else event
    return subprocess.run(COMMAND + ["hook"] + list(args), input=data,
                          cwd=str(cwd or PROJECT), env=env or base_env(), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)


def validator(fmt):
    return support.json_schema_validator(DATA / SCHEMAS[fmt])


def context_of(fmt, result, event=None):
    """The context text of a successful answer, after every check on its shape."""
    assert result.returncode == 0, result.stderr
    assert result.stderr == b"", result.stderr
    assert result.stdout.endswith(b"\n") and result.stdout.count(b"\n") == 1, result.stdout
    answer = json.loads(result.stdout.decode("utf-8"))
    errors = sorted(validator(fmt).iter_errors(answer), key=str)
    assert not errors, [error.message for error in errors]
    # Context only: nothing that blocks, asks, denies, cancels or rewrites.
    if fmt in ("claude", "codex", "vscode", "gemini"):
        assert list(answer) == ["hookSpecificOutput"]
        assert sorted(answer["hookSpecificOutput"]) == ["additionalContext", "hookEventName"]
        if event is not None:
            assert answer["hookSpecificOutput"]["hookEventName"] == event["hook_event_name"]
        text = answer["hookSpecificOutput"]["additionalContext"]
    elif fmt == "cline":
        assert sorted(answer) == ["cancel", "contextModification"] and answer["cancel"] is False
        text = answer["contextModification"]
    else:
        key = "additionalContext" if fmt == "copilot" else "additional_context"
        assert list(answer) == [key]
        text = answer[key]
    assert text.endswith(FOOTER) and len(text.split()) <= 300
    return text


def decision_ids(text):
    return sorted(line.split()[2] for line in text.splitlines() if line.startswith("- ADR "))


def expected_ids(files):
    return sorted({ident for file in files for prefix, ident in GOVERNED.items()
                   if file.startswith(prefix)})


def neutral(fmt, result):
    """Exit 0 and the agent's neutral answer; returns stderr's lines."""
    assert result.returncode == 0, result.stderr
    assert result.stdout == NEUTRAL.get(fmt, b""), result.stdout
    return result.stderr.decode("utf-8").splitlines()


def refused(fmt, result, words):
    """The neutral answer and exactly one stderr line that says why."""
    lines = neutral(fmt, result)
    assert len(lines) == 1 and lines[0].startswith("adrkit-mcp hook: "), lines
    assert lines[0].endswith("; no decision context given") and words in lines[0], lines
    return lines[0]


EDIT_CASES = [(case["agent"], case["name"]) for case in RECORDED if case["edits"]]
QUIET_CASES = [(case["agent"], case["name"]) for case in RECORDED if not case["edits"]]


def case_event(agent, name, top):
    [(event, files)] = [(placed(case["event"], top), case["edits"]) for case in RECORDED
                        if case["agent"] == agent and case["name"] == name]
    return event, files


# ---- each agent's own events ------------------------------------------------------------------

@pytest.mark.parametrize("forced", [True, False], ids=["format-given", "detected"])
@pytest.mark.parametrize("agent, name", EDIT_CASES)
def test_each_recorded_edit_is_answered_in_its_agents_shape(root, agent, name, forced):
    event, files = case_event(agent, name, root)
    result = run_hook(event, args=["--format", agent] if forced else [])
    text = context_of(agent, result, event if "hook_event_name" in event else None)
    assert text.splitlines()[0] == "Decision records (docs/adr) that concern %s:" % ", ".join(files)
    assert decision_ids(text) == expected_ids(files)


@pytest.mark.parametrize("forced", [True, False], ids=["format-given", "detected"])
@pytest.mark.parametrize("agent, name", QUIET_CASES)
def test_a_tool_that_edits_nothing_gets_the_neutral_answer_and_no_line(root, agent, name, forced):
    event, _ = case_event(agent, name, root)
    result = run_hook(event, args=["--format", agent] if forced else [])
    assert neutral(agent, result) == []  # detected too: the gate knows the agent by its envelope


def test_a_file_no_decision_concerns_gets_the_neutral_answer(root):
    for agent in FORMATS:
        for _, event, files in recorded(agent, root)[:1]:
            text = json.dumps(event, ensure_ascii=False)
            for number, file in enumerate(files):
                text = text.replace(file, "README-%d.md" % number)
            assert neutral(agent, run_hook(text, args=["--format", agent])) == []


@pytest.mark.parametrize("sender, entry", [(sender, entry) for sender in FORMATS for entry in FORMATS
                                           if sender != entry])
def test_another_agents_event_through_an_entry_stays_silent_or_neutral(root, sender, entry):
    """Agents read each other's files (VS Code runs .claude/settings.json and .github/hooks;
    Copilot CLI .github/hooks): an entry answers its own agent only, never another's event."""
    for _, event, _ in recorded(sender, root)[:2] + recorded(sender, root, edits=False)[:1]:
        lines = neutral(entry, run_hook(event, args=["--format", entry]))
        assert len(lines) <= 1  # an event of the entry's envelope but not its edit event: one line


# ---- the VS Code case: every tool through one .claude/settings.json entry ---------------------

def config_hook(agent, root, program=None, cwd=None, env=None):
    """The entry `config <agent> --hook` prints (the executable's text for Cline), and stderr."""
    command = ([sys.executable, str(program)] if program else COMMAND) + ["config", agent, "--hook"]
    result = subprocess.run(command + ([] if program else ["--cwd", str(root)]),
                            cwd=str(cwd or root), env=env or base_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return (result.stdout if agent == "cline" else json.loads(result.stdout)), result.stderr


def shell_commands(agent, entry):
    """[(event name, matcher, command)] of a printed entry, as the agent's file holds them."""
    found = []
    for event_name, groups in entry["hooks"].items():
        for group in groups:
            for hook in group.get("hooks", [group]):
                found.append((event_name, group.get("matcher"), hook.get("command") or hook.get("bash")))
    return found


@pytest.mark.skipif(os.name != "posix", reason="the agents run hook commands in a POSIX shell")
def test_vscode_running_the_claude_code_entry_for_every_tool(root):
    """VS Code runs the PreToolUse hooks of .claude/settings.json for every tool (it ignores the
    matcher): the entry answers none of VS Code's events, fast, and says nothing on stderr."""
    entry, _ = config_hook("claude-code", root)
    [(event_name, _, command)] = shell_commands("claude-code", entry)
    assert event_name == "PreToolUse"
    for _, event, _ in recorded("vscode", root) + recorded("vscode", root, edits=False):
        result = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(event).encode("utf-8"),
                                cwd=str(root), env=base_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=120)
        assert (result.returncode, result.stdout, result.stderr) == (0, b"", b""), event["tool_name"]
    # The VS Code entry itself answers them: VS Code's own shape.
    entry, notes = config_hook("vscode", root)
    [(_, matcher, command)] = shell_commands("vscode", entry)
    assert "ignores" in notes or ".claude/settings.json" in notes
    for _, event, files in recorded("vscode", root):
        assert event["tool_name"] in matcher.split("|")
        result = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(event).encode("utf-8"),
                                cwd=str(root), env=base_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=120)
        assert decision_ids(context_of("vscode", result, event)) == expected_ids(files)


# ---- Codex patches ------------------------------------------------------------------------------

def codex_event(top, patch, cwd=None):
    event, _ = case_event("codex", "apply_patch (update, move, add, delete)", top)
    event["tool_input"] = {"command": patch}
    event["cwd"] = str(cwd or top)
    return event


PATCHES = {
    "several-files": ("*** Begin Patch\n*** Update File: src/db/pool.ts\n@@\n-a\n+b\n"
                      "*** Update File: src/api/handler.ts\n@@ export\n-x\n+y\n*** End Patch\n",
                      ["src/db/pool.ts", "src/api/handler.ts"]),
    "move": ("*** Begin Patch\n*** Update File: lib/memory/old.ts\n*** Move to: src/cache/new.ts\n"
             "@@\n-a\n+b\n*** End Patch", ["lib/memory/old.ts", "src/cache/new.ts"]),
    "delete": ("*** Begin Patch\n*** Delete File: services/search/index.ts\n*** End Patch",
               ["services/search/index.ts"]),
    "add-with-lines": ("*** Begin Patch\n*** Add File: notebooks/new.py\n+x = 1\n+*** not a header\n"
                       "*** End Patch", ["notebooks/new.py"]),
    "heredoc": ("<<'EOF'\n*** Begin Patch\n*** Update File: src/db/pool.ts\n@@\n-a\n+b\n*** End Patch\nEOF\n",
                ["src/db/pool.ts"]),
    "crlf-and-indented-headers": ("*** Begin Patch\r\n  *** Update File: src/db/pool.ts\r\n@@\r\n-a\r\n+b\r\n"
                                  "*** End of File\r\n*** Delete File: src/api/x.ts\r\n*** End Patch\r\n",
                                  ["src/db/pool.ts", "src/api/x.ts"]),
    "same-file-twice": ("*** Begin Patch\n*** Update File: src/db/a.ts\n@@\n-a\n+b\n"
                        "*** Update File: src/db/a.ts\n@@\n-c\n+d\n*** End Patch", ["src/db/a.ts"]),
    "spaces-and-accents": ("*** Begin Patch\n*** Add File: src/api/naïve café.ts\n+x\n*** End Patch",
                           ["src/api/naïve café.ts"]),
}


@pytest.mark.parametrize("case", sorted(PATCHES))
def test_a_codex_patch_gets_one_answer_for_every_file_it_names(root, case):
    patch, files = PATCHES[case]
    text = context_of("codex", run_hook(codex_event(root, patch), args=["--format", "codex"]))
    assert text.splitlines()[0] == "Decision records (docs/adr) that concern %s:" % ", ".join(files)
    assert decision_ids(text) == expected_ids(files)
    if len(files) > 1:
        assert "one or more of these files" in text


def test_a_codex_patch_with_absolute_paths_and_a_relative_cwd(root):
    patch = "*** Begin Patch\n*** Update File: %s\n@@\n-a\n+b\n*** End Patch" % (root / "src/db/pool.ts")
    assert decision_ids(context_of("codex", run_hook(codex_event(root, patch)))) == ["0001"]
    # Codex gives paths relative to the session's folder, which may be a subfolder.
    (root / "src").mkdir(exist_ok=True)
    patch = "*** Begin Patch\n*** Update File: api/handler.ts\n@@\n-a\n+b\n*** End Patch"
    text = context_of("codex", run_hook(codex_event(root, patch, cwd=root / "src"),
                                        args=["--format", "codex", "--cwd", str(root)]))
    assert "concern src/api/handler.ts:" in text and decision_ids(text) == ["0005"]


BAD_PATCHES = {
    "no-begin": ("*** Update File: src/db/pool.ts\n@@\n-a\n+b\n*** End Patch", "no *** Begin Patch"),
    "no-end": ("*** Begin Patch\n*** Update File: src/db/pool.ts\n@@\n-a\n+b\n", "no *** Begin Patch"),
    "junk-line": ("*** Begin Patch\nhello\n*** End Patch", "line 2 is no file header"),
    "empty-path": ("*** Begin Patch\n*** Delete File: \n*** End Patch", "line 2 is no file header"),
    "outside": ("*** Begin Patch\n*** Add File: ../elsewhere.ts\n+x\n*** End Patch", "outside the repository"),
    "one-file-outside": ("*** Begin Patch\n*** Update File: src/db/pool.ts\n@@\n-a\n+b\n"
                         "*** Delete File: /etc/hosts\n*** End Patch", "outside the repository"),
    "not-text": (7, "tool_input.command is missing"),
}


@pytest.mark.parametrize("case", sorted(BAD_PATCHES))
def test_a_malformed_codex_patch_is_refused_in_one_line(root, case):
    patch, words = BAD_PATCHES[case]
    refused("codex", run_hook(codex_event(root, patch), args=["--format", "codex"]), words)


# ---- malformed events, per format -----------------------------------------------------------

def broken(agent, top, how):
    """The agent's first recorded edit event, broken one way."""
    _, event, files = recorded(agent, top)[0]
    if how == "arguments-not-an-object":
        if agent == "cline":
            event["preToolUse"]["parameters"] = "src/db/pool.ts"
        elif agent == "copilot":
            event["toolArgs"] = "{not json"
        else:
            event["tool_input"] = ["src/db/pool.ts"]
    elif how == "no-path":
        text = json.dumps(event)
        for field in ('"file_path"', '"filePath"', '"path"', '"command"', '"input"', '"notebook_path"'):
            text = text.replace(field, '"elsewhere"')
        if agent == "copilot":
            text = text.replace('\\"path\\"', '\\"elsewhere\\"')
        event = json.loads(text)
    elif how == "outside":
        event = json.loads(json.dumps(event, ensure_ascii=False).replace(str(top / files[0]), "/etc/hosts")
                           .replace(files[0], "../../etc/hosts"))
    elif how == "bad-root":
        text = json.dumps(event).replace(json.dumps(str(top)), '"relative/root"')
        event = json.loads(text)
    return event


MALFORMED = {
    "empty": (lambda agent, top: b"", "not JSON"),
    "not-json": (lambda agent, top: b'{"hook_event_name": ', "not JSON"),
    "not-utf8": (lambda agent, top: b'{"cwd": "\xff"}', "not UTF-8"),
    "an-array": (lambda agent, top: b"[1, 2]", "not a JSON object"),
    "unknown-object": (lambda agent, top: {"hello": "world"}, ""),
    "arguments-not-an-object": (lambda agent, top: broken(agent, top, "arguments-not-an-object"), ""),
    "no-path": (lambda agent, top: broken(agent, top, "no-path"), ""),
    "outside": (lambda agent, top: broken(agent, top, "outside"), "outside the repository"),
    "bad-root": (lambda agent, top: broken(agent, top, "bad-root"), "not an absolute path"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
@pytest.mark.parametrize("agent", FORMATS)
def test_a_malformed_event_gets_the_neutral_answer_and_exit_0(root, agent, case):
    make, words = MALFORMED[case]
    result = run_hook(make(agent, root), args=["--format", agent])
    if case == "unknown-object":  # no agent's envelope: another agent's event, answered silently
        assert neutral(agent, result) == []
    else:
        refused(agent, result, words)


@pytest.mark.parametrize("agent", FORMATS)
def test_an_unusable_corpus_gets_the_neutral_answer_and_exit_0(root, tmp_path, agent):
    _, event, _ = recorded(agent, root)[0]
    for args in (["--cwd", str(tmp_path)], ["--dir", "no/such/folder"], ["--cwd", str(tmp_path / "gone")]):
        refused(agent, run_hook(event, args=["--format", agent] + args), "the corpus cannot be used")


@pytest.mark.parametrize("agent", FORMATS)
def test_a_usage_error_gets_the_neutral_answer_and_exit_0(root, agent):
    _, event, _ = recorded(agent, root)[0]
    for args in (["--format", agent, "--no-such-flag"], ["--format=%s" % agent, "--cwd"],
                 ["--format", agent, "extra"]):
        result = run_hook(event, args=args)
        assert result.returncode == 0 and result.stdout == NEUTRAL.get(agent, b""), (args, result)
        assert b"usage:" in result.stderr


def test_an_unknown_format_is_a_usage_error_with_exit_0(root):
    _, event, _ = recorded("claude", root)[0]
    result = run_hook(event, args=["--format", "windsurf"])
    assert (result.returncode, result.stdout) == (0, b"") and b"invalid choice" in result.stderr


def test_an_event_no_agent_sends_is_refused_when_no_format_is_given(root):
    lines = neutral("claude", run_hook({"hook_event_name": "Stop", "tool_name": "Edit"}))
    assert len(lines) == 1 and '"Stop", no agent\'s edit event' in lines[0]
    lines = neutral("claude", run_hook({"hello": "world"}))
    assert len(lines) == 1 and "none of the agents' edit events" in lines[0]


# ---- config <agent> --hook, run as each agent runs it, from a teammate's clone ---------------

# How each agent starts a command hook: the shell, the folder, the environment it adds.
def run_as(agent, command, clone, event, env, missing_ok=False):
    sub = clone / "src"
    if agent == "cline":  # the executable file itself, from the workspace
        argv, cwd = [str(clone / ".clinerules" / "hooks" / "PreToolUse")], clone
    elif agent == "gemini":  # $GEMINI_PROJECT_DIR replaced by the escaped project folder
        argv, cwd = ["/bin/sh", "-c", command.replace("$GEMINI_PROJECT_DIR", shlex.quote(str(clone)))], clone
        env = dict(env, GEMINI_PROJECT_DIR=str(clone), CLAUDE_PROJECT_DIR=str(clone))
    elif agent in ("vscode", "copilot"):  # the entry's "cwd": "." is the repository root
        argv, cwd = ["/bin/sh", "-c", command], clone
    elif agent == "claude":
        argv, cwd = ["/bin/sh", "-c", command], sub
        env = dict(env, CLAUDE_PROJECT_DIR=str(clone))
    else:  # Codex ($SHELL -lc) and Cursor: the session's folder, which may be a subfolder
        argv, cwd = ["/bin/sh", "-c", command], sub
    return subprocess.run(argv, input=json.dumps(event).encode("utf-8"), cwd=str(cwd), env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)


ENTRY_FILES = {"claude": ".claude/settings.json", "codex": ".codex/hooks.json",
               "vscode": ".github/hooks/adrkit-vscode.json", "copilot": ".github/hooks/adrkit.json",
               "gemini": ".gemini/settings.json", "cursor": ".cursor/hooks.json",
               "cline": ".clinerules/hooks/PreToolUse"}


def check_entry_file(agent, entry, notes):
    """The printed entry against the agent's documented file shape."""
    if agent == "gemini":
        assert not list(support.json_schema_validator(DATA / "gemini" / "settings.schema.json").iter_errors(entry))
        [group] = entry["hooks"]["AfterTool"]
        assert group["hooks"][0]["timeout"] == 30000  # milliseconds
    elif agent in ("copilot", "cursor"):
        assert entry["version"] == 1
    elif agent == "codex":
        assert list(entry) == ["hooks"]  # Codex refuses any other key at the root
    assert "never blocks" in notes and ("after the edit" in notes or "before the edit" in notes
                                        or agent == "cline")


@pytest.fixture(scope="module")
def clones(root, built_pyz, tmp_path_factory):
    """(mine, theirs, env): a repository with the .pyz and every agent's entry committed, as its
    `config <agent> --hook` printed them, and a teammate's clone of it on another path, with a
    PATH whose python3 is a bare interpreter."""
    top = tmp_path_factory.mktemp("team")
    mine = top / "mine"
    shutil.copytree(str(root), str(mine), ignore=shutil.ignore_patterns(".git"))
    support.git("init", "-q", cwd=mine)
    (mine / "tools").mkdir()
    shutil.copyfile(str(built_pyz[0]), str(mine / "tools" / "adrkit-mcp.pyz"))
    for folder in ("src/db", "src/api", "services/search"):
        (mine / folder).mkdir(parents=True, exist_ok=True)
    (mine / "src" / "db" / "pool.ts").write_text("export {}\n")
    home = top / "home"
    home.mkdir()
    env = child_env(PATH=support.teammate_path(top / "bin"), HOME=str(home), LANG="C.UTF-8")
    for fmt, where in ENTRY_FILES.items():
        result = subprocess.run(["python3", "tools/adrkit-mcp.pyz", "config", AGENT_IDS[fmt], "--hook"],
                                cwd=str(mine), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                universal_newlines=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert str(top) not in result.stdout and "teammate" in result.stderr  # the team form
        target = mine / where
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(result.stdout)
        if fmt == "cline":
            target.chmod(0o755)
        else:
            check_entry_file(fmt, json.loads(result.stdout), result.stderr)
    support.git("add", "-A", cwd=mine)
    support.git("commit", "-q", "-m", "every agent's hook", cwd=mine)
    theirs = top / "elsewhere" / "their clone"
    support.git("clone", "-q", str(mine), str(theirs), cwd=top)
    return mine, theirs, env


def committed_command(fmt, clone):
    """The command of the agent's committed entry (the file's path for Cline)."""
    where = clone / ENTRY_FILES[fmt]
    if fmt == "cline":
        return str(where)
    [(_, _, command)] = shell_commands(fmt, json.loads(where.read_text()))
    return command


@pytest.mark.skipif(os.name != "posix", reason="the agents run hook commands in a POSIX shell")
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_committed_entry_answers_on_a_teammates_clone(clones, fmt):
    _, theirs, env = clones
    command = committed_command(fmt, theirs)
    assert "hook --format %s" % fmt in (command if fmt != "cline" else Path(command).read_text())
    for _, event, files in recorded(fmt, theirs):
        text = context_of(fmt, run_as(fmt, command, theirs, event, env),
                          event if "hook_event_name" in event else None)
        assert decision_ids(text) == expected_ids(files)
    for _, event, _ in recorded(fmt, theirs, edits=False):
        assert neutral(fmt, run_as(fmt, command, theirs, event, env)) == []
    # Garbage on stdin: still exit 0 and the neutral answer.
    result = run_as(fmt, command, theirs, {"tool_name": 7}, env)
    assert result.returncode == 0 and result.stdout == NEUTRAL.get(fmt, b"")


@pytest.mark.skipif(os.name != "posix", reason="the agents run hook commands in a POSIX shell")
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_clone_without_the_pyz_neither_blocks_nor_denies(clones, tmp_path, fmt):
    """python3 exits 2 for a missing program: a block in Claude Code and Codex, a denial in
    Copilot CLI, a block in Cline. The printed command turns it into exit 0 and the neutral answer."""
    mine, _, env = clones
    bare = tmp_path / "bare clone"
    support.git("clone", "-q", str(mine), str(bare), cwd=tmp_path)
    (bare / "tools" / "adrkit-mcp.pyz").unlink()
    _, event, _ = recorded(fmt, bare)[0]
    result = run_as(fmt, committed_command(fmt, bare), bare, event, env)
    assert result.returncode == 0 and result.stdout == NEUTRAL.get(fmt, b"")
    assert b"adrkit-mcp.pyz" in result.stderr


@pytest.mark.skipif(os.name != "posix", reason="the agents run hook commands in a POSIX shell")
def test_doctor_reports_and_runs_every_agents_entry(clones):
    _, theirs, env = clones
    result = subprocess.run(["python3", "tools/adrkit-mcp.pyz", "doctor"], cwd=str(theirs), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    agents = {"claude": "Claude Code", "codex": "Codex CLI", "vscode": "VS Code",
              "copilot": "GitHub Copilot CLI", "gemini": "Gemini CLI", "cursor": "Cursor", "cline": "Cline"}
    for fmt, where in ENTRY_FILES.items():
        assert "ok    %s hook in %s: " % (agents[fmt], where) in result.stdout, fmt
        assert ("ok    the configured %s hook (%s) answered for src/db/pool.ts within its 30 s limit: "
                "1 decision" % (agents[fmt], where)) in result.stdout, fmt
    assert "FAIL" not in result.stdout


# ---- the .pyz answers an event for a tool that edits nothing before it unpacks anything -----

def test_the_pyz_answers_a_non_edit_before_unpacking(root, built_pyz, tmp_path):
    shiv_root = tmp_path / "shiv"
    shiv_root.mkdir()
    env = base_env(SHIV_ROOT=str(shiv_root))
    pyz = str(built_pyz[0])
    for fmt in FORMATS:
        for _, event, _ in recorded(fmt, root, edits=False):
            result = subprocess.run([sys.executable, pyz, "hook", "--format", fmt], env=env,
                                    input=json.dumps(event).encode("utf-8"), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, timeout=120)
            assert neutral(fmt, result) == []
            assert list(shiv_root.iterdir()) == [], "unpacked for %s %s" % (fmt, event)
    # An edit needs the module: the first one unpacks it, and every later one runs from there.
    _, event, files = recorded("codex", root)[0]
    for _ in range(2):
        result = subprocess.run([sys.executable, pyz, "hook", "--format", "codex"], env=env,
                                input=json.dumps(event).encode("utf-8"), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=300)
        assert decision_ids(context_of("codex", result)) == expected_ids(files)
    assert len([path for path in shiv_root.iterdir() if not path.name.startswith(".")]) == 1  # + its lock


def test_the_pyz_knows_each_agent_without_being_told(root, built_pyz, tmp_path):
    """`hook` with no --format: the .pyz's entry point detects the agent from the event, digging
    into Copilot CLI's toolArgs, which arrive as JSON text (the gate once lacked `json` there and
    failed, exit 1, on every Copilot edit), then answers each agent's edit in its own shape and
    its non-edits with its neutral answer alone."""
    env = base_env(SHIV_ROOT=str(tmp_path / "shiv"))
    pyz = str(built_pyz[0])
    for fmt in FORMATS:
        _, event, files = recorded(fmt, root)[0]
        result = subprocess.run([sys.executable, pyz, "hook"], env=env, input=json.dumps(event).encode("utf-8"),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        assert result.returncode == 0, (fmt, result.stderr)
        assert decision_ids(context_of(fmt, result)) == expected_ids(files), fmt
        for _, quiet, _ in recorded(fmt, root, edits=False):
            result = subprocess.run([sys.executable, pyz, "hook"], env=env, input=json.dumps(quiet).encode("utf-8"),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            assert neutral(fmt, result) == [], (fmt, quiet)


def test_an_event_the_pyz_gate_cannot_read_goes_on_to_the_module(root, built_pyz, tmp_path):
    """Copilot CLI's toolArgs as JSON text nested past Python's recursion limit: the gate's
    _hook_dig fails on it, the entry point hands the event to the module instead of dying, and
    the module answers as for any failure: exit 0, nothing on stdout, one line on stderr."""
    event = {"toolName": "edit", "toolArgs": '{"a":' * 100000, "toolResult": {"resultType": "success"},
             "cwd": str(root)}
    result = subprocess.run([sys.executable, str(built_pyz[0]), "hook"], input=json.dumps(event).encode("utf-8"),
                            env=base_env(SHIV_ROOT=str(tmp_path / "shiv")), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, timeout=300)
    lines = neutral("copilot", result)
    assert len(lines) == 1 and lines[0].startswith("adrkit-mcp hook: ") and "RecursionError" in lines[0], lines


# ---- what the hook reads: the event and the corpus, never the edited file --------------------

AUDIT = r'''
import json, os, runpy, sys
launcher, cache, module, fmt = sys.argv[1:5]
opened = []
def audit(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        opened.append([os.fsdecode(args[0]), str(args[1]), args[2] if len(args) > 2 else 0])
sys.addaudithook(audit)
sys.argv = [launcher, "--pycache", cache, module, "hook", "--format", fmt]
try:
    runpy.run_path(launcher, run_name="__main__")  # `python3 adrkit_mcp.py hook`, bytecode kept
except SystemExit:
    pass
sys.stderr.write("\nOPENED " + json.dumps(opened) + "\n")
'''


@pytest.mark.parametrize("agent", FORMATS)
def test_the_hook_reads_the_corpus_and_never_opens_the_edited_file(root, agent):
    """Under an audit hook: the files the hook opens in the repository are records of the ADR
    folder, none for writing, and never the file the agent edits (which exists here)."""
    for _, event, files in recorded(agent, root):
        for file in files:
            (root / file).parent.mkdir(parents=True, exist_ok=True)
            (root / file).write_text("the agent's file\n")
        result = subprocess.run([sys.executable, "-c", AUDIT, support.LAUNCHER, support.PYCACHE, str(MODULE),
                                 agent],
                                input=json.dumps(event).encode("utf-8"), env=base_env(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        stderr = result.stderr.decode("utf-8")
        opened = json.loads(stderr.rsplit("\nOPENED ", 1)[1])
        assert decision_ids(context_of(agent, subprocess.CompletedProcess(
            result.args, 0, result.stdout, stderr.rsplit("\nOPENED ", 1)[0].encode("utf-8")))) \
            == expected_ids(files)
        # The reader opens the ADR folder by its path and the records by name beside it (dir_fd).
        top = os.path.realpath(str(root))
        inside = [path for path, _, _ in opened if os.path.isabs(path)
                  and os.path.realpath(path).startswith(top + os.sep)]
        adr = os.path.realpath(str(root / "docs" / "adr"))
        assert inside and all(os.path.realpath(path) == adr for path in inside), inside
        names = {os.path.basename(path) for path, _, _ in opened}
        assert any(name.endswith(".md") for name in names)  # the records were read
        assert not {os.path.basename(file) for file in files} & names, names
        writes = [entry for entry in opened if (any(c in entry[1] for c in "wax+")
                                                or entry[2] & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
                  and not entry[0].startswith(support.PYCACHE)]  # the interpreter's bytecode
        assert writes == [], writes
