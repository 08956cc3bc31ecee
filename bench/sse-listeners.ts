/**
 * Child process of scenarios 2 and 5: SSE clients kept out of the benchmarked process, so their parsing does not
 * run on (and is not starved by) the app's event loop. Commands on stdin, one per line: `open <url> <clients>`
 * subscribes that many clients and prints `ready`; `stop` closes them and prints one JSON line: per client, the
 * `[seq, type, epochMs]` of every event received, timed with `performance.timeOrigin + performance.now()`.
 */
import readline from "node:readline";
import { openSse, type SseClient } from "./sse-client";

let received: [number, string, number][][] = [];
let clients: SseClient[] = [];
for await (const line of readline.createInterface({ input: process.stdin })) {
  const [cmd, url, count] = line.trim().split(" ");
  if (cmd === "open") {
    received = [];
    clients = [];
    for (let i = 0; i < Number(count ?? 1); i++) {
      const mine: [number, string, number][] = [];
      received.push(mine);
      clients.push(openSse(url!, (data, t) => mine.push([data.seq, data.type, performance.timeOrigin + t])));
    }
    await Promise.all(clients.map((c) => c.ready));
    console.log("ready");
  } else if (cmd === "stop") {
    for (const c of clients) c.close();
    await Promise.all(clients.map((c) => c.closed));
    console.log(JSON.stringify(received));
  }
}
