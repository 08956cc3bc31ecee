import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { projectRoot } from "./test-app";

/** The entry point of the official example server `@modelcontextprotocol/server-everything` (from npm). */
export const everythingEntry = path.join(projectRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface EverythingHttp {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts server-everything over Streamable HTTP on `port` (a free one by default); resolves once it listens. */
export async function startEverythingHttp(port?: number): Promise<EverythingHttp> {
  if (!fs.existsSync(everythingEntry)) throw new Error(`${everythingEntry} is missing: run npm ci`);
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, [everythingEntry, "streamableHttp"], { env: { ...process.env, PORT: String(p) }, stdio: ["ignore", "ignore", "pipe"] as const });
  let stderr = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything did not start within 15 s: ${stderr}`)), 15_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/listening on port/i.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}: ${stderr}`));
    });
  });
  child.removeAllListeners("exit");
  return {
    url: `http://127.0.0.1:${p}/mcp`,
    port: p,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    },
  };
}
