import { format } from "node:util";
import { redactText } from "./redact";
import type { SecretBox } from "./secret-box";

/** The console methods whose output is masked. */
const METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;
type Method = (typeof METHODS)[number];

interface Installed {
  boxes: Set<SecretBox>;
  originals: Record<Method, (...args: unknown[]) => void>;
}

const INSTALLED = Symbol.for("studio.consoleRedaction");
type Target = Pick<Console, Method> & { [INSTALLED]?: Installed };

/**
 * Masks secret values in everything printed through `target` (the process's console by default): tools, hooks and
 * effects are user code that may print what `state.env` gave them, and our own log lines pass through here too. The
 * values masked are every plain value `box` has sealed or opened lately (`SecretBox.revealed`), whichever thread it
 * belongs to: masking another thread's secret in a log line costs nothing, and needs no tracking of which thread's
 * code is printing. While no secret is known, arguments pass through untouched; once one is, a line is formatted as
 * the console would (`util.format`) and masked.
 *
 * Several apps in one process (tests) each add their box; the returned function takes it out again, and the console's
 * own methods come back when the last box leaves. Output written straight to `process.stdout` is not covered.
 */
export function redactConsole(box: SecretBox, target: Target = console): () => void {
  let installed = target[INSTALLED];
  if (!installed) {
    const originals = {} as Installed["originals"];
    for (const m of METHODS) originals[m] = target[m];
    const boxes = new Set<SecretBox>();
    const known = (): string[] => {
      const out: string[] = [];
      for (const b of boxes) out.push(...b.revealed());
      return out;
    };
    for (const m of METHODS) {
      target[m] = (...args: unknown[]) => {
        const secrets = known();
        if (secrets.length === 0) return originals[m].apply(target, args);
        const line = format(...args);
        const masked = redactText(line, boxes.size > 1 ? [...secrets].sort((a, b) => b.length - a.length) : secrets);
        return originals[m].call(target, masked);
      };
    }
    installed = target[INSTALLED] = { boxes, originals };
  }
  const current = installed;
  current.boxes.add(box);
  return () => {
    current.boxes.delete(box);
    if (current.boxes.size > 0 || target[INSTALLED] !== current) return;
    for (const m of METHODS) target[m] = current.originals[m];
    delete target[INSTALLED];
  };
}

/**
 * Every secret value a box installed on `target` has sealed or opened lately, longest first: what our structured log
 * (server/observability/logger.ts, which writes to stdout itself) masks as the console does. Empty when none is known.
 */
export function knownSecretValues(target: Target = console): string[] {
  const installed = target[INSTALLED];
  if (!installed) return [];
  const out: string[] = [];
  for (const b of installed.boxes) out.push(...b.revealed());
  return out.length > 1 ? out.sort((a, b) => b.length - a.length) : out;
}
