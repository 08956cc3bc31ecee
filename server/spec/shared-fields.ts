import { z } from "zod";
import { referenceSchema } from "./names";

/** Schema of `env` maps: variable name → string value. */
export const envValuesSchema = z.record(z.string(), z.string({ error: "env values must be strings" }));

/** Schema of a list of hook ids. */
export const hookIdListSchema = z.array(referenceSchema("hook id"));

/** Schema of the deprecated `tenvs` field (a legacy raw schema of variables); kept as-is. */
export const legacyTenvsSchema = z.record(z.string(), z.unknown());

/** Schema of `providerOptions` and other free-form option records. */
export const optionsRecordSchema = z.record(z.string(), z.unknown());
