/** Run a query over `ids` in chunks of 500 (well under both databases' parameter limits) and concatenate the results. */
export async function inChunks<T>(ids: readonly string[], run: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await run(ids.slice(i, i + 500))));
  return out;
}
