/**
 * Set `key` as the most recent entry of `map`, then drop the oldest entries beyond `max`: a Map iterates in insertion
 * order, so re-inserting on each use makes that order the least-recently-used order.
 */
export function setRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value!);
}
