import { describe, expect, it } from "vitest";
import nextConfig from "../next.config";
import { restoreNativeDate } from "./native-date";

describe("restoreNativeDate", () => {
  it("is only right while the app leaves Cache Components off (Next.js's clock extension serves nothing else)", () => {
    expect((nextConfig as { cacheComponents?: boolean }).cacheComponents).toBeFalsy();
    expect((nextConfig as { experimental?: { cacheComponents?: boolean } }).experimental?.cacheComponents).toBeFalsy();
  });

  it("puts back the Date that was global before a wrapper replaced it", () => {
    const native = Date;
    function Wrapped(this: unknown, ...args: unknown[]) {
      return new.target ? Reflect.construct(native, args, new.target) : native();
    }
    Object.defineProperties(Wrapped, Object.getOwnPropertyDescriptors(native));
    Object.defineProperty(native.prototype, "constructor", { value: Wrapped, writable: true, configurable: true });
    globalThis.Date = Wrapped as unknown as DateConstructor;
    try {
      restoreNativeDate();
      expect(globalThis.Date).toBe(native);
      expect(new Date(0).constructor).toBe(native);
      expect(typeof Date.now()).toBe("number");
    } finally {
      globalThis.Date = native;
      Object.defineProperty(native.prototype, "constructor", { value: native, writable: true, configurable: true });
    }
  });
});
