import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe("Markdown", () => {
  it("shows raw HTML as text and never emits script, event handlers or javascript: links", () => {
    const out = html(
      'Hi <script>alert(1)</script> <img src=x onerror="alert(2)">\n\n[x](javascript:alert(3)) [y](data:text/html,<b>) <a href="javascript:alert(4)">z</a>',
    );
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(out).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
    // Attributes look like name="…"; the escaped text has name=&quot;… instead.
    expect(out).not.toMatch(/<(script|img)\b|\bon\w+="|href="(javascript|data):/i);
    expect(out).toContain('title="Link removed: unsafe address"');
  });

  it("renders GitHub-flavoured markdown: emphasis, lists, tables, fenced code with its language and safe links", () => {
    const out = html(
      "**bold** and `code`\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1 < 2;\n```\n\n[site](https://example.com)",
    );
    expect(out).toContain("<strong>bold</strong>");
    expect(out).toMatch(/<li>one<\/li>/);
    expect(out).toContain("<table");
    expect(out).toContain('data-testid="code-block"');
    expect(out).toContain('<code class="language-ts">const x = 1 &lt; 2;</code>');
    expect(out).toContain('href="https://example.com" target="_blank" rel="noopener noreferrer nofollow"');
  });
});
