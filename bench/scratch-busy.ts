import { adminUrl, round1 } from "./worker-scale";
import { loopRules, startFakeServer } from "./harness";

const n = Number(process.argv[2] ?? 1);
const threads = Number(process.argv[3] ?? 200);
const fake = await startFakeServer(4402);
await fake.setScript(loopRules("ws", 3));
const r = await round1(fake, adminUrl()!, n, threads);
const steps = threads * 3;
const total = [...r.statements].filter(([k]) => !k.startsWith("~")).reduce((a, [, b]) => a + b, 0);
console.log(`workers ${n}: ${r.seconds.toFixed(2)} s, cs/step vol ${(r.switches.voluntary / steps).toFixed(2)} invol ${(r.switches.involuntary / steps).toFixed(2)}, worker CPU/step ${((r.workerCpu * 1000) / steps).toFixed(2)} ms, stmts/step ${(total / steps).toFixed(2)}`);
console.log([...r.statements].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / steps).toFixed(3)}`).join(", "));
await fake.close?.();
process.exit(0);
