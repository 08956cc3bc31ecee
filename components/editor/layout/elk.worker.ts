/// <reference lib="webworker" />
/** Runs ELK layouts off the main thread, so that the page stays responsive while a large graph is laid out. */
import ELK, { type ElkNode } from "elkjs/lib/elk.bundled.js";

const elk = new ELK();

self.onmessage = async (event: MessageEvent<{ id: number; graph: ElkNode }>) => {
  const { id, graph } = event.data;
  try {
    const started = performance.now();
    const result = await elk.layout(graph);
    (self as unknown as Worker).postMessage({ id, result, ms: performance.now() - started });
  } catch (error) {
    (self as unknown as Worker).postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
