"use client";

import type { z } from "zod";
import { isCodeMarker } from "@/shared/editor/doc";
import { ArrayField, ObjectField, RecordField } from "./collection-fields";
import { MULTILINE, SEMANTIC_DEFAULTS } from "./field-hints";
import { join, useFormCtx } from "./form-context";
import { BoolField, CodeField, JsonField, NumberField, SelectField, TextField } from "./primitive-fields";
import { ModelPickerField } from "./model-picker-field";
import { PromptContentField } from "./prompt-content-field";
import { ToolsField } from "./tools-field";
import { BindingField, ImmediateField, ResumableField } from "./union-fields";
import { defOf, enumOptions, humanize, numberBounds, unwrap } from "./zod-introspect";

const BINDINGS = new Set(["sessionStop", "sessionFail", "sessionStatus"]);

/** One field of a definition, with the widget its zod schema calls for. */
export function SchemaField({ schema, path, keyName }: { schema: z.ZodType; path: string; keyName: string }) {
  const ctx = useFormCtx();
  const full = join(ctx.prefix, path);
  const u = unwrap(schema);
  const label = humanize(keyName);
  const value = ctx.get(path);
  const defaultValue = u.defaultValue ?? SEMANTIC_DEFAULTS[keyName];
  const common = { path, label, hintKey: keyName, optional: u.optional, ...(defaultValue !== undefined ? { defaultValue } : {}) };
  if (isCodeMarker(value)) return <CodeField path={path} label={label} hintKey={keyName} code={value.$code} />;
  if (ctx.kind === "prompts" && full === "prompt") return <PromptContentField path={path} />;
  if (ctx.kind === "prompts" && full === "tools") return <ToolsField path={path} />;
  if (BINDINGS.has(keyName) && u.type === "union") return <BindingField {...common} />;
  if (keyName === "immediate" && u.type === "union") return <ImmediateField {...common} />;
  if (keyName === "resumable" && u.type === "union") return <ResumableField {...common} />;
  switch (u.type) {
    case "string": {
      const suggestions = ctx.suggest(full);
      const listId = suggestions ? `list-${ctx.defId}-${full}`.replace(/[^A-Za-z0-9_-]/g, "_") : undefined;
      const picker = ctx.kind === "prompts" && full === "model";
      return (
        <>
          {picker ? <ModelPickerField {...common} {...(listId ? { listId } : {})} /> : <TextField {...common} multiline={MULTILINE.has(keyName)} {...(listId ? { listId } : {})} />}
          {listId ? (
            <datalist id={listId}>
              {suggestions!.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          ) : null}
        </>
      );
    }
    case "number": {
      const b = numberBounds(u.schema);
      return <NumberField {...common} integer={b.integer} {...(b.min !== undefined ? { min: b.min } : {})} />;
    }
    case "boolean":
      return <BoolField {...common} />;
    case "enum":
      return <SelectField {...common} options={enumOptions(u.schema)} />;
    case "literal":
      return <p className="text-xs text-slate-500">{label}: {String((defOf(u.schema).values as unknown[])?.[0])}</p>;
    case "object":
      return <ObjectField schema={u.schema} path={path} label={label} optional={u.optional} />;
    case "array":
      return <ArrayField schema={u.schema} path={path} label={label} keyName={keyName} />;
    case "record":
      return <RecordField schema={u.schema} {...common} />;
    case "custom":
      return value === undefined ? null : <CodeField path={path} label={label} hintKey={keyName} code={JSON.stringify(value, null, 2)} language="json" />;
    default:
      return <JsonField {...common} />;
  }
}
