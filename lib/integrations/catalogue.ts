/**
 * The integration catalogue (spec core §3), fixed in code and shared by the server and the screen.
 * `connected` is not part of it: it is per organization, from integration_connection.
 *
 * kind: how an entry connects
 * - "webhook": Switchboard POSTs signed events to a URL the user gives (Zapier, generic Webhooks);
 * - "slack":   a Slack incoming-webhook URL that receives a message per missed call;
 * - "flag":    recorded as connected only: Switchboard sends nothing to it yet, and the card and the
 *              connect dialog say so in those words.
 * - "calendar": Google Calendar with a calendar id and an OAuth credential the owner pastes (checked
 *              with a free/busy query on connect); busy times in, appointments out (docs/appointments.md).
 */
export const integrationCategories = [
  "Communication",
  "Productivity",
  "CRM",
  "Scheduling",
  "Automation",
  "Database",
  "Email",
  "Project Management",
] as const;
export type IntegrationCategory = (typeof integrationCategories)[number];

export type IntegrationKind = "webhook" | "slack" | "flag" | "calendar";

export type CatalogueEntry = {
  slug: string;
  name: string;
  description: string;
  category: IntegrationCategory;
  featured: boolean;
  kind: IntegrationKind;
  /** One sentence on how connecting works, shown on the card and in the connect dialog. */
  connectable: string;
};

/** What connecting a "flag" entry does today, said plainly: it only marks the tool as one the team uses. */
const FLAG_NOTE = "Connecting marks it as a tool your team uses. Switchboard does not send anything to it yet.";

export const catalogue: readonly CatalogueEntry[] = [
  {
    slug: "slack",
    name: "Slack",
    description: "Get a message in your channel for every missed call, with the caller and the time.",
    category: "Communication",
    featured: true,
    kind: "slack",
    connectable: "Paste a Slack incoming-webhook URL (https://hooks.slack.com/…).",
  },
  {
    slug: "notion",
    name: "Notion",
    description: "Keep call summaries and follow-ups in your team's Notion workspace.",
    category: "Productivity",
    featured: true,
    kind: "flag",
    connectable: FLAG_NOTE,
  },
  {
    slug: "hubspot",
    name: "HubSpot",
    description: "Match callers to contacts and log calls and texts on their timeline.",
    category: "CRM",
    featured: true,
    kind: "flag",
    connectable: FLAG_NOTE,
  },
  {
    slug: "google-calendar",
    name: "Google Calendar",
    description: "Let your assistant see free slots and book appointments on your calendar.",
    category: "Scheduling",
    featured: false,
    kind: "calendar",
    connectable:
      "Give the calendar's ID and an OAuth access token, or a refresh token with its OAuth client ID and secret (scope calendar). Switchboard checks them with a free/busy query.",
  },
  {
    slug: "zapier",
    name: "Zapier",
    description: "Send calls, texts and voicemails to thousands of apps with a Zapier catch hook.",
    category: "Automation",
    featured: true,
    kind: "webhook",
    connectable: "Paste your Zapier catch-hook URL; events arrive signed with HMAC-SHA256.",
  },
  {
    slug: "airtable",
    name: "Airtable",
    description: "Collect callers, intents and outcomes in an Airtable base.",
    category: "Database",
    featured: false,
    kind: "flag",
    connectable: FLAG_NOTE,
  },
  {
    slug: "gmail",
    name: "Gmail",
    description: "E-mail call summaries and voicemail transcripts to your inbox.",
    category: "Email",
    featured: false,
    kind: "flag",
    connectable: FLAG_NOTE,
  },
  {
    slug: "asana",
    name: "Asana",
    description: "Turn callback requests and follow-ups from calls into Asana tasks.",
    category: "Project Management",
    featured: false,
    kind: "flag",
    connectable: FLAG_NOTE,
  },
  {
    slug: "webhooks",
    name: "Webhooks",
    description: "POST call.completed, message.received and voicemail.received events to your own endpoint.",
    category: "Automation",
    featured: false,
    kind: "webhook",
    connectable: "Give an https:// (or http://) URL; each event is signed with HMAC-SHA256 and retried with backoff.",
  },
];

export function findCatalogueEntry(slug: string): CatalogueEntry | undefined {
  return catalogue.find((entry) => entry.slug === slug);
}

/** Events Switchboard sends to webhook connections (test.ping only from "Send test event"). */
export const webhookEvents = ["call.completed", "message.received", "voicemail.received"] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

/** What GET /api/integrations answers per entry. */
export type IntegrationView = CatalogueEntry & {
  connected: boolean;
  /** Non-secret settings, e.g. {host, events} for webhooks, {host} for Slack. */
  config: Record<string, unknown>;
  connectedAt: string | null;
};

export type DeliveryView = {
  id: string;
  event: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
};

/** The line a connected card shows: what the connection does today. */
export function connectedNote(entry: Pick<CatalogueEntry, "kind" | "name">, config: Record<string, unknown>): string {
  const host = typeof config.host === "string" ? config.host : null;
  if (entry.kind === "flag") return `Marked as connected. Switchboard does not send anything to ${entry.name} yet.`;
  if (entry.kind === "slack") return "Posts a message for every missed call.";
  if (entry.kind === "calendar") {
    const calendarId = typeof config.calendarId === "string" ? config.calendarId : "your calendar";
    return `Reads busy times from ${calendarId} and adds each appointment to it.`;
  }
  return host ? `Sending signed events to ${host}.` : "Sending signed events.";
}
