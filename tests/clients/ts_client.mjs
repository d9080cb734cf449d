// Drives adrkit-mcp with a TypeScript MCP client and prints what it saw as one JSON object.
//
//   node ts_client.mjs SCENARIO_JSON
//
// SCENARIO: {"client": "sdk" | "v2", "mode": {...}, "command": [...], "calls": {tool: args},
//            "invalid": {"name": tool, "arguments": args}, "walk": {"name": tool, "arguments": args},
//            "listen": bool, "expose": null | {"complete": {ref, argument}, "prompts": {name: args},
//            "missing": uri, "calls": bool}}
//   sdk: @modelcontextprotocol/sdk 1.x (legacy handshake only);
//   v2:  @modelcontextprotocol/client 2.x; mode.versionNegotiation ("legacy", "auto" or
//        {"pin": rev}) and mode.initialize (a 2025 revision offered by `initialize`).
// With "expose" (a server started with --expose resources,prompts) it lists every resource page
// by page, reads each one (reporting the SHA-256 of its text), lists the templates, completes an
// argument, lists the prompts, gets each prompt of the plan, and reports the error codes of a read
// of a missing resource and of an unknown prompt; "calls": false skips the tool calls.
// The assertions live in tests/test_clients.py; this only reports.

import { createHash } from "node:crypto";

const scenario = JSON.parse(process.argv[2]);

async function load(kind) {
  if (kind === "sdk") {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    return { Client, StdioClientTransport };
  }
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  return { Client, StdioClientTransport };
}

function clientOptions(kind, mode) {
  const options = { capabilities: {} };
  if (kind === "v2") {
    if (mode.versionNegotiation !== undefined) {
      options.versionNegotiation = { mode: mode.versionNegotiation };
    }
    if (mode.initialize !== undefined) {
      options.supportedProtocolVersions = [mode.initialize];
    }
  }
  return options;
}

function outcomeOf(result) {
  const structured = result.structuredContent;
  return structured && structured.result ? structured.result.outcome : undefined;
}

async function walk(client, name, args) {
  // Follow the results cursor in pages of 7 to the end; then ask for one page of 100.
  const walked = [];
  let cursor = null;
  let pages = 0;
  do {
    const pageArgs = Object.assign({}, args, { limit: 7 });
    if (cursor !== null) pageArgs.cursor = cursor;
    const result = await client.callTool({ name, arguments: pageArgs });
    const outcome = result.structuredContent.result;
    walked.push(...outcome.items.map((item) => [item.id, item.sourcePath]));
    cursor = outcome.cursor;
    pages += 1;
  } while (cursor !== null && pages < 100);
  const large = await client.callTool({ name, arguments: Object.assign({}, args, { limit: 100 }) });
  const items = large.structuredContent.result.items.map((item) => [item.id, item.sourcePath]);
  return { pages, walked, large: items, largeCursor: large.structuredContent.result.cursor };
}

async function listen(client) {
  if (typeof client.listen !== "function") return { opened: false, why: "no listen() in this client" };
  const subscription = await client.listen({ toolsListChanged: true });
  const honored = subscription.honoredFilter;
  await subscription.close();
  const closed = await subscription.closed;
  return { opened: true, honored, closed };
}

async function codeOf(promise) {
  try {
    await promise;
    return null;
  } catch (error) {
    return error && error.code !== undefined ? error.code : String(error);
  }
}

async function exposed(client, plan) {
  const report = { resources: [], reads: {}, pages: 0 };
  let cursor;
  do {
    const page = await client.listResources(cursor === undefined ? undefined : { cursor });
    report.resources.push(...page.resources.map((r) => r.uri));
    cursor = page.nextCursor;
    report.pages += 1;
  } while (cursor !== undefined && report.pages < 100);
  for (const uri of report.resources) {
    const read = await client.readResource({ uri });
    report.reads[uri] = read.contents.map((c) => [c.uri, c.mimeType,
      createHash("sha256").update(c.text, "utf8").digest("hex")]);
  }
  const templates = await client.listResourceTemplates();
  report.templates = templates.resourceTemplates.map((t) => t.uriTemplate);
  report.completion = (await client.complete(plan.complete)).completion;
  report.prompts = (await client.listPrompts()).prompts.map((p) => p.name);
  report.got = {};
  for (const [name, args] of Object.entries(plan.prompts)) {
    const got = await client.getPrompt({ name, arguments: args });
    report.got[name] = { text: got.messages[0].content.text,
      embedded: got.messages.slice(1).map((m) => [m.content.type, m.content.resource.uri,
        createHash("sha256").update(m.content.resource.text, "utf8").digest("hex")]) };
  }
  report.missing = await codeOf(client.readResource({ uri: plan.missing }));
  report.unknownPrompt = await codeOf(client.getPrompt({ name: "adr-review", arguments: {} }));
  return report;
}

async function main() {
  const { Client, StdioClientTransport } = await load(scenario.client);
  const [command, ...args] = scenario.command;
  const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
  const client = new Client({ name: "adrkit-mcp-tests", version: "1.0.0" },
    clientOptions(scenario.client, scenario.mode || {}));
  await client.connect(transport);
  const report = {};
  if (typeof client.getNegotiatedProtocolVersion === "function") {
    report.protocolVersion = client.getNegotiatedProtocolVersion();
  }
  const listed = await client.listTools();
  report.tools = listed.tools.map((tool) => tool.name);
  if (scenario.expose) {
    report.capabilities = client.getServerCapabilities();
    report.expose = await exposed(client, scenario.expose);
  }
  if (scenario.expose && scenario.expose.calls === false) {
    await client.close();
    process.stdout.write(JSON.stringify(report) + "\n");
    return;
  }
  report.calls = {};
  for (const [name, toolArgs] of Object.entries(scenario.calls)) {
    const result = await client.callTool({ name, arguments: toolArgs });
    report.calls[name] = { isError: result.isError === true, outcome: outcomeOf(result),
      text: result.content[0].text };
  }
  const invalid = await client.callTool(scenario.invalid);
  report.invalid = { isError: invalid.isError === true, text: invalid.content[0].text };
  report.walk = await walk(client, scenario.walk.name, scenario.walk.arguments);
  report.listen = scenario.listen ? await listen(client) : { opened: false, why: "not asked" };
  await client.close();
  process.stdout.write(JSON.stringify(report) + "\n");
}

main().catch((error) => {
  process.stderr.write("ts_client.mjs: " + (error && error.stack ? error.stack : String(error)) + "\n");
  process.exit(1);
});
