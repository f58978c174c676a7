-- Credits used per organization and UTC hour (credit_usage_hour), kept by the ledger's statement
-- trigger next to credit_total, in the same transaction as each ledger write: the analytics "credits
-- used" of a range reads whole hours here instead of summing the range's usage rows.
CREATE OR REPLACE FUNCTION credit_total_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    -- Take the old rows out (an UPDATE puts the new ones back in below).
    INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
      SELECT organization_id, kind, coalesce(category, ''), -sum(amount), -sum(units), -count(*) FROM old_rows
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, kind, category) DO UPDATE
        SET amount = credit_total.amount + excluded.amount, units = credit_total.units + excluded.units, entries = credit_total.entries + excluded.entries;
    INSERT INTO credit_usage_hour (organization_id, hour, units)
      SELECT organization_id, date_trunc('hour', created_at, 'UTC'), -sum(units) FROM old_rows WHERE kind = 'usage'
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (organization_id, hour) DO UPDATE SET units = credit_usage_hour.units + excluded.units;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
      SELECT organization_id, kind, coalesce(category, ''), sum(amount), sum(units), count(*) FROM new_rows
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, kind, category) DO UPDATE
        SET amount = credit_total.amount + excluded.amount, units = credit_total.units + excluded.units, entries = credit_total.entries + excluded.entries;
    INSERT INTO credit_usage_hour (organization_id, hour, units)
      SELECT organization_id, date_trunc('hour', created_at, 'UTC'), sum(units) FROM new_rows WHERE kind = 'usage'
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (organization_id, hour) DO UPDATE SET units = credit_usage_hour.units + excluded.units;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM credit_total t USING (SELECT DISTINCT organization_id FROM old_rows) o
     WHERE t.organization_id = o.organization_id AND t.entries = 0;
    DELETE FROM credit_usage_hour h USING (SELECT DISTINCT organization_id, date_trunc('hour', created_at, 'UTC') AS hour FROM old_rows WHERE kind = 'usage') o
     WHERE h.organization_id = o.organization_id AND h.hour = o.hour AND h.units = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- What was there before.
INSERT INTO credit_usage_hour (organization_id, hour, units)
SELECT organization_id, date_trunc('hour', created_at, 'UTC'), sum(units) FROM credit_ledger WHERE kind = 'usage' GROUP BY 1, 2;
