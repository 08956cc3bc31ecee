import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MessageSources } from "./message-sources";

const html = (metadata: Record<string, unknown> | null) => renderToStaticMarkup(createElement(MessageSources, { metadata }));

describe("MessageSources", () => {
  it("lists the cited pages as links, the title or else the address as text", () => {
    const out = html({ citations: [{ url: "https://example.com/a", title: "Page A" }, { url: "http://example.org/b" }] });
    expect(out).toContain('data-testid="message-sources"');
    expect(out).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer nofollow"');
    expect(out).toContain(">Page A</a>");
    expect(out).toContain(">http://example.org/b</a>");
  });

  it("leaves out addresses that are not http(s), and renders nothing without citations", () => {
    expect(html({ citations: [{ url: "javascript:alert(1)", title: "x" }] })).toBe("");
    expect(html({ model: "fast" })).toBe("");
    expect(html(null)).toBe("");
  });
});
