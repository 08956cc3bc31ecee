import { z } from "zod";
import { Prisma } from "./generated/prisma/client";

/**
 * Persisted JSON columns are parsed on read with a zod schema (design §7), so a row written by an older version,
 * edited by hand or corrupted fails loudly with the table, row, column and the path inside the value, rather than
 * flowing on as `any`.
 */

/** Where a JSON value came from: names the table, the column and (when known) the row. */
export interface JsonColumnRef {
  model: string;
  field: string;
  id?: string;
}

export class PersistedDataError extends Error {
  readonly code = "PERSISTED_DATA_INVALID";
  constructor(
    message: string,
    readonly ref: JsonColumnRef,
    readonly issues: z.core.$ZodIssue[] = [],
  ) {
    super(message);
    this.name = "PersistedDataError";
  }
}

function where(ref: JsonColumnRef): string {
  return `${ref.model}.${ref.field}${ref.id === undefined ? "" : ` (row ${ref.id})`}`;
}

/** Parse a JSON column value (as Prisma returns it) with `schema`; throws `PersistedDataError` on a mismatch. */
export function parseJsonColumn<S extends z.ZodType>(schema: S, value: unknown, ref: JsonColumnRef): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((i) => `  ${i.path.length ? i.path.map(String).join(".") : "(value)"}: ${i.message}`)
    .join("\n");
  throw new PersistedDataError(
    `Stored JSON in ${where(ref)} does not have the expected shape:\n${problems}\n` +
      `The row was written by another version or edited by hand; fix or delete it, or migrate the data.`,
    ref,
    parsed.error.issues,
  );
}

/** Like `parseJsonColumn`, but a SQL NULL (or a JSON null) reads as `null`. */
export function parseOptionalJsonColumn<S extends z.ZodType>(
  schema: S,
  value: unknown,
  ref: JsonColumnRef,
): z.output<S> | null {
  return value === null || value === undefined ? null : parseJsonColumn(schema, value, ref);
}

/** Parse JSON text (a raw query result, or a TEXT column) with `schema`. */
export function parseJsonText<S extends z.ZodType>(schema: S, text: string, ref: JsonColumnRef): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new PersistedDataError(
      `Stored JSON in ${where(ref)} is not valid JSON (${err instanceof Error ? err.message : String(err)}).`,
      ref,
    );
  }
  return parseJsonColumn(schema, value, ref);
}

/** Any JSON value: what a JSON column accepts. */
export type JsonInput = Prisma.InputJsonValue;

/**
 * A value for a required JSON column. Drops `undefined` object members and rejects what JSON cannot hold
 * (functions, bigint, NaN, cycles) with the field name, before Prisma would fail with a less clear message.
 */
export function toJsonColumn(value: unknown, ref: JsonColumnRef): Prisma.InputJsonValue {
  return JSON.parse(toJsonText(value, ref)) as Prisma.InputJsonValue;
}

/**
 * Whether `JSON.stringify` keeps `value` as it is: no bigint, function, symbol or non-finite number anywhere (an
 * object with `toJSON`, e.g. a Date, counts as fine). A plain walk: far cheaper than a replacer, which calls back into
 * JavaScript for every value.
 */
function plainJson(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "undefined":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (value === null) return true;
      // Deeper than any stored value: a cycle, most likely; the replacer path reports it.
      if (depth > 64) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!plainJson(value[i], depth + 1)) return false;
        return true;
      }
      if (typeof (value as { toJSON?: unknown }).toJSON === "function") return true;
      for (const key in value) {
        if (Object.hasOwn(value, key) && !plainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** The JSON text of a value for a required JSON column, checked as `toJsonColumn` checks it. */
export function toJsonText(value: unknown, ref: JsonColumnRef): string {
  let text: string | undefined;
  try {
    // The common case in one native call; the replacer below only runs to name what is wrong.
    if (plainJson(value)) text = JSON.stringify(value);
    else text = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === "bigint" || typeof v === "function" || typeof v === "symbol")
        throw new TypeError(`a ${typeof v}`);
      if (typeof v === "number" && !Number.isFinite(v)) throw new TypeError(`the number ${v}`);
      return v;
    });
  } catch (err) {
    throw new PersistedDataError(
      `Cannot store ${where(ref)} as JSON: it contains ${err instanceof Error ? err.message : String(err)}.`,
      ref,
    );
  }
  if (text === undefined || text === "null") {
    throw new PersistedDataError(`Cannot store null or undefined in the required JSON column ${where(ref)}.`, ref);
  }
  return text;
}

/** Like `toJsonText` for a nullable JSON column: `null`/`undefined` become SQL NULL. */
export function toNullableJsonText(value: unknown, ref: JsonColumnRef): string | null {
  return value === null || value === undefined ? null : toJsonText(value, ref);
}

/** A value for a nullable JSON column: `null`/`undefined` become SQL NULL (`Prisma.DbNull`). */
export function toNullableJsonColumn(value: unknown, ref: JsonColumnRef): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null || value === undefined ? Prisma.DbNull : toJsonColumn(value, ref);
}
