import { CopyButton } from "./copy-button";

/** A fenced code block with its language and a copy button. */
export function CodeBlock({ code, language }: { code: string; language: string | null }) {
  return (
    <div
      data-testid="code-block"
      className="group my-2 overflow-hidden rounded-lg border border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-900"
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-3 py-1 text-xs text-slate-500 dark:border-slate-700 dark:text-slate-400">
        <span className="font-mono">{language ?? "text"}</span>
        <CopyButton text={code} label="Copy code" />
      </div>
      <pre className="overflow-x-auto p-3 font-mono text-[0.8rem] leading-relaxed">
        <code className={language ? `language-${language}` : undefined}>{code}</code>
      </pre>
    </div>
  );
}
