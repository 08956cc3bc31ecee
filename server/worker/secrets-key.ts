import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseSecretsKey } from "@/server/runtime/env/secret-box";

/**
 * The key that encrypts secret variables: `SECRETS_KEY` when set, else `<DATA_DIR>/secrets.key`, created on first
 * start with 32 random bytes (mode 0600). Losing the key file makes stored secrets unreadable: back it up with the data.
 */
export function loadSecretsKey(configured: string | undefined, dataDir: string): Uint8Array {
  if (configured) return parseSecretsKey(configured);
  const file = path.join(dataDir, "secrets.key");
  if (fs.existsSync(file)) return parseSecretsKey(fs.readFileSync(file, "utf8"));
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    fs.writeFileSync(file, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return parseSecretsKey(fs.readFileSync(file, "utf8"));
    throw err;
  }
}
