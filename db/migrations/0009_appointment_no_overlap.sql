-- Hand-written: drizzle cannot express exclusion constraints. See docs/appointments.md.
-- Two live rows (held or confirmed) conflict when they are in the same organization, claim the same
-- resource (no resource = the business's own calendar), belong to different bookings (a hold that
-- moves an appointment may overlap that appointment), overlap in time with their buffers, and
-- overlap in claim period: a hold claims [claimed_at, hold_expires_at), a booking [claimed_at, ∞).
-- So an expired hold stops blocking by itself; correctness never waits for a cleanup job.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE "appointment" ADD CONSTRAINT "appointment_no_overlap" EXCLUDE USING gist (
  "organization_id" WITH =,
  (coalesce("resource_id", '')) WITH =,
  (coalesce("replaces_appointment_id", "id")) WITH <>,
  (tstzrange("block_start", "block_end", '[)')) WITH &&,
  (tstzrange("claimed_at", "hold_expires_at", '[)')) WITH &&
) WHERE ("status" IN ('held', 'confirmed'));
