import { defineTool } from "@studio/spec";
import { z } from "zod";

/** Gives the model the real date and time (models do not know today's date). */
export default defineTool({
  description:
    "Get the current date and time. Use it whenever a text needs today's date, a weekday or a time of day.",
  args: z.object({
    timezone: z
      .string()
      .optional()
      .describe("IANA time zone such as 'Europe/Paris' or 'America/New_York'. Defaults to UTC."),
  }),
  execute: async (_state, { timezone }) => {
    const zone = timezone?.trim() || "UTC";
    let formatted: string;
    try {
      formatted = new Intl.DateTimeFormat("en-GB", {
        timeZone: zone,
        dateStyle: "full",
        timeStyle: "long",
      }).format(new Date());
    } catch {
      return {
        status: "error",
        error: `Unknown time zone "${zone}". Use an IANA name such as "Europe/Paris", or omit timezone for UTC.`,
      };
    }
    return `${formatted} (${zone}); ISO ${new Date().toISOString()}`;
  },
});
