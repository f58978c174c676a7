import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";

/**
 * How long an organization keeps what its calls and texts leave behind (lib/compliance/retention). Days, an
 * integer ≥ 0: 0 keeps nothing once the call's summary is written; null keeps it forever (the
 * default, except the speech cache: RETENTION_DEFAULTS in lib/compliance/retention/schema.ts).
 */
export const retentionSettings = pgTable("retention_setting", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  recordingsDays: integer("recordings_days"),
  transcriptsDays: integer("transcripts_days"),
  textsDays: integer("texts_days"),
  audioCacheDays: integer("audio_cache_days"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text("updated_by"),
});

export const retentionKinds = ["recordings", "transcripts", "texts", "audio_cache"] as const;
export type RetentionKind = (typeof retentionKinds)[number];

/** What a retention run deleted: one row per organization, kind and run that deleted anything. */
export const retentionDeletions = pgTable(
  "retention_deletion",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: retentionKinds }).notNull(),
    count: integer("count").notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("retention_deletion_org_deleted_idx").on(t.organizationId, t.deletedAt)],
);
