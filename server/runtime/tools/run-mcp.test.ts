import { describe, expect, it } from "vitest";
import { mapMcpResult } from "./run-mcp";

const entry = { kind: "mcp" as const, name: "everything__demo", index: 0, server: "everything", tool: "demo" };

describe("an MCP tool result", () => {
  it("keeps text, attaches images and binary resources, lists resource links", () => {
    const r = mapMcpResult(entry, {
      isError: false,
      content: [
        { type: "text", text: "Here:" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///tmp/report.pdf", mimeType: "application/pdf", blob: "JVBERi0=" } },
        { type: "resource", resource: { uri: "memo://1", text: "a memo" } },
        { type: "resource_link", uri: "https://example.com/a", name: "A" },
      ],
    });
    expect(r).toEqual({
      status: "success",
      result:
        "Here:\n[image attached: /attachments/everything__demo-2.png]\n[resource file:///tmp/report.pdf attached: /attachments/report.pdf]\n" +
        "[resource memo://1]\na memo\n[resource link https://example.com/a (A)]",
      attachments: [
        { name: "everything__demo-2.png", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { name: "report.pdf", mimeType: "application/pdf", data: "JVBERi0=" },
      ],
    });
  });

  it("is a tool error when the server says isError, and falls back to structured content", () => {
    expect(mapMcpResult(entry, { isError: true, content: [{ type: "text", text: "no such file" }] })).toEqual({
      status: "error",
      error: "Tool everything__demo failed: no such file",
      error_code: "mcp_tool_error",
    });
    expect(mapMcpResult(entry, { isError: false, content: [], structuredContent: { n: 1 } })).toEqual({ status: "success", result: '{"n":1}' });
  });
});
