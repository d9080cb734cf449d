"""Self-tests of the conformance harness's comparison and substitution rules (no server needed)."""

import base64
import json

import pytest

import conformance_harness as h  # tests/ is on sys.path (pytest rootdir insertion)

SI = h.SERVER_INFO_KEY


def tool_result(fp="A", cursor=None, findings=(), text="ok", meta=False):
    result = {
        "content": [{"type": "text", "text": text}],
        "structuredContent": {
            "corpusHealth": {"fingerprint": fp, "recordCount": 2, "excludedCount": 0},
            "result": {"items": [], "cursor": cursor, "findings": {"items": list(findings), "cursor": None}},
        },
    }
    if meta:
        result["_meta"] = {SI: {"name": "@adrkit/mcp", "version": "0.8.0"}}
    return {"jsonrpc": "2.0", "id": 1, "result": result}


def differs(method, exp, got, comparator=None):
    try:
        (comparator or h.Comparator()).compare(method, exp, got)
    except h.Difference as diff:
        return str(diff)
    return None


def test_numbers_by_value_booleans_apart():
    assert h.json_equal({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert not h.json_equal(1, True)
    assert not h.json_equal({"a": 1}, {"a": 1, "b": None})
    exp = tool_result()
    got = json.loads(json.dumps(exp).replace('"recordCount": 2', '"recordCount": 2.0'))
    assert differs("tools/call", exp, got) is None


def test_first_difference_names_its_path():
    exp = tool_result()
    exp["result"]["structuredContent"]["result"]["items"] = [{"id": "0007"}]
    got = tool_result()
    got["result"]["structuredContent"]["result"]["items"] = [{"id": "0008"}]
    assert differs("tools/call", exp, got) == "result.structuredContent.result.items[0].id: expected '0007', got '0008'"


def test_extra_is_error_false_is_a_difference():
    got = tool_result()
    got["result"]["isError"] = False
    assert "result.isError: unexpected key" in differs("tools/call", tool_result(), got)


def test_fingerprints_are_a_bijection():
    c = h.Comparator()
    assert differs("tools/call", tool_result(fp="A"), tool_result(fp="x"), c) is None
    assert differs("tools/call", tool_result(fp="B"), tool_result(fp="y"), c) is None
    assert differs("tools/call", tool_result(fp="A"), tool_result(fp="x"), c) is None
    assert "fingerprint" in differs("tools/call", tool_result(fp="A"), tool_result(fp="z"), c)
    assert "fingerprint" in differs("tools/call", tool_result(fp="C"), tool_result(fp="y"), c)


def test_cursors_are_opaque_but_null_matters():
    assert differs("tools/call", tool_result(cursor="abc"), tool_result(cursor="other")) is None
    assert "cursor" in differs("tools/call", tool_result(cursor="abc"), tool_result(cursor=None))
    assert "cursor" in differs("tools/call", tool_result(cursor="abc"), tool_result(cursor=""))
    assert "cursor" in differs("tools/call", tool_result(cursor=None), tool_result(cursor="abc"))


def test_finding_messages_by_rule():
    lib = {"rule": "invalid-type", "severity": "error", "message": "Expected string", "path": "p", "id": "1", "field": "title"}
    fixed = {"rule": "unique-id", "severity": "error", "message": "Duplicate id", "path": "p", "id": "1"}
    reworded = [dict(lib, message="Invalid input"), dict(fixed, message="Id is duplicated")]
    result = differs("tools/call", tool_result(findings=[lib, fixed]), tool_result(findings=reworded))
    assert result.startswith("result.structuredContent.result.findings.items[1].message:")
    assert "items[0].message" in differs("tools/call", tool_result(findings=[lib]), tool_result(findings=[dict(lib, message=7)]))
    assert "items[0].field" in differs("tools/call", tool_result(findings=[lib]), tool_result(findings=[dict(lib, field="x")]))
    contract = dict(lib, rule="contract-something")
    assert differs("tools/call", tool_result(findings=[contract]), tool_result(findings=[dict(contract, message="x")])) is None


def test_tool_errors_compare_only_flag_and_content_type():
    exp = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "a"}], "isError": True}}
    got = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "b"}], "isError": True, "x": 1}}
    assert differs("tools/call", exp, got) is None
    assert "isError" in differs("tools/call", exp, tool_result())
    assert "unexpected tool error" in differs("tools/call", tool_result(), got)


def test_json_rpc_errors_compare_code_and_32022_data():
    exp = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "x"}}
    assert differs(None, exp, {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "y"}}) is None
    assert "error.code" in differs(None, exp, {"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "y"}})
    assert "error.message" in differs(None, exp, {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602}})
    exp = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32022, "message": "x", "data": {"supported": ["v"], "requested": "r"}}}
    assert "error.data.requested" in differs(None, exp, {"jsonrpc": "2.0", "id": 1, "error": {"code": -32022, "message": "x", "data": {"supported": ["v"], "requested": "s"}}})


def test_server_info_meta_presence_only():
    assert differs("tools/call", tool_result(meta=True), tool_result(meta=False)) is not None
    got = tool_result(meta=True)
    got["result"]["_meta"][SI] = {"name": "adrkit-mcp", "version": "1.0.0"}
    assert differs("tools/call", tool_result(meta=True), got) is None
    assert "_meta" in differs("tools/call", tool_result(), tool_result(meta=True))


def test_handshake_and_tools_list_rules():
    exp = {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {"listChanged": True}}, "serverInfo": {"name": "a"}}}
    got = {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "b"}, "instructions": "hi"}}
    assert differs("initialize", exp, got) is None
    got["result"]["protocolVersion"] = "2025-06-18"
    assert "protocolVersion" in differs("initialize", exp, got)
    tool = {"name": "t", "title": "T", "description": "d", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}
    exp = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool]}}
    same = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [dict(tool, title="X", description="Y", outputSchema={})]}}
    assert differs("tools/list", exp, same) is None
    other = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [dict(tool, annotations={})]}}
    assert "annotations" in differs("tools/list", exp, other)


def test_stdout_frames():
    assert h.classify_frame(h.parse_frame(b'{"jsonrpc":"2.0","id":1,"result":{}}')) == "response"
    assert h.classify_frame(h.parse_frame(b'{"jsonrpc":"2.0","error":{"code":-32700,"message":"m"}}')) == "response"
    assert h.classify_frame(h.parse_frame(b'{"jsonrpc":"2.0","method":"notifications/message"}')) == "message"
    for bad in (b"", b"log text", b"[1]", b'{"id":1,"result":{}}', b'{"jsonrpc":"2.0","id":1}', b"\xff"):
        with pytest.raises(h.Difference):
            h.classify_frame(h.parse_frame(bad))


def test_substitution():
    cursor = base64.urlsafe_b64encode(b'{"v":1,"scope":"s","offset":5}').decode().rstrip("=")
    responses = {3: {"result": {"list": [{"c": cursor}]}}}
    assert h.substitute({"a": "$step[3].result.list.0.c", "b": "$step[3].result.list[0].c"}, responses) == {"a": cursor, "b": cursor}
    assert h.substitute({"$b64json": {"v": 1.0, "s": "é"}}, {}) == base64.urlsafe_b64encode('{"v":1,"s":"é"}'.encode()).decode().rstrip("=")
    edited = h.substitute({"$cursor_edit": {"from": "$step[3].result.list[0].c", "set": {"offset": 7, "x": True}}}, responses)
    assert json.loads(base64.urlsafe_b64decode(edited + "=" * (-len(edited) % 4))) == {"v": 1, "scope": "s", "offset": 7, "x": True}
    with pytest.raises(h.Difference):
        h.substitute("$step[3].result.missing", responses)
