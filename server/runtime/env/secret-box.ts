import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** AES-256-GCM encryption of secret variable values at rest. Format: `v1:<base64(iv | tag | ciphertext)>`. */
export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /**
   * The plain values this box has sealed or opened lately (the most recent `REVEALED_LIMIT`, values shorter than 4
   * characters left out as too common to mask), longest first: what console output of this process must not show.
   */
  revealed(): readonly string[];
}

/** How many plain values a box remembers for masking console output (least recently seen go first). */
export const REVEALED_LIMIT = 10_000;

export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error("The secrets key must be 32 bytes (AES-256)");
  const seen = new Set<string>();
  let sorted: string[] | null = [];
  const remember = (plain: string): string => {
    if (plain.length < 4) return plain;
    if (seen.has(plain)) {
      seen.delete(plain);
      seen.add(plain);
      return plain;
    }
    seen.add(plain);
    if (seen.size > REVEALED_LIMIT) seen.delete(seen.values().next().value!);
    sorted = null;
    return plain;
  };
  return {
    revealed: () => (sorted ??= [...seen].sort((a, b) => b.length - a.length)),
    encrypt(plain) {
      remember(plain);
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
    },
    decrypt(sealed) {
      if (!sealed.startsWith("v1:")) throw new Error("Unknown secret format");
      const raw = Buffer.from(sealed.slice(3), "base64");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return remember(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8"));
    },
  };
}

/** Parse a configured key: 64 hex characters or base64 of 32 bytes. */
export function parseSecretsKey(text: string): Uint8Array {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, "hex");
  const b = Buffer.from(t, "base64");
  if (b.length === 32) return b;
  throw new Error("SECRETS_KEY must be 32 bytes, as 64 hex characters or base64");
}
