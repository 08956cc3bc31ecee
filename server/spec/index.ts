/**
 * The Standard Agents specification in code: zod schemas, TypeScript types and `define*` helpers.
 * Browser-safe: imports only zod. Definition files import it as `@studio/spec`.
 */
export * from "./agent";
export * from "./attachment";
export * from "./define";
export * from "./deprecation";
export * from "./deprecations";
export * from "./effect";
export * from "./endpoint";
export * from "./eval";
export * from "./format-issues";
export * from "./hook";
export * from "./json";
export * from "./llm-message";
export * from "./mcp-server";
export * from "./message";
export * from "./model";
export * from "./names";
export * from "./packaging";
export * from "./parse-definition";
export * from "./prompt";
export * from "./prompt-content";
export * from "./provider";
export * from "./reasoning";
export * from "./registry-names";
export * from "./session-binding";
export * from "./shared-fields";
export * from "./side-config";
export * from "./thread-files";
export * from "./thread-state";
export * from "./tool";
export * from "./tool-entry";
export * from "./tool-result";
export * from "./unknown-keys";
export * from "./uses";
export * from "./variable";
export * from "./zod-like";
