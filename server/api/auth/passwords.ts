import { scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";

/**
 * Passwords are hashed with Argon2id (`@node-rs/argon2`: the Rust `argon2` crate, prebuilt for every platform in npm
 * packages), memory-hard at 19 MiB, 2 passes (the OWASP baseline). Hashes are self-describing PHC strings
 * (`$argon2id$v=19$m=…`). Hashes made by earlier versions with node:crypto scrypt (`scrypt$N$r$p$salt$hash`) still
 * verify, and are replaced with Argon2id on the next successful sign-in (`needsRehash`).
 */
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export async function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, ARGON2);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith("$argon2")) {
    try {
      return await argon2Verify(stored, password);
    } catch {
      return false;
    }
  }
  if (stored.startsWith("scrypt$")) return verifyLegacyScrypt(password, stored);
  return false;
}

/** True when the stored hash is not Argon2id with the current parameters. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(`$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}$`);
}

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, opts: object) => Promise<Buffer>;

async function verifyLegacyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, hash] = stored.split("$");
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024 });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
