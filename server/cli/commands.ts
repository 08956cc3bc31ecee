import type { ParseArgsConfig } from "node:util";
import { evalCommand, parseConcurrency } from "./eval";
import { modelsCommand } from "./models";
import { packCommand } from "./pack";
import type { CliProject, CommandOutput } from "./project";
import { publishCommand } from "./publish";
import { scaffoldCommand } from "./scaffold";
import { typesCommand } from "./types";
import { unpackCommand } from "./unpack";
import { validateCommand } from "./validate";

export interface CommandContext {
  project: CliProject;
  io: CommandOutput;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  env: NodeJS.ProcessEnv;
}

export interface Command {
  summary: string;
  usage: string;
  options?: NonNullable<ParseArgsConfig["options"]>;
  run(ctx: CommandContext): Promise<number>;
}

const dir = { dir: { type: "string" } } as const;
const packOptions = { ...dir, name: { type: "string" }, version: { type: "string" }, out: { type: "string" } } as const;
const str = (v: string | boolean | undefined) => (typeof v === "string" ? v : undefined);
const packValues = (values: CommandContext["values"]) => ({
  ...(str(values.name) ? { name: str(values.name) } : {}),
  ...(str(values.version) ? { version: str(values.version) } : {}),
  ...(str(values.out) ? { out: str(values.out) } : {}),
});

export const COMMANDS: Record<string, Command> = {
  scaffold: {
    summary: "create AGENTS_DIR's folders with an AGENTS.md reference in each",
    usage: "[--dir agents]",
    options: dir,
    run: ({ project, io }) => scaffoldCommand(project, io),
  },
  validate: {
    summary: "load the definitions and print diagnostics (exit 1 on errors)",
    usage: "[--dir agents] [--json]",
    options: { ...dir, json: { type: "boolean" } },
    run: ({ project, io, values }) => validateCommand(project, io, { json: values.json === true }),
  },
  types: {
    summary: "write a .d.ts with union types of every definition name",
    usage: "[--dir agents] [--out file.d.ts]",
    options: { ...dir, out: { type: "string" } },
    run: ({ project, io, values }) => typesCommand(project, io, { out: typeof values.out === "string" ? values.out : undefined }),
  },
  pack: {
    summary: "pack an agent and everything it reaches into an npm package folder (and a tarball)",
    usage: "<agent> [--name @scope/pkg] [--version 1.0.0] [--out folder] [--tarball]",
    options: { ...packOptions, tarball: { type: "boolean" } },
    run: ({ project, io, values, positionals, env }) => packCommand(project, io, positionals[0], { ...packValues(values), tarball: values.tarball === true }, env),
  },
  publish: {
    summary: "pack an agent and npm publish it to the configured registry",
    usage: "<agent> [--name @scope/pkg] [--version 1.0.0] [--registry URL] [--tag latest] [--dry-run]",
    options: { ...dir, name: { type: "string" }, version: { type: "string" }, registry: { type: "string" }, tag: { type: "string" }, "dry-run": { type: "boolean" } },
    run: ({ project, io, values, positionals, env }) =>
      publishCommand(project, io, positionals[0], { ...packValues(values), dryRun: values["dry-run"] === true, ...(str(values.registry) ? { registry: str(values.registry) } : {}), ...(str(values.tag) ? { tag: str(values.tag) } : {}) }, env),
  },
  eval: {
    summary: "run an eval's cases as threads, print scores and aggregates (exit 1 when a threshold is missed)",
    usage: "<name> [--model name] [--concurrency N] [--url http://localhost:3000] [--json] [--dir agents]",
    options: { ...dir, concurrency: { type: "string" }, model: { type: "string" }, url: { type: "string" }, json: { type: "boolean" } },
    run: ({ project, io, values, positionals, env }) =>
      evalCommand(project, io, positionals[0], { concurrency: parseConcurrency(str(values.concurrency)), ...(str(values.url) ? { url: str(values.url) } : {}), ...(str(values.model) ? { model: str(values.model) } : {}), json: values.json === true }, env),
  },
  models: {
    summary: "list the models a provider's endpoint offers (its key and base URL from the environment)",
    usage: "<provider> [--model <model definition>] [--dir agents] [--json]",
    options: { ...dir, model: { type: "string" }, json: { type: "boolean" } },
    run: ({ project, io, values, positionals, env }) => modelsCommand(project, io, positionals[0], { ...(str(values.model) ? { model: str(values.model) } : {}), json: values.json === true }, env),
  },
  unpack: {
    summary: "copy an installed package's definitions into AGENTS_DIR as editable files",
    usage: "<package> [--dir agents]",
    options: dir,
    run: ({ project, io, positionals }) => unpackCommand(project, io, positionals[0]),
  },
};

export function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  studio ${name} ${c.usage}\n      ${c.summary}`);
  return `Usage: studio <command> [options]\n\nCommands:\n${lines.join("\n")}`;
}
