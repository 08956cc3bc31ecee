"use client";

import { memo, type ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { CodeBlock } from "./code-block";

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * Raw HTML in a message is shown as the text it is, never interpreted: a `<script>` or an `onerror` attribute in a
 * model reply reads as literal characters. (react-markdown renders no HTML without rehype-raw; this keeps it visible.)
 */
export function remarkHtmlAsText() {
  const walk = (node: MdNode) => {
    if (node.type === "html") node.type = "text";
    node.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

function textOf(node: unknown): string {
  const n = node as { type?: string; value?: string; children?: unknown[] } | undefined;
  if (!n) return "";
  if (n.type === "text") return n.value ?? "";
  return (n.children ?? []).map(textOf).join("");
}

const components: Components = {
  // Links keep react-markdown's default URL transform (javascript:, data: and other unsafe protocols become "").
  a: ({ href, children }) =>
    href ? (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-100"
      >
        {children}
      </a>
    ) : (
      <span className="underline decoration-dotted" title="Link removed: unsafe address">
        {children}
      </span>
    ),
  img: ({ src, alt }) =>
    typeof src === "string" && src ? (
      <img
        src={src}
        alt={alt ?? ""}
        loading="lazy"
        referrerPolicy="no-referrer"
        className="my-2 max-h-80 max-w-full rounded-lg"
      />
    ) : (
      <span>{alt}</span>
    ),
  pre: ({ node }) => {
    const code = (node?.children?.[0] ?? null) as { properties?: { className?: unknown } } | null;
    const cls = Array.isArray(code?.properties?.className) ? code.properties.className.map(String) : [];
    const lang = cls.find((c) => c.startsWith("language-"))?.slice("language-".length) ?? null;
    return <CodeBlock code={textOf(node?.children?.[0]).replace(/\n$/, "")} language={lang} />;
  },
  code: ({ className, children }) =>
    className ? (
      <code className={className}>{children}</code>
    ) : (
      <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] dark:bg-slate-800">{children}</code>
    ),
  table: ({ children }) => (
    <div className="my-2 overflow-x-auto">
      <table className="w-full border-collapse text-sm">{children}</table>
    </div>
  ),
  th: ({ children }) => (
    <th className="border border-slate-300 px-2 py-1 text-left font-semibold dark:border-slate-700">{children}</th>
  ),
  td: ({ children }) => (
    <td className="border border-slate-300 px-2 py-1 align-top dark:border-slate-700">{children}</td>
  ),
};

const PROSE = [
  "min-w-0 break-words leading-relaxed",
  "[&>*:first-child]:mt-0 [&>*:last-child]:mb-0 [&_p]:my-2",
  "[&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-5 [&_li]:my-0.5",
  "[&_h1]:mt-3 [&_h1]:mb-2 [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:mt-3 [&_h2]:mb-2 [&_h2]:text-base [&_h2]:font-semibold",
  "[&_h3]:mt-2 [&_h3]:mb-1 [&_h3]:font-semibold [&_blockquote]:my-2 [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300",
  "[&_blockquote]:pl-3 [&_blockquote]:text-slate-600 dark:[&_blockquote]:border-slate-600 dark:[&_blockquote]:text-slate-300",
  "[&_hr]:my-3 [&_hr]:border-slate-200 dark:[&_hr]:border-slate-700",
].join(" ");

/** A message's markdown (GitHub flavour), rendered safely: no raw HTML, no unsafe URLs. */
export const Markdown = memo(function Markdown({ text }: { text: string }): ReactNode {
  return (
    <div className={PROSE}>
      <ReactMarkdown remarkPlugins={[remarkGfm, remarkHtmlAsText]} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
