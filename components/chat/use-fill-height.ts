"use client";

import { useLayoutEffect, useState, type RefObject } from "react";

/** The height that makes an element reach the bottom of the viewport from where it starts (header sizes vary). */
export function useFillHeight(ref: RefObject<HTMLElement | null>, fallback = "calc(100dvh - 4rem)"): string {
  const [height, setHeight] = useState(fallback);
  useLayoutEffect(() => {
    const update = () => {
      const el = ref.current;
      if (!el) return;
      const top = el.getBoundingClientRect().top + window.scrollY;
      setHeight(`calc(100dvh - ${Math.round(top)}px)`);
    };
    update();
    window.addEventListener("resize", update);
    const ro = new ResizeObserver(update);
    ro.observe(document.body);
    return () => {
      window.removeEventListener("resize", update);
      ro.disconnect();
    };
  }, [ref]);
  return height;
}
