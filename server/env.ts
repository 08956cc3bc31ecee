import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { databaseTarget, DatabaseUrlError, type DatabaseTarget } from "./db/database-url";

/**
 * All configuration of the app, read once from the process environment and validated.
 * The runtime never reads process.env: the composition root passes these values in.
 */
const bool = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const s = v.trim().toLowerCase();
      if (["1", "true", "yes", "on"].includes(s)) return true;
      if (["0", "false", "no", "off"].includes(s)) return false;
      ctx.addIssue({ code: "custom", message: `expected 1/0, true/false, yes/no or on/off, got "${v}"` });
      return z.NEVER;
    });

const int = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `expected an integer from ${min} to ${max}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const proxyUrl = optionalString.pipe(
  z
    .string()
    .regex(/^https?:\/\/[^/?#]+/i, { message: "must be a URL such as http://proxy.example.com:3128" })
    .optional(),
);
/** Comma-separated IP addresses or CIDR ranges (`10.0.0.0/8`, `::1`). */
const addressList = optionalString.superRefine((v, ctx) => {
  for (const entry of (v ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const [address, bits, extra] = entry.split("/");
    const version = isIP(address ?? "");
    const max = version === 6 ? 128 : 32;
    const prefixOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= max);
    if (!version || !prefixOk || extra !== undefined) ctx.addIssue({ code: "custom", message: `"${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8)` });
  }
});

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: int(3000, 1, 65535),
  HOST: optionalString,
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: optionalString,
  AGENTS_DIR: z.string().default("./agents"),
  /** Where thread file bytes go: `database` (the default) or `disk` (a folder, FILE_STORAGE_DIR). */
  FILE_STORAGE: z.enum(["database", "disk"], { error: "must be 'database' or 'disk'" }).default("database"),
  /** The folder of `FILE_STORAGE=disk` (default `<DATA_DIR>/files`); also read in database mode when set. */
  FILE_STORAGE_DIR: optionalString,
  WATCH_DEFINITIONS: bool(true),
  /** `npm start`: pass REST requests through Next.js's route handler instead of answering them at the HTTP front. */
  API_THROUGH_NEXT: bool(false),
  /** `npm start`: a full garbage collection once the server goes quiet after work (scripts/idle-gc.ts). */
  IDLE_GC: bool(true),
  DEFINITIONS_READONLY: bool(false),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString.pipe(z.url({ message: "must be a URL such as https://api.openai.com/v1" }).optional()),
  /** Key and endpoint of the built-in `anthropic` provider (models may name their own `apiKeyEnv` and `baseURL`). */
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalString.pipe(z.url({ message: "must be a URL such as https://api.anthropic.com" }).optional()),
  /** Key and endpoint of the built-in `google` provider (Gemini API). */
  GEMINI_API_KEY: optionalString,
  GEMINI_BASE_URL: optionalString.pipe(z.url({ message: "must be a URL such as https://generativelanguage.googleapis.com" }).optional()),
  SECRETS_KEY: optionalString,
  ADMIN_USERNAME: optionalString,
  ADMIN_PASSWORD: optionalString,
  /** Reverse proxies whose `X-Forwarded-For` names the client (rate limits, local mode); unset: none. */
  TRUSTED_PROXIES: addressList,
  /** Sign-in with OpenID Connect (authorization code + PKCE): the provider's issuer URL turns it on. */
  OIDC_ISSUER: optionalString.pipe(z.url({ message: "must be the provider's issuer URL, e.g. https://login.example.com/realms/main" }).optional()),
  OIDC_CLIENT_ID: optionalString,
  /** Unset for a public client (PKCE alone). */
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_SCOPES: z.string().default("openid profile email"),
  /** The claim that makes an account an administrator (e.g. `groups`); unset: roles are managed in the app. */
  OIDC_ADMIN_CLAIM: optionalString,
  /** The value of that claim (or one of its values, for a list) that means admin; unset: the claim must be `true`. */
  OIDC_ADMIN_VALUE: optionalString,
  /** The callback URL registered at the provider; default `<this origin>/api/auth/oidc/callback`. */
  OIDC_REDIRECT_URI: optionalString.pipe(z.url().optional()),
  /** The sign-in button's name for the provider. */
  OIDC_NAME: z.string().default("single sign-on"),
  RUNTIME_WORKERS: int(1, 0, 64),
  /**
   * SQLite: run the runtime's activations on a worker thread of the app process (its own connection to the same
   * file), so HTTP, SSE and the runtime each have an event loop (server/worker/runtime-thread.ts). Off by default.
   */
  RUNTIME_THREAD: bool(false),
  WORKER_LEASE_SECONDS: int(30, 2, 3600),
  /** `npm run worker` only: serve GET /health on this port (unset: no HTTP at all). */
  WORKER_HEALTH_PORT: int(0, 0, 65535),
  RUNTIME_CONCURRENCY: int(64, 1, 10_000),
  MAX_TOTAL_STEPS: int(250, 1, 100_000),
  /** How long a step's request may be in flight before its start is stored on its own (see ANNOUNCE_AFTER_MS). */
  STEP_ANNOUNCE_AFTER_MS: int(20, 0, 60_000),
  LLM_MAX_RETRIES: int(3, 0, 20),
  LLM_RETRY_BASE_DELAY_MS: int(500, 0, 60_000),
  LLM_TIMEOUT_MS: int(120_000, 1000, 3_600_000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** The proxy for model endpoints; each also in lower case, which wins (as in curl and undici). */
  HTTP_PROXY: proxyUrl,
  http_proxy: proxyUrl,
  HTTPS_PROXY: proxyUrl,
  https_proxy: proxyUrl,
  NO_PROXY: optionalString,
  no_proxy: optionalString,
});

export type RawEnv = z.infer<typeof envSchema>;

export interface AppConfig extends RawEnv {
  /** Absolute data folder (SQLite file, secrets key file). */
  dataDir: string;
  /** Absolute folder of the definition files. */
  agentsDir: string;
  /** The database, decided here once: its kind and effective URL (`file:<abs path>` for SQLite). */
  database: DatabaseTarget;
  /** Proxy for the model endpoints (the LLM client's transport); all unset: direct connections. */
  proxy: { httpProxy?: string; httpsProxy?: string; noProxy?: string };
  /**
   * Absolute folder of thread file bytes on disk: FILE_STORAGE_DIR, else `<dataDir>/files` with FILE_STORAGE=disk;
   * null when files live only in the database.
   */
  fileStorageDir: string | null;
}

export class ConfigError extends Error {
  readonly code = "CONFIG_ERROR";
}

/** Parse and validate configuration; every problem names the variable and what to set. */
export function loadConfig(source: Record<string, string | undefined> = process.env, cwd = process.cwd()): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new ConfigError(`Invalid configuration in the environment:\n${lines.join("\n")}`);
  }
  const raw = parsed.data;
  if (raw.OIDC_ISSUER && !raw.OIDC_CLIENT_ID) throw new ConfigError("Invalid configuration in the environment:\n  OIDC_CLIENT_ID: required with OIDC_ISSUER");
  const dataDir = path.resolve(cwd, raw.DATA_DIR);
  const agentsDir = path.resolve(cwd, raw.AGENTS_DIR);
  const database = databaseOf(raw.DATABASE_URL ?? `file:${path.join(dataDir, "app.db")}`, cwd);
  const proxy = {
    httpProxy: raw.http_proxy ?? raw.HTTP_PROXY,
    httpsProxy: raw.https_proxy ?? raw.HTTPS_PROXY,
    noProxy: raw.no_proxy ?? raw.NO_PROXY,
  };
  const fileStorageDir = raw.FILE_STORAGE_DIR
    ? path.resolve(cwd, raw.FILE_STORAGE_DIR)
    : raw.FILE_STORAGE === "disk"
      ? path.join(dataDir, "files")
      : null;
  return { ...raw, dataDir, agentsDir, database, proxy, fileStorageDir };
}

/** The database DATABASE_URL names (the SQLite file in DATA_DIR when unset); a bad URL is a configuration error. */
function databaseOf(url: string, cwd: string): DatabaseTarget {
  try {
    return databaseTarget(url, cwd);
  } catch (err) {
    if (err instanceof DatabaseUrlError) throw new ConfigError(err.message);
    throw err;
  }
}

let cached: AppConfig | undefined;
/** The process-wide configuration (parsed on first use). */
export function config(): AppConfig {
  cached ??= loadConfig();
  return cached;
}
