import { describe, expect, it } from "vitest";
import { mcpServerDefinitionSchema, mcpToolName, mcpVariablesIn, splitMcpToolName } from "./mcp-server";

describe("defineMcpServer's schema", () => {
  it("needs a command for stdio and a url for http, and refuses the other transport's fields", () => {
    const stdio = mcpServerDefinitionSchema.safeParse({ name: "fs", transport: "stdio", url: "http://x/mcp" });
    expect(stdio.success).toBe(false);
    expect(stdio.error!.issues.map((i) => i.path.join("."))).toEqual(["command", "url"]);
    const http = mcpServerDefinitionSchema.safeParse({ name: "docs", transport: "http", command: "npx" });
    expect(http.error!.issues.map((i) => i.path.join("."))).toEqual(["url", "command"]);
    expect(mcpServerDefinitionSchema.safeParse({ name: "docs", transport: "http", url: "https://example.com/mcp" }).success).toBe(true);
  });

  it("refuses a server name with __ (the separator) and tool names that cannot be LLM function names", () => {
    expect(mcpServerDefinitionSchema.safeParse({ name: "a__b", transport: "stdio", command: "x" }).success).toBe(false);
    const r = mcpServerDefinitionSchema.safeParse({ name: "docs", transport: "stdio", command: "x", tools: ["ok-tool", "has space", "x".repeat(60)] });
    expect(r.error!.issues.map((i) => i.path.join("."))).toEqual(["tools.1", "tools.2"]);
  });
});

describe("MCP tool names", () => {
  it("are server__tool for the model; prompts may write server.tool or server__tool", () => {
    expect(mcpToolName("everything", "get-sum")).toBe("everything__get-sum");
    expect(splitMcpToolName("everything.get-sum")).toEqual({ server: "everything", tool: "get-sum" });
    expect(splitMcpToolName("everything__get-sum")).toEqual({ server: "everything", tool: "get-sum" });
    expect(splitMcpToolName("my_server__do_it")).toEqual({ server: "my_server", tool: "do_it" });
    expect(splitMcpToolName("word_count")).toBeUndefined();
    expect(splitMcpToolName("docs.")).toBeUndefined();
  });

  it("find the variables of a header or env value", () => {
    expect(mcpVariablesIn("Bearer {{ TOKEN }} and {{OTHER_1}}")).toEqual(["TOKEN", "OTHER_1"]);
  });
});
