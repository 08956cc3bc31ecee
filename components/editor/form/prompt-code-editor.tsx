"use client";

import { autocompletion, closeBrackets, completionKeymap, type Completion, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { forceLinting, linter, type Diagnostic } from "@codemirror/lint";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import { Compartment, EditorState } from "@codemirror/state";
import { Decoration, EditorView, keymap, MatchDecorator, placeholder, ViewPlugin, type DecorationSet, type ViewUpdate } from "@codemirror/view";
import { useEffect, useRef } from "react";
import { externalChange, readOnlyMode, useEditorSync } from "./use-editor-sync";
import { promptTextIssues, type PromptTextContext } from "@/shared/editor/prompt-text";
import { useDarkClass } from "../canvas/use-dark";

/** The names the editor completes and checks against. */
export type PromptNames = PromptTextContext;

interface Props {
  id: string;
  value: string;
  names: PromptNames;
  readOnly: boolean;
  /** A new text; `mention` when the change inserted an `@`-mention picked from the completions. */
  onChange(text: string, mention?: string): void;
  label: string;
}


const tokens = new MatchDecorator({
  regexp: /\{\{\s*>\s*[\w.-]*\s*\}\}|\{\{\s*[\w.-]*\s*\}\}|(?<![\w@])@[A-Za-z_][\w-]*/g,
  decoration: (m) => Decoration.mark({ class: m[0].startsWith("@") ? "cm-mention" : m[0].includes(">") ? "cm-include" : "cm-variable" }),
});
const highlightTokens = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = tokens.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = tokens.updateDeco(update, this.decorations);
    }
  },
  { decorations: (v) => v.decorations },
);

const theme = EditorView.theme({
  "&": { fontSize: "13px", border: "1px solid #cbd5e1", borderRadius: "0.25rem", backgroundColor: "#ffffff", color: "#0f172a" },
  "&.cm-focused": { outline: "2px solid #6366f1" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", lineHeight: "1.5", minHeight: "8rem", maxHeight: "24rem" },
  ".cm-content": { padding: "6px 0" },
  ".cm-mention": { color: "#047857", fontWeight: "600" },
  ".cm-variable": { color: "#7c3aed", fontWeight: "600" },
  ".cm-include": { color: "#0369a1", fontWeight: "600" },
  ".cm-tooltip-autocomplete ul li": { fontSize: "12px" },
});
const darkTheme = EditorView.theme(
  {
    "&": { backgroundColor: "#020617", color: "#f1f5f9", borderColor: "#475569" },
    ".cm-mention": { color: "#6ee7b7" },
    ".cm-variable": { color: "#c4b5fd" },
    ".cm-include": { color: "#7dd3fc" },
    ".cm-cursor": { borderLeftColor: "#f1f5f9" },
  },
  { dark: true },
);

function completions(names: () => PromptNames, mention: { current: string | null }) {
  return (ctx: CompletionContext): CompletionResult | null => {
    const n = names();
    const at = ctx.matchBefore(/(?<![\w@])@[\w-]*/);
    if (at) {
      const option = (name: string, type: string, detail: string): Completion => ({
        label: `@${name}`,
        type,
        detail,
        apply: (view, _c, from, to) => {
          mention.current = name;
          view.dispatch({ changes: { from, to, insert: `@${name}` }, selection: { anchor: from + name.length + 1 } });
        },
      });
      const offered = new Set(n.offered);
      const tools = n.tools.map((t) => option(t, "function", offered.has(t) ? "tool" : "tool · adds it to this prompt"));
      const prompts = n.prompts.filter((p) => p !== n.self).map((p) => option(p, "class", offered.has(p) ? "subprompt" : "subprompt · adds it"));
      const agents = n.agents.map((a) => option(a, "namespace", offered.has(a) ? "agent" : "agent · adds it"));
      return { from: at.from, options: [...tools, ...prompts, ...agents], validFor: /^@[\w-]*$/ };
    }
    const open = ctx.matchBefore(/\{\{\s*(>\s*)?[\w.-]*/);
    if (open) {
      // Completes the name after the braces (what is typed there is what the options are filtered by).
      const head = /^\{\{\s*(>\s*)?/.exec(open.text)?.[0] ?? "{{";
      const include = head.includes(">");
      // Replaces the closing braces already there (typed, or added by closeBrackets) and puts the cursor after them.
      const make = (insert: string, label: string, type: string, detail: string): Completion => ({
        label,
        type,
        detail,
        apply: (view, _c, from, to) => {
          const end = view.state.sliceDoc(to, to + 2) === "}}" ? to + 2 : to;
          const text = `${insert}}}`;
          view.dispatch({ changes: { from, to: end, insert: text }, selection: { anchor: from + text.length } });
        },
      });
      const others = n.prompts.filter((p) => p !== n.self);
      const options = include
        ? others.map((p) => make(p, p, "class", "include prompt"))
        : [...n.variables.map((v) => make(v, v, "variable", "variable")), ...others.map((p) => make(`> ${p}`, `> ${p}`, "class", "include prompt"))];
      return { from: open.from + head.length, options, validFor: /^[\w.-]*$/ };
    }
    return null;
  };
}

/**
 * A CodeMirror 6 editor for prompt text: variables `{{NAME}}`, includes `{{> prompt}}` and `@`-mentions are
 * highlighted and completed (`@` and `{{`), problems are marked inline, Ctrl+F finds, long texts wrap and scroll.
 */
export function PromptCodeEditor({ id, value, names, readOnly, onChange, label }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const namesRef = useRef(names);
  const onChangeRef = useRef(onChange);
  const mention = useRef<string | null>(null);
  const editable = useRef(new Compartment());
  const colors = useRef(new Compartment());
  const dark = useDarkClass();
  namesRef.current = names;
  onChangeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          closeBrackets(),
          search({ top: true }),
          highlightSelectionMatches(),
          // No interaction delay: completions open only after `@` or `{{`, and an Enter that comes quickly after the list
          // opened must pick the option (with the default delay it typed a new line and the tool was never added).
          autocompletion({ override: [completions(() => namesRef.current, mention)], activateOnTyping: true, interactionDelay: 0 }),
          linter((ev): Diagnostic[] => promptTextIssues(ev.state.doc.toString(), namesRef.current), { delay: 250 }),
          highlightTokens,
          EditorView.lineWrapping,
          placeholder("Type the prompt. @ mentions a tool, {{ inserts a variable or includes a prompt."),
          keymap.of([...completionKeymap, ...searchKeymap, ...historyKeymap, ...defaultKeymap]),
          theme,
          colors.current.of([]),
          editable.current.of(readOnlyMode(readOnly)),
          EditorView.contentAttributes.of({ id, "aria-label": label, "data-testid": "prompt-code-editor" }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged || u.transactions.some((t) => t.annotation(externalChange))) return;
            const picked = mention.current;
            mention.current = null;
            onChangeRef.current(u.state.doc.toString(), picked ?? undefined);
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is created once; later values, names and modes arrive through the effects below.
  }, []);

  useEditorSync(view, { editable, colors }, { value, readOnly, dark, darkTheme: darkTheme });

  useEffect(() => {
    if (view.current) forceLinting(view.current);
  }, [names]);

  return <div ref={host} data-testid="prompt-editor" className="min-w-0" />;
}
