import { z } from "zod";

/**
 * Payloads of the MCP console (advanced spec §5 "Register MCP service form"), shared by the dialog
 * and the routes. Client-safe.
 */

/** "a, b,, c" → ["a", "b", "c"]: comma-separated, trimmed, empty entries dropped (spec §5). */
export function splitList(value: string): string[] {
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * The spec's numeric organizationId (default 0) is kept for compatibility: 0, "" or null mean
 * "my organization"; a master admin may name another organization by its id.
 */
export const organizationIdField = z
  .union([z.string(), z.number()], "organizationId must be an organization id, or 0 for your own")
  .nullish()
  .transform((value) => {
    if (value === null || value === undefined || value === 0 || value === "" || value === "0") return undefined;
    return String(value).trim() || undefined;
  });

export const metadataField = z
  .record(z.string(), z.unknown(), "Metadata must be a JSON object")
  .default({})
  .refine((value) => JSON.stringify(value).length <= 10_000, "Metadata must be at most 10,000 characters of JSON");

export const httpUrlField = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(2000, `${label} must be at most 2,000 characters`)
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === "https:" || url.protocol === "http:";
      } catch {
        return false;
      }
    }, `${label} must be a full URL starting with https:// or http://`);

const methodsField = z
  .union([z.array(z.string({ error: "Each method must be text" })), z.string()], "Methods are required")
  .transform((value) => (Array.isArray(value) ? value.map((m) => m.trim()).filter(Boolean) : splitList(value)))
  .pipe(
    z
      .array(z.string().max(100, "Each method must be at most 100 characters"))
      .min(1, "At least one method is required")
      .max(100, "At most 100 methods")
      .transform((methods) => [...new Set(methods)]),
  );

export const registerServiceInput = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
  version: z.string({ error: "Version is required" }).trim().min(1, "Version is required").max(40, "Version must be at most 40 characters"),
  description: z
    .string({ error: "Description is required" })
    .trim()
    .min(1, "Description is required")
    .max(500, "Description must be at most 500 characters"),
  endpoint: httpUrlField("Endpoint"),
  methods: methodsField,
  organizationId: organizationIdField,
  metadata: metadataField,
});

export type RegisterServiceInput = z.infer<typeof registerServiceInput>;

export const serviceStatusInput = z.object({
  isActive: z.boolean({ error: "isActive must be true or false" }),
});
