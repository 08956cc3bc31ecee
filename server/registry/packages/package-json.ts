import { z } from "zod";

/** Folder of a package that holds its definitions (same layout as AGENTS_DIR). */
export const PACKAGE_DEFINITIONS_DIR = "agents";
/** File of a package that holds its PackedMeta. */
export const PACKED_META_FILE = "standardagent.json";

/** The part of a package.json that makes it a packed agent graph. */
export const agentPackageJsonSchema = z.object({
  name: z.string().min(1),
  version: z.string().optional(),
  standardagent: z.object({
    entryAgents: z.array(z.string().min(1)).min(1),
    definitions: z.string().default(PACKAGE_DEFINITIONS_DIR),
    meta: z.string().optional(),
  }),
});
export type AgentPackageJson = z.infer<typeof agentPackageJsonSchema>;
