"""What a client does with a freshly installed server, in one function: start the command it was
given (working directory, environment), `initialize` + `notifications/initialized`, `tools/list`,
one `tools/call` that must find a record of the repository, then close stdin and expect exit 0.
Every frame is checked by the project's frame validator (tests/frame_validator.py) against the
official MCP schemas in tests/data/mcp-schema/.  Used by the install and bundle tests.
"""

import json
import os
import queue
import subprocess
import threading
from typing import Dict, List, Optional

import _support as support
from _child_env import child_env
import _session as wire

RECORD_TITLE = "Keep the first-run handshake honest"


def make_repo(root: str, adr_dir: str = "docs/adr") -> str:
    """A repository root (a .git folder) with one accepted record 0001 in adr_dir."""
    folder = os.path.join(root, adr_dir)
    os.makedirs(folder)
    os.makedirs(os.path.join(root, ".git"))
    text = support.record_text("0001", title=RECORD_TITLE, status="accepted",
                               extra='deciders: ["@alice"]\n', body="Installed servers answer.\n")
    with open(os.path.join(folder, "0001-first-run.md"), "w", encoding="utf-8") as handle:
        handle.write(text)
    return root


def bare_env(home: str, **extra: str) -> Dict[str, str]:
    """What a GUI client passes on: a short PATH, a HOME, a locale, and what the caller adds
    (with what Windows needs: tests/_child_env.py)."""
    return child_env(dict(PATH=os.defpath, HOME=home, LANG="C.UTF-8"), **extra)


class _Pipe(object):
    def __init__(self, command: List[str], env: Dict[str, str], cwd: str):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=cwd)
        self.lines = queue.Queue()
        self.errors = []
        self.checker = wire.FrameChecker()
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines.put),
                         daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.errors.append),
                         daemon=True).start()

    @staticmethod
    def _pump(stream, sink):
        for line in iter(stream.readline, b""):
            sink(line)
        sink(None)

    def stderr(self) -> str:
        return b"".join(part for part in self.errors if part).decode("utf-8", "replace")

    def send(self, message: dict) -> None:
        self.checker.sent(message)
        self.proc.stdin.write(json.dumps(message).encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def call(self, rid: int, method: str, params: dict, timeout: float) -> dict:
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        try:
            line = self.lines.get(timeout=timeout)  # a hang guard, not a measurement
        except queue.Empty:
            raise AssertionError("no answer to %s within %d s; stderr: %s"
                                 % (method, timeout, self.stderr()))
        assert line is not None, "stdout closed; stderr: %s" % self.stderr()
        frame = self.checker.check_line(line)
        assert not self.checker.problems, self.checker.problems
        assert frame.get("id") == rid and "result" in frame, frame
        return frame["result"]


def handshake(command: List[str], env: Dict[str, str], cwd: str,
              timeout: float = 120) -> Optional[dict]:
    """Run the client's first exchange with `command`; return the initialize result."""
    pipe = _Pipe(command, env, cwd)
    try:
        init = pipe.call(0, "initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "install-tests", "version": "1"}}, timeout)
        assert init["protocolVersion"] == "2025-06-18", init
        assert init["serverInfo"]["name"] == "adrkit-mcp", init
        pipe.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools = pipe.call(1, "tools/list", {}, timeout)["tools"]
        assert sorted(tool["name"] for tool in tools) == wire.TOOL_NAMES
        answer = pipe.call(2, "tools/call", {"name": "get_decision",
                                             "arguments": {"ref": "0001"}}, timeout)
        result = answer["structuredContent"]["result"]
        assert result["outcome"] == "found", answer
        assert result["decision"]["title"] == RECORD_TITLE, result
        pipe.proc.stdin.close()
        assert pipe.proc.wait(timeout=timeout) == 0, pipe.stderr()
        return init
    finally:
        if pipe.proc.poll() is None:
            pipe.proc.kill()
            pipe.proc.wait()
