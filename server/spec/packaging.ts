import { z } from "zod";

/**
 * Packaging (spec `PackedMeta`, `PackageSignature`, namespaces, `isPacked`, `belongsToPackage`,
 * `isVisibleInNamespace`). A packed agent graph is an npm package whose package.json names its entry agents under
 * `standardagent.entryAgents`; its definitions are named `packageId/name` once installed.
 */

/** The hash of a package's contents: one digest per packed file, and one over all of them. */
export const packageSignatureSchema = z.object({
  algorithm: z.literal("sha256"),
  /** sha256 (hex) of the sorted lines `<path>\t<file digest>`, one per file. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  /** Path (relative to the package folder, `/` separators) → sha256 (hex) of the file's bytes. */
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});
export type PackageSignature = z.infer<typeof packageSignatureSchema>;

const names = z.array(z.string());

/** What `standardagent.json` of a packed package holds. */
export const packedMetaSchema = z.object({
  /** The npm package name, which is also the namespace of its definitions (`@scope/pkg`). */
  packageId: z.string().min(1),
  version: z.string().min(1),
  entryAgents: z.array(z.string()).min(1),
  /** Local names of the packed definitions, per kind. */
  definitions: z.object({ agents: names, prompts: names, models: names, tools: names, hooks: names, effects: names }),
  /** Thread endpoint and controller files, relative to the definitions folder. */
  routes: names,
  /** Variables the graph declares (declarations only, never values). */
  variables: z.array(z.object({ name: z.string(), type: z.string(), required: z.boolean(), description: z.string().optional() })),
  packedAt: z.string(),
  signature: packageSignatureSchema,
});
export type PackedMeta = z.infer<typeof packedMetaSchema>;
/** The spec's alias. */
export type PackedMetadata = PackedMeta;

/** The root graph, which sees its own definitions and what installed packages export. */
export interface GlobalNamespaceContext {
  kind: "global";
}
/** A packed package's graph, which sees only its own definitions. */
export interface PackedNamespaceContext {
  kind: "packed";
  packageId: string;
}
export type NamespaceContext = GlobalNamespaceContext | PackedNamespaceContext;

/** The separator between a package id and a definition's local name. */
export const PACKAGE_NAME_SEPARATOR = "/";

/** `@scope/pkg` + `writer` → `@scope/pkg/writer`. */
export function qualifiedName(packageId: string, name: string): string {
  return `${packageId}${PACKAGE_NAME_SEPARATOR}${name}`;
}

/** True for a value carrying packed metadata (`__meta` with a signature), such as a loaded package's exports. */
export function isPacked(value: unknown): value is { __meta: PackedMeta } {
  if (typeof value !== "object" || value === null || !("__meta" in value)) return false;
  return packedMetaSchema.safeParse((value as { __meta: unknown }).__meta).success;
}

/** True when `name` is a definition of `packageId` (`@scope/pkg/writer` belongs to `@scope/pkg`). */
export function belongsToPackage(name: string, packageId: string): boolean {
  const prefix = packageId + PACKAGE_NAME_SEPARATOR;
  return name.startsWith(prefix) && name.length > prefix.length && !name.slice(prefix.length).includes(PACKAGE_NAME_SEPARATOR);
}

/**
 * Whether a definition named `name` may be referenced from `context`: the root graph sees every name (its own and
 * the packages it installs); a package sees only its own definitions, never the root's nor another package's.
 */
export function isVisibleInNamespace(name: string, context: NamespaceContext): boolean {
  return context.kind === "global" ? true : belongsToPackage(name, context.packageId);
}
