/**
 * The integration catalogue (spec core §3), fixed in code and shared by the server and the screen.
 * `connected` is not part of it: it is per organization, from integration_connection.
 *
 * kind: how an entry connects
 * - "webhook": Switchboard POSTs signed events to a URL the user gives (Zapier, generic Webhooks);
 * - "slack":   "Add to Slack" (OAuth, a channel picker) or a Slack incoming-webhook URL; a message per
 *              missed call and the owner notices;
 * - "oauth":   connected through the one OAuth flow (lib/channels/integrations/oauth.ts) and worked by the job
 *              runner (HubSpot);
 * - "calendar": Google Calendar through the OAuth flow (or, through the API only, a pasted credential);
 *              busy times in, appointments out (docs/appointments.md);
 * - "unavailable": not built yet. The card says so and offers no Connect; it can never read "connected".
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

export type IntegrationKind = "webhook" | "slack" | "oauth" | "calendar" | "unavailable";

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


export const catalogue: readonly CatalogueEntry[] = [
  {
    slug: "slack",
    name: "Slack",
    description: "Get a message in your channel for every missed call, with the caller and the time.",
    category: "Communication",
    featured: true,
    kind: "slack",
    connectable: "Add to Slack and pick a channel, or paste a Slack incoming-webhook URL (https://hooks.slack.com/…).",
  },
  {
    slug: "notion",
    name: "Notion",
    description: "Keep call summaries and follow-ups in your team's Notion workspace.",
    category: "Productivity",
    featured: true,
    kind: "oauth",
    connectable: "Connect with Notion and pick a database: every call becomes a page with the caller, summary, action items, outcome and a link back.",
  },
  {
    slug: "hubspot",
    name: "HubSpot",
    description: "Match callers to contacts and log calls and texts on their timeline.",
    category: "CRM",
    featured: true,
    kind: "oauth",
    connectable: "Connect with HubSpot: every call, text and booking finds or creates the contact by phone number, and each call is logged on it.",
  },
  {
    slug: "google-calendar",
    name: "Google Calendar",
    description: "Let your assistant see free slots and book appointments on your calendar.",
    category: "Scheduling",
    featured: false,
    kind: "calendar",
    connectable: "Connect with Google and pick the calendar: its busy times block slots, and bookings, moves and cancellations are written to it.",
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
    kind: "oauth",
    connectable: "Connect with Airtable and pick a table: every call becomes a record with the caller, summary, action items, outcome and a link back.",
  },
  {
    slug: "gmail",
    name: "Gmail",
    description: "E-mail call summaries and voicemail transcripts to your inbox.",
    category: "Email",
    featured: false,
    kind: "oauth",
    connectable: "Connect with Google: the daily recap and the owner alerts are sent from your own Gmail address instead of the server's mail settings.",
  },
  {
    slug: "asana",
    name: "Asana",
    description: "Turn callback requests and follow-ups from calls into Asana tasks.",
    category: "Project Management",
    featured: false,
    kind: "oauth",
    connectable: "Connect with Asana and pick a project: every receptionist task becomes an Asana task, and completing it in Asana completes it here.",
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

/** The sentence a card shows when its provider has no OAuth client on this server. */
export const NOT_CONFIGURED_NOTE = "Available when your administrator configures it";

/** What GET /api/integrations answers per entry. */
export type IntegrationView = CatalogueEntry & {
  connected: boolean;
  /** Whether Connect can work on this server ("unavailable" entries and OAuth cards without a client: false). */
  available: boolean;
  /** Server settings still to set for this card (signed-in callers only), e.g. ["HUBSPOT_CLIENT_ID", …]. */
  missingSettings: string[];
  /** Connects through the OAuth flow (POST …/connect answers {authorizeUrl}). */
  oauth: boolean;
  /** The grant expired or was revoked: the card offers "Reconnect". */
  needsReconnect: boolean;
  reconnectReason: string | null;
  /** The newest delivery, so the card can say when deliveries are failing or being retried. */
  lastDelivery: DeliveryView | null;
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
export function connectedNote(entry: Pick<CatalogueEntry, "kind" | "name" | "slug">, config: Record<string, unknown>): string {
  const host = typeof config.host === "string" ? config.host : null;
  if (entry.kind === "unavailable") return `Switchboard does not send anything to ${entry.name} yet.`;
  if (entry.kind === "slack") {
    if (config.auth === "oauth") {
      const channel = typeof config.channelName === "string" ? `#${config.channelName}` : typeof config.channelId === "string" ? config.channelId : null;
      return channel ? `Posts missed calls and owner notices to ${channel}.` : "Connected. Pick the channel to post to.";
    }
    return "Posts a message for every missed call.";
  }
  if (entry.kind === "oauth") {
    const target = typeof config.targetName === "string" ? config.targetName : null;
    if (entry.slug === "notion") return target ? `Adds a page per call to ${target}.` : "Connected. Pick the database for call pages.";
    if (entry.slug === "airtable") return target ? `Adds a record per call to ${target}.` : "Connected. Pick the table for call records.";
    if (entry.slug === "gmail") return "Sends the daily recap and owner alerts from your Gmail.";
    if (entry.slug === "asana") return target ? `Adds each new task to ${target}; completing it there completes it here.` : "Connected. Pick the project for tasks.";
    return "Logs every call on the caller's contact, found or created by phone number.";
  }
  if (entry.kind === "calendar") {
    const calendarId = typeof config.calendarId === "string" ? config.calendarId : "your calendar";
    return `Reads busy times from ${calendarId} and adds each appointment to it.`;
  }
  return host ? `Sending signed events to ${host}.` : "Sending signed events.";
}
