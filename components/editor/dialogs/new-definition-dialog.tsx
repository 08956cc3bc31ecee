"use client";

import { useMemo, useState } from "react";
import { validateDoc } from "@/shared/editor/doc-validate";
import type { DocObject } from "@/shared/editor/doc";
import { useEditor } from "../state/editor-context";
import { docByNodeKind, namesOf } from "../state/selectors";
import { dialogInput, Field, Modal, primaryButton, secondaryButton } from "./modal";

type Kind = "agents" | "prompts" | "models";
const TITLE: Record<Kind, string> = { agents: "New agent", prompts: "New prompt", models: "New model" };

/**
 * Creates an agent, prompt or model with the fields it cannot do without; the side panel then edits the rest.
 * The file is written at the next save.
 */
export function NewDefinitionDialog({ kind, onClose }: { kind: Kind; onClose(): void }) {
  const { state, dispatch } = useEditor();
  const prompts = namesOf(state.docs, "prompts");
  const models = namesOf(state.docs, "models");
  const [name, setName] = useState("");
  const [type, setType] = useState<"ai_human" | "dual_ai">("dual_ai");
  const [title, setTitle] = useState("");
  const [sideA, setSideA] = useState(prompts[0] ?? "");
  const [sideB, setSideB] = useState(prompts[1] ?? prompts[0] ?? "");
  const [model, setModel] = useState(models[0] ?? "");
  const [text, setText] = useState("");
  const [provider, setProvider] = useState("openai");
  const [modelId, setModelId] = useState("");
  const [submitted, setSubmitted] = useState(false);

  const value = useMemo<DocObject>(() => {
    if (kind === "agents") {
      const v: DocObject = { name, type, ...(title ? { title } : {}), sideA: { prompt: sideA } };
      if (type === "dual_ai") v.sideB = { prompt: sideB };
      return v;
    }
    if (kind === "prompts") return { name, model, prompt: text };
    return { name, provider, model: modelId };
  }, [kind, name, type, title, sideA, sideB, model, text, provider, modelId]);
  const issues = validateDoc(kind, value);
  const at = (path: string) => (submitted ? issues.find((i) => i.path === path)?.message : undefined) ?? null;
  const taken = name !== "" && docByNodeKind(state.docs, kind, name) ? `a ${kind.slice(0, -1)} named "${name}" already exists` : null;

  const create = () => {
    setSubmitted(true);
    if (issues.length > 0 || taken) return;
    dispatch({ type: "create", kind, value });
    onClose();
  };

  return (
    <Modal title={TITLE[kind]} onClose={onClose} testId="new-definition-dialog">
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          create();
        }}
      >
        <Field label="Name" error={taken ?? at("name")} hint={kind === "models" ? "Named for the use case, e.g. fast or careful." : "snake_case, e.g. second_reviewer."}>
          <input name="name" autoFocus value={name} onChange={(e) => setName(e.target.value.trim())} className={`${dialogInput} font-mono`} aria-invalid={Boolean(taken ?? at("name"))} />
        </Field>
        {kind === "agents" ? (
          <>
            <Field label="Type" hint="dual_ai: two AI sides in a session (a subagent); ai_human: a chat with a person.">
              <select name="type" value={type} onChange={(e) => setType(e.target.value as "ai_human" | "dual_ai")} className={dialogInput}>
                <option value="dual_ai">dual_ai</option>
                <option value="ai_human">ai_human</option>
              </select>
            </Field>
            <Field label="Title">
              <input name="title" value={title} onChange={(e) => setTitle(e.target.value)} className={dialogInput} />
            </Field>
            <Field label="Side A prompt" error={at("sideA.prompt")}>
              <select name="sideA" value={sideA} onChange={(e) => setSideA(e.target.value)} className={dialogInput}>
                {prompts.map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </select>
            </Field>
            {type === "dual_ai" ? (
              <Field label="Side B prompt" error={at("sideB.prompt")} hint="Give side B a job of its own, e.g. a reviewer that approves or asks for changes.">
                <select name="sideB" value={sideB} onChange={(e) => setSideB(e.target.value)} className={dialogInput}>
                  {prompts.map((p) => (
                    <option key={p}>{p}</option>
                  ))}
                </select>
              </Field>
            ) : null}
          </>
        ) : null}
        {kind === "prompts" ? (
          <>
            <Field label="Model" error={at("model")}>
              <select name="model" value={model} onChange={(e) => setModel(e.target.value)} className={dialogInput}>
                {models.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </Field>
            <Field label="System prompt" error={at("prompt")}>
              <textarea name="prompt" rows={4} value={text} onChange={(e) => setText(e.target.value)} className={dialogInput} />
            </Field>
          </>
        ) : null}
        {kind === "models" ? (
          <>
            <Field label="Provider" error={at("provider")} hint="openai = any OpenAI-compatible endpoint.">
              <input name="provider" value={provider} onChange={(e) => setProvider(e.target.value)} className={dialogInput} />
            </Field>
            <Field label="Model id" error={at("model")} hint="Sent to the provider verbatim, e.g. gpt-4.1-mini.">
              <input name="model" value={modelId} onChange={(e) => setModelId(e.target.value)} className={`${dialogInput} font-mono`} />
            </Field>
          </>
        ) : null}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButton}>
            Create
          </button>
        </div>
      </form>
    </Modal>
  );
}
