/**
 * A new tool file: `defineTool` with a description, a `z.object` of the argument fields and an `execute` to fill
 * in. Tools are code: the editor creates the file once and never rewrites it.
 */
import path from "node:path";
import { z } from "zod";
import { envNameSchema, identifierSchema } from "@/server/spec";
import { DefinitionWriteError, READONLY_MESSAGE } from "./errors";
import { Formatter, readText, writeAtomic } from "./files";

export const TOOL_ARG_TYPES = ["string", "number", "boolean", "string[]"] as const;

export const scaffoldToolInput = z.object({
  name: identifierSchema("tool name", "word_count"),
  description: z.string().trim().min(1, { error: "description must not be empty: tell the model what the tool does" }),
  args: z
    .array(
      z.object({
        name: envNameSchema.describe("argument name"),
        type: z.enum(TOOL_ARG_TYPES),
        description: z.string().default(""),
        optional: z.boolean().default(false),
      }),
    )
    .default([]),
});
export type ScaffoldToolInput = z.input<typeof scaffoldToolInput>;

const ZOD_TYPE: Record<(typeof TOOL_ARG_TYPES)[number], string> = {
  string: "z.string()",
  number: "z.number()",
  boolean: "z.boolean()",
  "string[]": "z.array(z.string())",
};

/** The text of a new tool file. */
export function toolFileText(input: ScaffoldToolInput): string {
  const tool = scaffoldToolInput.parse(input);
  const names = new Set<string>();
  for (const arg of tool.args) {
    if (names.has(arg.name)) throw new DefinitionWriteError("VALIDATION_ERROR", `argument "${arg.name}" appears twice`);
    names.add(arg.name);
  }
  const fields = tool.args.map((a) => {
    let expr = ZOD_TYPE[a.type];
    if (a.optional) expr += ".optional()";
    if (a.description.trim()) expr += `.describe(${JSON.stringify(a.description.trim())})`;
    return `    ${a.name}: ${expr},`;
  });
  const argsBlock = tool.args.length > 0 ? `  args: z.object({\n${fields.join("\n")}\n  }),\n` : "";
  const params = tool.args.length > 0 ? `_state, { ${tool.args.map((a) => a.name).join(", ")} }` : "_state";
  const used = tool.args.length > 0 ? `\n    void [${tool.args.map((a) => a.name).join(", ")}];` : "";
  return (
    `import { defineTool } from "@studio/spec";\n` +
    (tool.args.length > 0 ? `import { z } from "zod";\n` : "") +
    `\n/** ${tool.description.replace(/\*\//g, "* /")} */\n` +
    `export default defineTool({\n` +
    `  description: ${JSON.stringify(tool.description)},\n` +
    argsBlock +
    `  execute: async (${params}) => {${used}\n` +
    `    // Write the tool's code here: return a text, or { status: "error", error: "..." } when it fails.\n` +
    `    return { status: "error", error: "${tool.name} is not implemented yet." };\n` +
    `  },\n` +
    `});\n`
  );
}

/** Creates `tools/<name>.ts` under `dir`; refuses when it exists or when writes are forbidden. */
export async function scaffoldTool(
  input: ScaffoldToolInput,
  options: { dir: string; projectRoot: string; readonly: boolean },
): Promise<{ file: string }> {
  if (options.readonly) throw new DefinitionWriteError("FORBIDDEN", READONLY_MESSAGE);
  const parsed = scaffoldToolInput.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ file: `tools/${String(input.name)}.ts`, path: i.path.join("."), message: i.message }));
    throw new DefinitionWriteError("VALIDATION_ERROR", issues.map((i) => `${i.path}: ${i.message}`).join("; "), issues);
  }
  const file = `tools/${parsed.data.name}.ts`;
  const absPath = path.join(options.dir, "tools", `${parsed.data.name}.ts`);
  if ((await readText(absPath)) !== undefined) throw new DefinitionWriteError("CONFLICT", `${file} already exists: choose another name`);
  const text = await new Formatter(options.projectRoot).format(toolFileText(parsed.data));
  await writeAtomic(absPath, text);
  return { file };
}
