#!/usr/bin/env python3
"""A recording tee between an MCP client and the server, for the third-party client tests.

    python3 frame_tap.py PLAN.json

PLAN.json is {"folder": FOLDER, "command": [SERVER_COMMAND...]}: a file rather than arguments,
because clients parse, filter or rewrite the arguments and environment of what they start.
Starts SERVER_COMMAND with stderr inherited, copies the client's stdin to it and its stdout
back, line by line, and appends every frame to FOLDER/<pid>.jsonl in the transcript format of
tests/frame_validator.py ({"dir": "c2s"|"s2c", "msg": ...}, or "raw" for a line that is not
JSON).  A frame is recorded before it is passed on, so the transcript keeps wire order.
SIGTERM and SIGINT are passed to the server; stdin EOF closes the server's stdin.  When the
server ends, its exit status goes to FOLDER/<pid>.status and becomes the tap's own.
"""

import json
import os
import signal
import subprocess
import sys
import threading
from typing import BinaryIO, List


class Transcript(object):
    """One JSON line per frame, written under a lock by both directions."""

    def __init__(self, path: str) -> None:
        self._file = open(path, "a", encoding="utf-8")
        self._lock = threading.Lock()

    def record(self, direction: str, line: bytes) -> None:
        text = line.decode("utf-8", "replace").rstrip("\r\n")
        if not text.strip():
            return
        try:
            entry = {"dir": direction, "msg": json.loads(text)}
        except ValueError:
            entry = {"dir": direction, "raw": text}
        with self._lock:
            self._file.write(json.dumps(entry) + "\n")
            self._file.flush()


def pump(source: BinaryIO, sink: BinaryIO, transcript: Transcript, direction: str) -> None:
    """Copy lines from source to sink, recording each; close sink at EOF."""
    try:
        for line in iter(source.readline, b""):
            transcript.record(direction, line)
            sink.write(line)
            sink.flush()
    except (BrokenPipeError, ValueError, OSError):
        pass
    finally:
        try:
            sink.close()
        except OSError:
            pass


def main(argv: List[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage: frame_tap.py PLAN.json\n")
        return 2
    with open(argv[0], encoding="utf-8") as handle:
        plan = json.load(handle)
    folder, command = plan["folder"], plan["command"]
    transcript = Transcript(os.path.join(folder, "%d.jsonl" % os.getpid()))
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda signum, frame: server.send_signal(signum))
    upstream = threading.Thread(target=pump, args=(sys.stdin.buffer, server.stdin, transcript, "c2s"))
    upstream.daemon = True
    upstream.start()
    pump(server.stdout, sys.stdout.buffer, transcript, "s2c")
    status = server.wait()
    with open(os.path.join(folder, "%d.status" % os.getpid()), "w", encoding="utf-8") as handle:
        handle.write("%d\n" % status)
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
