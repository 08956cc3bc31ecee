import { z } from "zod";
import type { DeprecatedAlias } from "./deprecation";
import { referenceSchema } from "./names";
import { sessionToolBindingSchema, type SessionToolBinding } from "./session-binding";

/** Deprecated side-config fields and the field each one maps to. */
export const SIDE_CONFIG_ALIASES = {
  failSessionTool: "sessionFail",
  statusTool: "sessionStatus",
  stopSessionTool: "sessionStop",
  endSessionTool: "sessionStop",
} as const;

type AliasField = keyof typeof SIDE_CONFIG_ALIASES;
const ALIAS_FIELDS = Object.keys(SIDE_CONFIG_ALIASES) as AliasField[];

const deprecatedToolName = (alias: AliasField) =>
  z
    .string()
    .trim()
    .min(1, { error: `${alias} must not be empty` })
    .optional()
    .describe(`Deprecated: use \`${SIDE_CONFIG_ALIASES[alias]}\``);

const sideConfigObject = z.object({
  /** Prompt this side runs (a prompt name). */
  prompt: referenceSchema("prompt"),
  /** UI/log label for this side (e.g. "Writer"). */
  label: z.string().optional(),
  /** End the side's turn when the model answers with text and no tool calls. @default true */
  stopOnResponse: z.boolean().default(true),
  /** End the side's turn when this tool is called. */
  stopTool: referenceSchema("stopTool").optional(),
  /** Argument of `stopTool` whose value becomes the stored assistant content. */
  stopToolResponseProperty: z.string().min(1).optional(),
  /** Per-side step safety limit. */
  maxSteps: z
    .number({ error: "maxSteps must be a number" })
    .int({ error: "maxSteps must be a whole number" })
    .positive({ error: "maxSteps must be at least 1" })
    .optional(),
  /** Tool that ends the whole session successfully. */
  sessionStop: sessionToolBindingSchema.optional(),
  /** Tool that ends the whole session with a failure. */
  sessionFail: sessionToolBindingSchema.optional(),
  /** Tool that publishes a status update (does not end the session). */
  sessionStatus: sessionToolBindingSchema.optional(),
  /** @deprecated Use `sessionFail`. */
  failSessionTool: deprecatedToolName("failSessionTool"),
  /** @deprecated Use `sessionStatus`. */
  statusTool: deprecatedToolName("statusTool"),
  /** @deprecated Use `sessionStop`. */
  stopSessionTool: deprecatedToolName("stopSessionTool"),
  /** @deprecated Use `sessionStop`. */
  endSessionTool: deprecatedToolName("endSessionTool"),
});

/** Field names a side config accepts (including deprecated aliases). */
export const SIDE_CONFIG_KEYS: readonly string[] = Object.keys(sideConfigObject.shape);

function bindingName(binding: SessionToolBinding | undefined): string | undefined {
  if (binding === undefined) return undefined;
  return typeof binding === "string" ? binding : binding.name;
}

const SESSION_FIELDS = ["sessionStop", "sessionFail", "sessionStatus"] as const;
type SessionField = (typeof SESSION_FIELDS)[number];
const aliasesOf = (target: SessionField) => ALIAS_FIELDS.filter((a) => SIDE_CONFIG_ALIASES[a] === target);

/** A parsed side config: defaults applied, deprecated aliases moved to their replacements. */
export interface ParsedSideConfig {
  prompt: string;
  label?: string;
  stopOnResponse: boolean;
  stopTool?: string;
  stopToolResponseProperty?: string;
  maxSteps?: number;
  sessionStop?: SessionToolBinding;
  sessionFail?: SessionToolBinding;
  sessionStatus?: SessionToolBinding;
  /** Deprecated aliases found in this side (field relative to the side), for registry warnings. */
  deprecatedAliases: DeprecatedAlias[];
}

/**
 * One side of an agent (spec `SideConfig`). Deprecated aliases (`failSessionTool`, `statusTool`, `stopSessionTool`,
 * `endSessionTool`) are accepted and moved into `sessionFail`/`sessionStatus`/`sessionStop`; the parsed value lists
 * the aliases used in `deprecatedAliases` so the registry can warn. Two fields naming different tools for the same
 * lifecycle action are an error.
 */
export const sideConfigSchema = sideConfigObject
  .superRefine((side, ctx) => {
    for (const target of SESSION_FIELDS) {
      const sources = [target, ...aliasesOf(target)].filter((f) => side[f] !== undefined);
      const first = sources[0];
      if (first === undefined) continue;
      const firstName = bindingName(side[first]);
      for (const field of sources.slice(1)) {
        const name = bindingName(side[field]);
        if (name === firstName) continue;
        ctx.addIssue({
          code: "custom",
          path: [field],
          message:
            first === target
              ? `${field} (deprecated) names "${name}" but ${target} names "${firstName}": remove ${field} and keep ${target}`
              : `${first} and ${field} (both deprecated) name different tools ("${firstName}", "${name}"): ` +
                `keep one, written as ${target}`,
        });
      }
    }
  })
  .transform((side): ParsedSideConfig => {
    const out: ParsedSideConfig = { prompt: side.prompt, stopOnResponse: side.stopOnResponse, deprecatedAliases: [] };
    if (side.label !== undefined) out.label = side.label;
    if (side.stopTool !== undefined) out.stopTool = side.stopTool;
    if (side.stopToolResponseProperty !== undefined) out.stopToolResponseProperty = side.stopToolResponseProperty;
    if (side.maxSteps !== undefined) out.maxSteps = side.maxSteps;
    for (const target of SESSION_FIELDS) {
      const binding =
        side[target] ??
        aliasesOf(target)
          .map((a) => side[a])
          .find((v) => v !== undefined);
      if (binding !== undefined) out[target] = binding;
    }
    for (const alias of ALIAS_FIELDS) {
      if (side[alias] !== undefined)
        out.deprecatedAliases.push({ field: alias, replacement: SIDE_CONFIG_ALIASES[alias] });
    }
    return out;
  });

/** A side config as written in an agent file (deprecated aliases allowed). */
export type SideConfig = z.input<typeof sideConfigSchema>;
