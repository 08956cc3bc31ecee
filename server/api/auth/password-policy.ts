import { z } from "zod";
import common from "./common-passwords.json";

/** The shortest password accepted for an account. */
export const MIN_PASSWORD_LENGTH = 10;

const commonPasswords = new Set(common.passwords);

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.trim() === "") return "the password cannot be only spaces";
  if ([...password].length < MIN_PASSWORD_LENGTH) return `at least ${MIN_PASSWORD_LENGTH} characters`;
  if (commonPasswords.has(password.toLowerCase())) return "this password is one of the most common ones: choose another";
  return null;
}

/**
 * A new password (account creation, setup, reset): at least 10 characters, not only whitespace, and not in the list
 * of common passwords shipped with the app (`common-passwords.json`, compared case-insensitively). Sign-in itself
 * accepts whatever was set before these rules.
 */
export const newPassword = z
  .string()
  .max(1000)
  .superRefine((value, ctx) => {
    const problem = passwordProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
