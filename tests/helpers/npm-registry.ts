import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { projectRoot, waitFor } from "./test-app";

/** A real npm registry (verdaccio, a project dev dependency) on 127.0.0.1 with its own storage and one user. */
export interface NpmRegistry {
  url: string;
  /** A user config for the npm client: the registry and the user's token (pass as `npm_config_userconfig`). */
  userconfig: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** Starts verdaccio (no uplinks: it serves only what is published to it), then adds a user and writes its token. */
export async function startNpmRegistry(): Promise<NpmRegistry> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "npm-registry-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const config = path.join(dir, "config.yaml");
  fs.writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(path.join(dir, "storage"))}`,
      "auth:",
      `  htpasswd: { file: ${JSON.stringify(path.join(dir, "htpasswd"))}, max_users: 10 }`,
      "uplinks: {}",
      "packages:",
      "  '**': { access: $all, publish: $authenticated }",
      "log: { type: stdout, format: pretty, level: warn }",
      "web: { enable: false }",
      "",
    ].join("\n"),
  );
  let output = "";
  const child: ChildProcess = spawn(path.join(projectRoot, "node_modules/.bin/verdaccio"), ["--config", config, "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`verdaccio exited with code ${child.exitCode}`);
      return (await fetch(`${url}-/ping`).catch(() => null))?.ok ?? false;
    }, 90_000);
  } catch (error) {
    await stop();
    throw new Error(`verdaccio did not start: ${(error as Error).message}\n${output}`, { cause: error });
  }
  const res = await fetch(`${url}-/user/org.couchdb.user:studio-test`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "studio-test", password: "studio-test-password-1" }),
  });
  const { token } = (await res.json()) as { token?: string };
  if (!token) throw new Error(`verdaccio gave no token (${res.status})`);
  const userconfig = path.join(dir, "npmrc");
  fs.writeFileSync(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  return { url, userconfig, close: stop };
}
