import { execFile } from "node:child_process";
import { CliError } from "./project";

export interface NpmRun {
  stdout: string;
  stderr: string;
}

/** Runs the npm client (`npm <args>`) in `cwd`; a failure becomes a CliError carrying npm's own message. */
export function runNpm(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<NpmRun> {
  return new Promise((resolve, reject) => {
    execFile("npm", args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        const detail = (stderr || stdout || error.message).trim().split("\n").slice(-12).join("\n");
        reject(new CliError(`npm ${args[0]} failed:\n${detail}`));
      } else resolve({ stdout, stderr });
    });
  });
}
