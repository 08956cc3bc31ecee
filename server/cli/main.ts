import { parseArgs } from "node:util";
import { COMMANDS, usage } from "./commands";
import { CliError, resolveProject, type CommandOutput } from "./project";

/** Runs one `studio` command line and returns its exit code (0 ok, 1 failed, 2 bad usage). */
export async function runCli(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, io: CommandOutput): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    io.out(usage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`Unknown command "${name}".\n${usage()}`);
    return 2;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...rest], options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (error) {
    io.err(`${(error as Error).message}\nUsage: studio ${name} ${command.usage}`);
    return 2;
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const project = resolveProject(cwd, typeof values.dir === "string" ? values.dir : undefined, env);
  try {
    return await command.run({ project, io, values, positionals: parsed.positionals, env });
  } catch (error) {
    if (error instanceof CliError) {
      io.err(error.message);
      return error.exitCode;
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const io: CommandOutput = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };
  runCli(process.argv.slice(2), process.cwd(), process.env, io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
