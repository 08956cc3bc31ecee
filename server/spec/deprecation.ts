/** A deprecated field found in a definition, with the field that replaces it. */
export interface DeprecatedAlias {
  /** Dotted path of the deprecated field, relative to the object that holds the list (e.g. `failSessionTool`). */
  field: string;
  /** The field to use instead (e.g. `sessionFail`). */
  replacement: string;
}

/** Human-readable warning for a deprecated field, e.g. "`failSessionTool` is deprecated: use `sessionFail`". */
export function deprecationMessage(alias: DeprecatedAlias): string {
  return `\`${alias.field}\` is deprecated: use \`${alias.replacement}\` instead`;
}

/** Prefixes each alias's field path with `prefix` (e.g. `sideA`). */
export function prefixAliases(prefix: string, aliases: readonly DeprecatedAlias[]): DeprecatedAlias[] {
  return aliases.map((a) => ({ field: prefix ? `${prefix}.${a.field}` : a.field, replacement: a.replacement }));
}
