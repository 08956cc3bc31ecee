/**
 * Document values → TypeScript expression text, in the house style (double quotes, trailing commas in multi-line
 * literals, 2-space indentation, stable key order). Prettier formats the result afterwards; the output is already
 * close to it so that files prettier does not own stay readable. Browser-safe.
 */
import type { DefinitionKind } from "@/server/spec";
import { isCodeMarker, isDocObject, type DocValue, type EditableKind } from "@/shared/editor/doc";
import { keyOrderAt, orderKeys } from "@/shared/editor/key-order";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PRINT_WIDTH = 120;

export interface SerializeOptions {
  /** Definition kind and path of `value`, for the key order of objects. */
  kind?: DefinitionKind;
  path?: string;
  /** Current indentation (spaces) of the line the value starts on. */
  indent?: number;
}

/** A property key as written: bare when it is an identifier, quoted otherwise. */
export function keyText(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/** A string literal; multi-line text becomes a template literal so it stays readable in the file. */
export function stringText(value: string): string {
  if (value.includes("\n") && value.length > 40) {
    return "`" + value.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${") + "`";
  }
  return JSON.stringify(value);
}

function childPath(path: string | undefined, key: string | number): string | undefined {
  if (path === undefined) return undefined;
  return path === "" ? String(key) : `${path}.${key}`;
}

/** TypeScript source for `value`. */
export function toSource(value: DocValue, options: SerializeOptions = {}): string {
  const indent = options.indent ?? 0;
  if (isCodeMarker(value)) return value.$code;
  if (value === null) return "null";
  if (typeof value === "string") return stringText(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const pad = " ".repeat(indent + 2);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v, i) => toSource(v, { ...options, path: childPath(options.path, i), indent: indent + 2 }));
    const flat = `[${items.join(", ")}]`;
    if (!flat.includes("\n") && indent + flat.length <= PRINT_WIDTH - 10) return flat;
    return `[\n${items.map((s) => `${pad}${s},`).join("\n")}\n${" ".repeat(indent)}]`;
  }
  if (!isDocObject(value)) return "undefined";
  const order = options.kind && options.path !== undefined ? keyOrderAt(options.kind, options.path) : [];
  const keys = orderKeys(Object.keys(value), order).filter((k) => value[k] !== undefined);
  if (keys.length === 0) return "{}";
  const props = keys.map(
    (k) => `${keyText(k)}: ${toSource(value[k] as DocValue, { ...options, path: childPath(options.path, k), indent: indent + 2 })}`,
  );
  const flat = `{ ${props.join(", ")} }`;
  if (!flat.includes("\n") && indent + flat.length <= PRINT_WIDTH - 10 && options.path !== "") return flat;
  return `{\n${props.map((s) => `${pad}${s},`).join("\n")}\n${" ".repeat(indent)}}`;
}

/** The `define*` helper of each editable kind. */
export const EDITABLE_HELPERS: Record<EditableKind, string> = {
  agents: "defineAgent",
  prompts: "definePrompt",
  models: "defineModel",
};

/** A whole new definition file: the import line and `export default define*({...})`. */
export function newDefinitionFile(kind: EditableKind, value: DocValue): string {
  const helper = EDITABLE_HELPERS[kind];
  const body = toSource(value, { kind, path: "", indent: 0 });
  return `import { ${helper} } from "@studio/spec";\n\nexport default ${helper}(${body});\n`;
}
