import { spawn } from "node:child_process";
import path from "node:path";
import { root } from "./harness";

/**
 * A minimal SSE client of `GET /api/threads/:id/stream` over real HTTP: calls `onEvent` with the parsed data and
 * `performance.now()` at the moment the frame was parsed. `ready` resolves once the server's greeting arrived (the
 * subscription is live).
 */
export interface SseClient {
  ready: Promise<void>;
  close(): void;
  closed: Promise<void>;
}

export function openSse(url: string, onEvent: (data: any, t: number) => void): SseClient {
  const controller = new AbortController();
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  const closed = (async () => {
    try {
      const res = await fetch(url, { signal: controller.signal });
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const t = performance.now();
        buffer += decoder.decode(value, { stream: true });
        let idx: number;
        while ((idx = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, idx);
          buffer = buffer.slice(idx + 2);
          if (frame.includes(": connected")) markReady();
          const data = frame
            .split("\n")
            .filter((l) => l.startsWith("data: "))
            .map((l) => l.slice(6));
          if (data.length > 0) onEvent(JSON.parse(data.join("\n")), t);
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    } finally {
      markReady();
    }
  })();
  return { ready, closed, close: () => controller.abort() };
}

/** Epoch milliseconds with sub-millisecond resolution, comparable across processes on this machine. */
export const epochNow = () => performance.timeOrigin + performance.now();

/** SSE clients in a child process (bench/sse-listeners.ts): `open` subscribes N clients to a thread's stream. */
export async function startListeners() {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "sse-listeners.ts")], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  const waiting: ((line: string) => void)[] = [];
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    let idx: number;
    while ((idx = out.indexOf("\n")) >= 0) {
      const line = out.slice(0, idx);
      out = out.slice(idx + 1);
      waiting.shift()?.(line);
    }
  });
  const send = (cmd: string) => {
    const line = new Promise<string>((resolve) => waiting.push(resolve));
    child.stdin!.write(`${cmd}\n`);
    return line;
  };
  return {
    async open(streamUrl: string, clients: number): Promise<void> {
      if ((await send(`open ${streamUrl} ${clients}`)) !== "ready") throw new Error("sse listeners did not subscribe");
    },
    /** Closes the clients; per client: `[seq, type, epochMs]` of each event received. */
    async stop(): Promise<[number, string, number][][]> {
      return JSON.parse(await send("stop"));
    },
    close(): void {
      child.stdin!.end();
    },
  };
}
