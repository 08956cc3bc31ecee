/**
 * Next.js replaces the global `Date` with a wrapper that, on every `new Date()` and `Date.now()`, asks two async-local
 * stores whether a prerender with Cache Components is observing the clock (node-environment-extensions/date.js in
 * Next.js). This app does not enable Cache Components (next.config.ts; a test holds it), so that check never finds
 * anything, while the runtime takes the time for every event, row and log record: about 1.5% of the server's main
 * thread under the black-box bench's load. The server puts the native `Date` back once Next.js has loaded.
 */
const nativeDate = Date;

/** Call once Next.js has loaded (its extensions are installed when its server module loads). */
export function restoreNativeDate(): void {
  if (process.env.__NEXT_CACHE_COMPONENTS === "true" || globalThis.Date === nativeDate) return;
  globalThis.Date = nativeDate;
  // The wrapper also made itself the prototype's constructor.
  Object.defineProperty(nativeDate.prototype, "constructor", { value: nativeDate, writable: true, configurable: true, enumerable: false });
}
