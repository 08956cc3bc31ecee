import { z } from "zod";
import { componentLogger } from "@/server/observability/logger";

/** An error the API turns into `{error: {code, message, details?}}` with an HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Extra response headers (e.g. `Retry-After` on a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new ApiError(404, "NOT_FOUND", `${what} not found`);
export const badRequest = (message: string, details?: unknown) => new ApiError(400, "BAD_REQUEST", message, details);

/** Runtime errors carry a `code`; map them to HTTP statuses in one place (design.md §7). */
const statusByCode: Record<string, number> = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  DEFINITION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  LLM_TRANSPORT_ERROR: 502,
  NOT_CONFIGURED: 503,
  NOT_SUPPORTED: 501,
};

export function errorStatus(err: unknown): { status: number; code: string; message: string; details?: unknown } {
  if (err instanceof ApiError) return { status: err.status, code: err.code, message: err.message, details: err.details };
  if (err instanceof z.ZodError) {
    return {
      status: 400,
      code: "VALIDATION_ERROR",
      message: err.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; "),
      details: err.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    };
  }
  const code = typeof (err as { code?: unknown })?.code === "string" ? (err as { code: string }).code : undefined;
  // P2010: a raw statement failed; the driver says when it was a unique constraint, as for the query builder's P2002.
  const kind = (err as { meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } })?.meta?.driverAdapterError?.cause?.kind;
  if (code === "P2002" || (code === "P2010" && kind === "UniqueConstraintViolation")) return uniqueViolation(err);
  if (code && statusByCode[code]) {
    const e = err as Error & { details?: unknown };
    return { status: statusByCode[code], code, message: e.message, details: e.details };
  }
  return { status: 500, code: "INTERNAL", message: "Internal server error" };
}

export function errorResponse(err: unknown): Response {
  const { status, code, message, details } = errorStatus(err);
  if (status >= 500) componentLogger("api").error({ err }, "unhandled error");
  const headers = err instanceof ApiError ? err.headers : undefined;
  return Response.json({ error: details === undefined ? { code, message } : { code, message, details } }, { status, headers });
}

/**
 * A unique constraint the database enforced (Prisma's P2002, from SQLite and PostgreSQL alike): two requests raced to
 * create the same thing. The second one gets the conflict a prior existence check would have given it.
 */
function uniqueViolation(err: unknown): { status: number; code: string; message: string; details: unknown } {
  type Cause = { table?: unknown; constraint?: { fields?: unknown; index?: unknown } };
  const meta = (err as { meta?: { target?: unknown; driverAdapterError?: { cause?: Cause } } }).meta;
  const cause = meta?.driverAdapterError?.cause;
  // SQLite names the columns; PostgreSQL names the index, which Prisma calls <Model>_<field>_<field>_key.
  const index = typeof cause?.constraint?.index === "string" ? cause.constraint.index : "";
  const fromIndex = index.replace(new RegExp(`^${String(cause?.table ?? "")}_`), "").replace(/_key$/, "").replace(/^pkey$/, "id");
  const raw = meta?.target ?? cause?.constraint?.fields ?? (fromIndex ? fromIndex.split("_") : []);
  const fields = (Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : []).map((f) => String(f).replace(/^"|"$/g, ""));
  const what = fields.length > 0 ? fields.join(", ") : "a unique value";
  return {
    status: 409,
    code: "CONFLICT",
    message: `Already exists: another record has the same ${what}`,
    details: fields.map((f) => ({ path: f, message: "taken" })),
  };
}
