import { z } from "zod";
import { accessTokenScopeIds } from "./scopes";

/** POST /api/settings/access-tokens: shared by the Settings form and the route. */
export const createAccessTokenInput = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(80, "Name must be at most 80 characters"),
  scopes: z
    .array(z.enum(accessTokenScopeIds, `Each scope must be one of: ${accessTokenScopeIds.join(", ")}`), { error: "Choose at least one scope" })
    .min(1, "Choose at least one scope")
    .transform((scopes) => [...new Set(scopes)]),
});

export type CreateAccessTokenInput = z.infer<typeof createAccessTokenInput>;
