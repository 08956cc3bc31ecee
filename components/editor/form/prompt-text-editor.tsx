"use client";

import dynamic from "next/dynamic";
import { useMemo } from "react";
import { isDocObject, type DocObject, type DocValue } from "@/shared/editor/doc";
import { promptToText, textToPrompt } from "@/shared/editor/prompt-text";
import { toolEntryName } from "@/shared/editor/live-checks";
import { fieldId, join, useFormCtx } from "./form-context";
import type { PromptNames } from "./prompt-code-editor";

// CodeMirror loads with the first prompt opened, not with the editor page (it is not needed to show the graph).
const PromptCodeEditor = dynamic(() => import("./prompt-code-editor").then((m) => m.PromptCodeEditor), {
  ssr: false,
  loading: () => <p className="text-xs text-slate-500">Loading the text editor…</p>,
});

/**
 * The prompt's text in the code editor, bound to the form: a string, or parts when it holds `{{…}}`. Picking an
 * `@`-mention of a tool the prompt does not offer adds it to the prompt's tools in the same edit.
 */
export function PromptTextEditor({ path, onError }: { path: string; onError(message: string | null): void }) {
  const ctx = useFormCtx();
  const value = ctx.get(path);
  const tools = ctx.get("tools");
  const self = ctx.get("name");
  const text = useMemo(() => promptToText(value), [value]);
  const names = useMemo<PromptNames>(() => {
    const entries = ctx.suggest(join(ctx.prefix, "tools.0")) ?? [];
    const offered = Array.isArray(tools) ? tools.map(toolEntryName).filter((n): n is string => n !== undefined) : [];
    const selfName = typeof self === "string" ? self : "";
    return {
      self: selfName,
      tools: entries.filter((n) => ctx.entryKind(n) === "tool"),
      agents: entries.filter((n) => ["subagent", "handoff"].includes(ctx.entryKind(n) ?? "")),
      prompts: [...(ctx.suggest(join(ctx.prefix, `${path}.0.prompt`)) ?? []), ...(selfName ? [selfName] : [])],
      variables: ctx.suggest(join(ctx.prefix, `${path}.0.property`)) ?? [],
      offered,
    };
  }, [ctx, tools, self, path]);
  const onChange = (next: string, mention?: string) => {
    const prompt: DocValue = textToPrompt(next);
    if (mention && !names.offered.includes(mention)) {
      const root = ctx.get("");
      const list = Array.isArray(tools) ? tools : [];
      onError(ctx.propose("", { ...(isDocObject(root) ? root : {}), [path]: prompt, tools: [...list, mention] } as DocObject));
      return;
    }
    onError(ctx.propose(path, prompt));
  };
  return <PromptCodeEditor id={fieldId(ctx, path)} label="Prompt text" value={text} names={names} readOnly={ctx.readOnly} onChange={onChange} />;
}
