import { createHash } from "node:crypto";
import type { PackageSignature } from "@/server/spec";

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** The signature of a set of files (path → bytes): a digest per file and one over the sorted `path\tdigest` lines. */
export function signFiles(files: ReadonlyMap<string, string | Uint8Array>): PackageSignature {
  const digests: Record<string, string> = {};
  for (const file of [...files.keys()].sort()) digests[file] = sha256(files.get(file)!);
  const lines = Object.entries(digests).map(([file, digest]) => `${file}\t${digest}`);
  return { algorithm: "sha256", digest: sha256(lines.join("\n")), files: digests };
}

/** The files whose bytes differ from the signature, or that it lists but are missing, or that it does not list. */
export function verifySignature(signature: PackageSignature, files: ReadonlyMap<string, string | Uint8Array>): string[] {
  const fresh = signFiles(files);
  const names = new Set([...Object.keys(signature.files), ...Object.keys(fresh.files)]);
  return [...names].filter((n) => signature.files[n] !== fresh.files[n]).sort();
}
