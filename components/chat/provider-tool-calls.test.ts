import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ProviderToolCalls } from "./provider-tool-calls";

const html = (metadata: Record<string, unknown> | null) => renderToStaticMarkup(createElement(ProviderToolCalls, { metadata }));

describe("ProviderToolCalls", () => {
  it("shows a web search by its query and a code run with its code and output, as text", () => {
    const out = html({ provider_tool_calls: [{ name: "web_search", input: "weather <today>" }, { name: "code_execution", input: "print(6*7)", output: "42" }] });
    expect(out).toContain('data-name="web_search"');
    expect(out).toContain("Searched the web</span>: weather &lt;today&gt;");
    expect(out).toContain("<summary");
    expect(out).toContain(">Ran code</summary>");
    expect(out).toContain(">print(6*7)</pre>");
    expect(out).toContain(">42</pre>");
  });

  it("renders nothing without provider tool calls", () => {
    expect(html({ model: "fast" })).toBe("");
    expect(html({ provider_tool_calls: [{ input: "no name" }] })).toBe("");
    expect(html(null)).toBe("");
  });
});
