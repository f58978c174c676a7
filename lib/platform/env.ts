import "server-only";
import { z } from "zod";

/**
 * Environment, validated once. Everything else reads `env`, never process.env.
 * Provider keys are optional: without them the offline providers answer (see docs/deploy.md).
 */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().url().optional().or(z.literal("").transform(() => undefined)),
  PGLITE_DATA_DIR: z.string().optional(),
  /** With PGLITE_DATA_DIR=memory://: a migrated PGlite dump to start from (the tests set it; tests/setup/pglite-template.mjs). */
  PGLITE_TEMPLATE: z.string().optional(),
  /** Connections per instance in the node-postgres pool. */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Named prepared statements on a PostgreSQL server (planned once per connection). "false" sends them
   * unnamed: for a pooler in transaction mode without prepared-statement support (PgBouncer < 1.21).
   */
  DATABASE_NAMED_STATEMENTS: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  BETTER_AUTH_SECRET: z.string().min(32).optional(),
  APP_SECRET: z.string().min(32).optional(),
  PUBLIC_URL: z.string().url().optional(),
  /** Behind a proxy that sets X-Forwarded-For itself (Vercel, a load balancer): the client address comes from it. */
  TRUST_PROXY_HEADERS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /** How many trusted proxies append to X-Forwarded-For (the client is that many entries from the right). */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  /** Seed the demo organization (with its known passwords) into an empty database. Default: only without DATABASE_URL. */
  SEED_DEMO_DATA: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true")),
  /** Settle purchases in the simulated processor when there is no STRIPE_SECRET_KEY. Default: only without DATABASE_URL. */
  PAYMENTS_TEST_MODE: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true")),
  /** The first master admin, created on start when the database has none (docs/deploy.md). */
  MASTER_ADMIN_EMAIL: z.string().email().optional(),
  MASTER_ADMIN_PASSWORD: z.string().min(12, "must be at least 12 characters").max(128, "must be at most 128 characters").optional(),
  /** Account registrations (POST /api/auth/register and /api/auth/signup) allowed per client address per hour. */
  REGISTRATIONS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  ALLOW_PRIVATE_ENDPOINTS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /** Run background jobs inside the app process (false: run `npm run worker`, or call the cron route). */
  JOBS_IN_PROCESS: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  /** How often the in-process runner looks for due jobs. */
  JOBS_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** How long the simulated carrier takes to approve a messaging registration (A2P 10DLC; docs/compliance.md). */
  SIMULATED_A2P_REVIEW_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** Bearer secret of GET/POST /api/cron/jobs (serverless hosts' scheduler). */
  CRON_SECRET: z.string().min(16).optional(),
  /**
   * Where audio bytes live (lib/platform/blob-store, docs/deploy.md): "postgres" (default; the database every
   * instance shares), "s3" (S3-compatible object storage, S3_* below) or "filesystem" (BLOB_DIR on
   * this instance's own disk: one instance only).
   */
  BLOB_STORE: z.enum(["postgres", "s3", "filesystem"]).default("postgres"),
  BLOB_DIR: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  S3_PREFIX: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  /** The Claude model for assistant replies (lib/platform/providers/llm/anthropic.ts). */
  ANTHROPIC_MODEL: z
    .string()
    .optional()
    .transform((v) => v?.trim() || "claude-haiku-5-5"),
  ELEVENLABS_API_KEY: z.string().optional(),
  /**
   * Worker threads per speech pool (offline synthesis, offline transcription); default: the
   * machine's available parallelism. instrumentation.ts hands it to lib/platform/providers/speech-pool.ts.
   */
  SPEECH_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  DEEPGRAM_API_KEY: z.string().optional(),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  /**
   * The ConversationRelay WebSocket gateway (lib/phone/telephony/relay): the port it listens on ("off": not
   * started by the app; "0": any free port, e.g. for end-to-end tests), and the wss:// URL Twilio
   * reaches it at (default: PUBLIC_URL's host on GATEWAY_PORT).
   */
  GATEWAY_PORT: z
    .string()
    .regex(/^(off|\d{1,5})$/, 'GATEWAY_PORT must be a port number or "off"')
    .optional(),
  GATEWAY_PUBLIC_URL: z.string().url().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Google Calendar's API and OAuth token endpoint (defaults: Google's own); a local fake in tests. */
  GOOGLE_CALENDAR_API_URL: z.string().url().optional(),
  GOOGLE_OAUTH_TOKEN_URL: z.string().url().optional(),
  /**
   * OAuth clients of the integrations (lib/platform/outbound/oauth-providers.ts; docs/integrations.md):
   * without a provider's client id and secret its card reads "Available when your administrator
   * configures it". `<P>_OAUTH_BASE` / `<P>_API_BASE` replace the provider's origin (tests: local fakes).
   * GOOGLE_* covers Google Calendar and Gmail.
   */
  HUBSPOT_CLIENT_ID: z.string().optional(),
  HUBSPOT_CLIENT_SECRET: z.string().optional(),
  HUBSPOT_OAUTH_BASE: z.string().url().optional(),
  HUBSPOT_API_BASE: z.string().url().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_OAUTH_BASE: z.string().url().optional(),
  GOOGLE_API_BASE: z.string().url().optional(),
  SLACK_CLIENT_ID: z.string().optional(),
  SLACK_CLIENT_SECRET: z.string().optional(),
  SLACK_OAUTH_BASE: z.string().url().optional(),
  SLACK_API_BASE: z.string().url().optional(),
  NOTION_CLIENT_ID: z.string().optional(),
  NOTION_CLIENT_SECRET: z.string().optional(),
  NOTION_OAUTH_BASE: z.string().url().optional(),
  NOTION_API_BASE: z.string().url().optional(),
  AIRTABLE_CLIENT_ID: z.string().optional(),
  AIRTABLE_CLIENT_SECRET: z.string().optional(),
  AIRTABLE_OAUTH_BASE: z.string().url().optional(),
  AIRTABLE_API_BASE: z.string().url().optional(),
  ASANA_CLIENT_ID: z.string().optional(),
  ASANA_CLIENT_SECRET: z.string().optional(),
  ASANA_OAUTH_BASE: z.string().url().optional(),
  ASANA_API_BASE: z.string().url().optional(),
  /** Outgoing e-mail (recaps, notifications): an SMTP URL, e.g. smtp://user:pass@mail.example.com:587. Without it e-mails wait in the in-app Outbox. */
  SMTP_URL: z.string().url().optional(),
  SMTP_FROM: z.string().optional(),
  /**
   * Replies to the daily recap ("done 2"): the shared secret the inbound-mail service sends as
   * `Authorization: Bearer …` to POST /api/emails/inbound (the route is off without it), and the
   * address recaps name as Reply-To (plus-addressed per recap, e.g. replies+recap-…@in.example.com).
   */
  INBOUND_EMAIL_SECRET: z.string().min(16).optional(),
  INBOUND_EMAIL_ADDRESS: z.email().optional(),
});

/** Validates an environment (process.env, or a test's) and resolves the defaults that depend on each other. */
export function loadEnv(source: Record<string, string | undefined>) {
  // An empty value (as copied from .env.example) means "not set".
  const raw = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const value = parsed.data;
  if (value.BLOB_STORE === "s3" && !value.S3_BUCKET) throw new Error("Invalid environment:\n  S3_BUCKET: required when BLOB_STORE=s3");
  // A server database means a real deployment: no demo accounts with known passwords and no free
  // "test mode" payments unless asked for. The embedded database is a local install: both on.
  const localInstall = !value.DATABASE_URL;
  const port = Number(source.PORT ?? "3000");
  return {
    ...value,
    PUBLIC_URL: value.PUBLIC_URL ?? `http://localhost:${port}`,
    /** Whether PUBLIC_URL was configured (webhook signatures are then checked against it, not the request's own URL). */
    PUBLIC_URL_SET: value.PUBLIC_URL !== undefined,
    GATEWAY_PORT: value.GATEWAY_PORT === "off" ? null : Number(value.GATEWAY_PORT ?? port + 1),
    SEED_DEMO_DATA: value.SEED_DEMO_DATA ?? localInstall,
    PAYMENTS_TEST_MODE: value.PAYMENTS_TEST_MODE ?? localInstall,
  };
}

export type Env = ReturnType<typeof loadEnv>;
export const env: Env = loadEnv(process.env);
