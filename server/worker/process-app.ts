/**
 * The process-wide app's slot on `globalThis` (`getApp` in app.ts fills it), shared by the Next.js bundle and the
 * scripts that start it, which load the sources apart: this module imports nothing.
 */
export const processAppKey = Symbol.for("standard-agents-studio.app");

/** Close the process's app if one was created (within `timeoutMs`): its runtime thread ends cleanly. */
export async function closeProcessApp(timeoutMs: number): Promise<void> {
  const app = (globalThis as { [processAppKey]?: Promise<{ close(): Promise<void> }> })[processAppKey];
  if (!app) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    app.then((a) => a.close()).catch((err: unknown) => console.error("[start] closing the app failed:", err)),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]);
  clearTimeout(timer);
}
