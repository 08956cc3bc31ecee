"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { useEditor } from "../state/editor-context";
import { dialogInput, Field, Modal, primaryButton, secondaryButton } from "./modal";

type Arg = { name: string; type: "string" | "number" | "boolean" | "string[]"; description: string; optional: boolean };

/** Creates a tool file (tools are code): name, description, argument fields; `execute` is left to write. */
export function ScaffoldToolDialog({ onClose }: { onClose(): void }) {
  const trpc = useTRPC();
  const { dispatch, notify } = useEditor();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [args, setArgs] = useState<Arg[]>([]);
  const scaffold = useMutation(
    trpc.editor.scaffoldTool.mutationOptions({
      onSuccess: (r) => {
        dispatch({ type: "view", view: r.view });
        dispatch({ type: "select", selection: { type: "node", id: `tool:${name}` } });
        notify(`Created ${r.file}: write its execute function in your code editor.`);
        onClose();
      },
    }),
  );
  const setArg = (i: number, patch: Partial<Arg>) => setArgs(args.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  return (
    <Modal title="New tool file" onClose={onClose} testId="scaffold-tool-dialog">
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          scaffold.mutate({ name, description, args });
        }}
      >
        <Field label="Name" hint="The file is tools/<name>.ts; the model sees this name.">
          <input name="name" autoFocus value={name} onChange={(e) => setName(e.target.value.trim())} className={`${dialogInput} font-mono`} />
        </Field>
        <Field label="Description" hint="Tell the model what the tool does and when to use it.">
          <textarea name="description" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} className={dialogInput} />
        </Field>
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium">Arguments</legend>
          {args.map((a, i) => (
            <div key={i} className="flex flex-wrap items-center gap-1">
              <input aria-label={`Argument ${i + 1} name`} value={a.name} onChange={(e) => setArg(i, { name: e.target.value.trim() })} placeholder="name" className={`${dialogInput} w-28 font-mono`} />
              <select aria-label={`Argument ${i + 1} type`} value={a.type} onChange={(e) => setArg(i, { type: e.target.value as Arg["type"] })} className={`${dialogInput} w-28`}>
                <option>string</option>
                <option>number</option>
                <option>boolean</option>
                <option>string[]</option>
              </select>
              <input aria-label={`Argument ${i + 1} description`} value={a.description} onChange={(e) => setArg(i, { description: e.target.value })} placeholder="description" className={`${dialogInput} min-w-40 flex-1`} />
              <label className="flex items-center gap-1 text-xs">
                <input type="checkbox" checked={a.optional} onChange={(e) => setArg(i, { optional: e.target.checked })} /> optional
              </label>
              <button type="button" aria-label={`Remove argument ${i + 1}`} className={secondaryButton} onClick={() => setArgs(args.filter((_, j) => j !== i))}>
                ✕
              </button>
            </div>
          ))}
          <button type="button" className={`${secondaryButton} self-start`} onClick={() => setArgs([...args, { name: "", type: "string", description: "", optional: false }])}>
            + Argument
          </button>
        </fieldset>
        {scaffold.error ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {scaffold.error.message}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={scaffold.isPending}>
            Create file
          </button>
        </div>
      </form>
    </Modal>
  );
}
