/**
 * Where the machine's CPU went during one load of the black-box bench: the app's process group, the scripted model
 * server and this process (the client: its REST calls, SSE streams or bare SDK loops), against the cores × the wall
 * time. A share near 100 % says the load is bound by the machine's CPU, whoever spends it.
 */
import os from "node:os";
import { pidCpuMs } from "./black-box-app";

export interface CpuShare {
  appMs: number;
  modelMs: number;
  clientMs: number;
  wallMs: number;
  cores: number;
}

/** Starts counting now; the returned function reads what was used since. */
export function cpuMeter(appCpuMs: () => number, modelPid: number): () => CpuShare {
  const app0 = appCpuMs();
  const model0 = pidCpuMs(modelPid);
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  return () => {
    const client = process.cpuUsage(client0);
    return {
      appMs: appCpuMs() - app0,
      modelMs: pidCpuMs(modelPid) - model0,
      clientMs: (client.user + client.system) / 1000,
      wallMs: performance.now() - t0,
      cores: os.availableParallelism(),
    };
  };
}

/** The share of the machine's CPU the three used, in percent. */
export const busyPercent = (s: CpuShare): number => (100 * (s.appMs + s.modelMs + s.clientMs)) / (s.wallMs * s.cores);
