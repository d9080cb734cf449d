#!/usr/bin/env python3
"""A handshake through the official MCP Python SDK's client (mcp 2.x, Python 3.10+): start the
server command given, initialize, list the tools, call get_decision_context on adrkit_mcp.py, and
exit 0 only if the answer is structured and names a decision.  CI runs it against the .pyz:

    python3 tools/smoke_client.py --cwd REPOSITORY -- python3 "dir with space/adrkit-mcp.pyz"
"""

import argparse
import json
import sys
from typing import List


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cwd", required=True, help="the repository the server reads")
    parser.add_argument("command", nargs="+", help="the server command and its arguments")
    args = parser.parse_args(argv)
    try:
        import anyio
        from mcp import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client
    except ImportError as error:
        sys.stderr.write("smoke_client.py: the mcp SDK is not installed (%s)\n" % error)
        return 2

    async def session() -> dict:
        server = StdioServerParameters(command=args.command[0], args=args.command[1:],
                                       env={"ADRKIT_MCP_CWD": args.cwd})
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write) as client:
                hello = await client.initialize()
                tools = sorted(tool.name for tool in (await client.list_tools()).tools)
                result = await client.call_tool("get_decision_context",
                                                {"files": ["adrkit_mcp.py"]})
                return {"server": [hello.server_info.name, hello.server_info.version],
                        "protocol": hello.protocol_version, "tools": tools,
                        "isError": result.is_error, "structured": result.structured_content}

    answer = anyio.run(session)
    print(json.dumps(answer, indent=2)[:2000])
    matches = json.dumps(answer["structured"] or {})
    ok = (not answer["isError"] and "get_decision_context" in answer["tools"]
          and '"matches"' in matches)
    if not ok:
        sys.stderr.write("smoke_client.py: the call did not answer with matching decisions\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
