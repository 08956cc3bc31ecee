import path from "node:path";
import { formatDiagnostic } from "@/server/registry";
import { loadConfig } from "@/server/env";
import { formatExperiment, type ExperimentJson, type ResultJson } from "./eval-report";
import { CliError, STUDIO_ROOT, type CliProject, type CommandOutput } from "./project";

export interface EvalOptions {
  concurrency?: number;
  /** Run every prompt on this model definition instead of its own. */
  model?: string;
  /** A running app to run the experiment on (`--url`, else STUDIO_URL); in-process when absent. */
  url?: string;
  json?: boolean;
}

export function parseConcurrency(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new CliError(`--concurrency must be a whole number from 1 to 64, not "${value}"`, 2);
  return n;
}


async function remote(base: string, name: string, body: { concurrency?: number; model?: string }, env: NodeJS.ProcessEnv): Promise<{ experiment: ExperimentJson; results: ResultJson[] }> {
  const headers: Record<string, string> = { "content-type": "application/json", ...(env.STUDIO_API_KEY ? { authorization: `Bearer ${env.STUDIO_API_KEY}` } : {}) };
  const call = async (method: string, p: string, body?: unknown) => {
    let res: Response;
    try {
      res = await fetch(new URL(p, base), { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    } catch (error) {
      throw new CliError(`Cannot reach the app at ${base}: ${(error as Error).message}. Start it (npm start) or leave out --url to run in-process.`);
    }
    const json = (await res.json().catch(() => ({}))) as { error?: { message?: string } } & Record<string, unknown>;
    if (!res.ok) throw new CliError(`${method} ${p} answered ${res.status}: ${json.error?.message ?? "no details"}`);
    return json;
  };
  const started = (await call("POST", `/api/evals/${encodeURIComponent(name)}/experiments`, body)) as { experiment: ExperimentJson };
  for (;;) {
    const got = (await call("GET", `/api/experiments/${started.experiment.id}`)) as { experiment: ExperimentJson; results: ResultJson[] };
    if (got.experiment.status !== "running") return got;
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function inProcess(project: CliProject, name: string, run: { concurrency?: number; model?: string }, env: NodeJS.ProcessEnv): Promise<{ experiment: ExperimentJson; results: ResultJson[] }> {
  // The app (database, runtime) is loaded only for this command, so the other commands start fast.
  const { createApp } = await import("@/server/worker/app");
  const { startExperiment } = await import("@/server/api/evals/run-experiment");
  const { experimentView, resultView } = await import("@/server/api/evals/views");
  const config = loadConfig({ ...env, AGENTS_DIR: project.agentsDir, WATCH_DEFINITIONS: "0", RUNTIME_WORKERS: env.RUNTIME_WORKERS && env.RUNTIME_WORKERS !== "0" ? env.RUNTIME_WORKERS : "1" }, project.root);
  const app = await createApp({ config, projectRoot: STUDIO_ROOT, processEnv: (n) => env[n] });
  try {
    const snapshot = app.registry.current();
    if (!snapshot.evals.has(name)) {
      const own = snapshot.diagnostics.filter((d) => d.kind === "evals" && d.severity === "error");
      if (own.length > 0) throw new CliError(`Eval "${name}" is not valid:\n${own.map(formatDiagnostic).join("\n")}`);
      throw new CliError(`No eval named "${name}" in ${path.relative(project.root, project.agentsDir) || "."}/evals${snapshot.evals.size ? ` (evals: ${[...snapshot.evals.keys()].join(", ")})` : ""}.`);
    }
    const { done } = await startExperiment(app, { evalName: name, ...run, createdBy: null });
    const finished = await done;
    const results = await app.queries.experiments.results(finished.id);
    return { experiment: experimentView(finished) as ExperimentJson, results: results.map(resultView) as ResultJson[] };
  } finally {
    await app.close();
  }
}

/**
 * `studio eval <name>`: runs every case of the eval as a real thread, prints per-case scores and the aggregates, and
 * exits 1 when a threshold is missed (or the experiment failed), so CI can run it. With `--url` (or STUDIO_URL) the
 * running app runs it (STUDIO_API_KEY authenticates); otherwise the runtime starts in this process on the project's
 * database (DATABASE_URL / DATA_DIR), so the experiment is visible in the app afterwards.
 */
export async function evalCommand(project: CliProject, io: CommandOutput, name: string | undefined, options: EvalOptions, env: NodeJS.ProcessEnv): Promise<number> {
  if (!name) throw new CliError("Name the eval to run: studio eval <name> (the `name` of a file in agents/evals/).", 2);
  const url = options.url ?? env.STUDIO_URL;
  const run = { ...(options.concurrency ? { concurrency: options.concurrency } : {}), ...(options.model ? { model: options.model } : {}) };
  const { experiment, results } = url ? await remote(url, name, run, env) : await inProcess(project, name, run, env);
  if (options.json) io.out(JSON.stringify({ experiment, results }, null, 2));
  else for (const line of formatExperiment(experiment, results)) io.out(line);
  if (experiment.status === "passed") return 0;
  if (experiment.status === "error") io.err(`The experiment failed to run: ${experiment.error ?? "unknown error"}`);
  return 1;
}
