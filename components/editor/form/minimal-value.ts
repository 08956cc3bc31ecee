import type { z } from "zod";
import type { DocObject, DocValue } from "@/shared/editor/doc";
import { elementOf, enumOptions, shapeOf, unionOptions, unwrap } from "./zod-introspect";

const PLACEHOLDERS: Record<string, string> = { name: "NEW_VARIABLE", property: "VARIABLE_NAME", receives_messages: "side_a" };

/**
 * The smallest valid value of a schema, for "Add" buttons: required fields only, references filled with the first
 * suggestion. `suggest` gives candidates for a key.
 */
export function minimalValue(schema: z.ZodType, suggest: (key: string) => string | undefined, key = ""): DocValue {
  const u = unwrap(schema);
  switch (u.type) {
    case "object": {
      const out: DocObject = {};
      for (const [k, child] of Object.entries(shapeOf(u.schema))) {
        if (unwrap(child).optional) continue;
        out[k] = minimalValue(child, suggest, k);
      }
      return out;
    }
    case "string":
      return suggest(key) ?? PLACEHOLDERS[key] ?? "";
    case "number":
      return 1;
    case "boolean":
      return false;
    case "enum":
      return enumOptions(u.schema)[0] ?? "";
    case "array":
      return [];
    case "record":
      return {};
    case "union": {
      const first = unionOptions(u.schema)[0];
      return first ? minimalValue(first, suggest, key) : null;
    }
    default:
      return elementOf(u.schema) ? [] : null;
  }
}
