import "server-only";
import { env } from "@/lib/platform/env";

/**
 * The OAuth 2.0 authorization servers behind the catalogue's cards (docs/integrations.md). Client id
 * and secret come from the server's environment (`<PREFIX>_CLIENT_ID` / `_SECRET`); `<PREFIX>_OAUTH_BASE`
 * and `<PREFIX>_API_BASE` replace the origin of the provider's URLs (tests aim them at local fakes).
 */
export type OAuthProviderId = "hubspot" | "google" | "slack" | "notion" | "airtable" | "asana";

type ProviderDefinition = {
  id: OAuthProviderId;
  envPrefix: "HUBSPOT" | "GOOGLE" | "SLACK" | "NOTION" | "AIRTABLE" | "ASANA";
  authorizeUrl: string;
  tokenUrl: string;
  /** null: the provider has no revocation endpoint (the owner removes the app on the provider's side). */
  revokeUrl: string | null;
  apiBase: string;
  scopeSeparator: " " | ",";
  /** How the client authenticates at the token endpoint, and in which body format. */
  clientAuth: "body" | "basic";
  tokenFormat: "form" | "json";
  extraAuthorizeParams?: Record<string, string>;
};

const definitions: Record<OAuthProviderId, ProviderDefinition> = {
  hubspot: {
    id: "hubspot",
    envPrefix: "HUBSPOT",
    authorizeUrl: "https://app.hubspot.com/oauth/authorize",
    tokenUrl: "https://api.hubapi.com/oauth/v1/token",
    revokeUrl: "https://api.hubapi.com/oauth/v1/refresh-tokens",
    apiBase: "https://api.hubapi.com",
    scopeSeparator: " ",
    clientAuth: "body",
    tokenFormat: "form",
  },
  google: {
    id: "google",
    envPrefix: "GOOGLE",
    authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
    tokenUrl: "https://oauth2.googleapis.com/token",
    revokeUrl: "https://oauth2.googleapis.com/revoke",
    apiBase: "https://www.googleapis.com",
    scopeSeparator: " ",
    clientAuth: "body",
    tokenFormat: "form",
    // A refresh token is only issued for offline access, and again on a reconnect only with consent.
    extraAuthorizeParams: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" },
  },
  slack: {
    id: "slack",
    envPrefix: "SLACK",
    authorizeUrl: "https://slack.com/oauth/v2/authorize",
    tokenUrl: "https://slack.com/api/oauth.v2.access",
    revokeUrl: "https://slack.com/api/auth.revoke",
    apiBase: "https://slack.com",
    scopeSeparator: ",",
    clientAuth: "body",
    tokenFormat: "form",
  },
  notion: {
    id: "notion",
    envPrefix: "NOTION",
    authorizeUrl: "https://api.notion.com/v1/oauth/authorize",
    tokenUrl: "https://api.notion.com/v1/oauth/token",
    revokeUrl: "https://api.notion.com/v1/oauth/revoke",
    apiBase: "https://api.notion.com",
    scopeSeparator: " ",
    clientAuth: "basic",
    tokenFormat: "json",
    extraAuthorizeParams: { owner: "user" },
  },
  airtable: {
    id: "airtable",
    envPrefix: "AIRTABLE",
    authorizeUrl: "https://airtable.com/oauth2/v1/authorize",
    tokenUrl: "https://airtable.com/oauth2/v1/token",
    revokeUrl: null,
    apiBase: "https://api.airtable.com",
    scopeSeparator: " ",
    clientAuth: "basic",
    tokenFormat: "form",
  },
  asana: {
    id: "asana",
    envPrefix: "ASANA",
    authorizeUrl: "https://app.asana.com/-/oauth_authorize",
    tokenUrl: "https://app.asana.com/-/oauth_token",
    revokeUrl: "https://app.asana.com/-/oauth_revoke",
    apiBase: "https://app.asana.com",
    scopeSeparator: " ",
    clientAuth: "body",
    tokenFormat: "form",
  },
};

/** Which authorization server and scopes each OAuth card uses. */
export const oauthCards: Record<string, { provider: OAuthProviderId; scopes: string[] }> = {
  hubspot: { provider: "hubspot", scopes: ["oauth", "crm.objects.contacts.read", "crm.objects.contacts.write"] },
  "google-calendar": { provider: "google", scopes: ["https://www.googleapis.com/auth/calendar"] },
  gmail: { provider: "google", scopes: ["https://www.googleapis.com/auth/gmail.send"] },
  slack: { provider: "slack", scopes: ["chat:write", "channels:read", "groups:read"] },
  notion: { provider: "notion", scopes: [] },
  airtable: { provider: "airtable", scopes: ["data.records:write", "schema.bases:read"] },
  asana: { provider: "asana", scopes: ["tasks:read", "tasks:write", "projects:read"] },
};

function withOrigin(url: string, base: string | undefined): string {
  if (!base) return url;
  const original = new URL(url);
  return `${base.replace(/\/$/, "")}${original.pathname}`;
}

export type ResolvedProvider = ProviderDefinition & {
  clientId: string;
  clientSecret: string;
};

/** The settings a provider needs on this server, by name. */
export function requiredSettings(provider: OAuthProviderId): string[] {
  const prefix = definitions[provider].envPrefix;
  return [`${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`];
}

function envValue(name: string): string | undefined {
  const value = (env as unknown as Record<string, unknown>)[name];
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/** The settings still missing for a provider (empty: configured). Read at call time, so tests can set env. */
export function missingSettings(provider: OAuthProviderId): string[] {
  return requiredSettings(provider).filter((name) => !envValue(name));
}

/** The provider with this server's client and URLs, or null when its client id or secret is missing. */
export function resolveProvider(provider: OAuthProviderId): ResolvedProvider | null {
  const def = definitions[provider];
  const clientId = envValue(`${def.envPrefix}_CLIENT_ID`);
  const clientSecret = envValue(`${def.envPrefix}_CLIENT_SECRET`);
  if (!clientId || !clientSecret) return null;
  const oauthBase = envValue(`${def.envPrefix}_OAUTH_BASE`);
  const apiBase = envValue(`${def.envPrefix}_API_BASE`);
  return {
    ...def,
    clientId,
    clientSecret,
    authorizeUrl: withOrigin(def.authorizeUrl, oauthBase),
    tokenUrl: withOrigin(def.tokenUrl, oauthBase),
    revokeUrl: def.revokeUrl ? withOrigin(def.revokeUrl, oauthBase) : null,
    apiBase: (apiBase ?? def.apiBase).replace(/\/$/, ""),
  };
}

/** The redirect URL registered with every provider: one per card. */
export function redirectUri(slug: string): string {
  return `${env.PUBLIC_URL.replace(/\/$/, "")}/api/integrations/${slug}/callback`;
}
