-- The ledger's sums kept as it is written (credit_total, issue 29): a statement trigger adds each
-- statement's rows per organization, kind and category in the same transaction as the ledger write,
-- so the master admin's figures read a few rows per organization instead of summing every entry.
-- Rows are added in key order, so two statements touching the same organizations lock them alike.
CREATE FUNCTION credit_total_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
      SELECT organization_id, kind, coalesce(category, ''), sum(amount), sum(units), count(*) FROM new_rows
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, kind, category) DO UPDATE
        SET amount = credit_total.amount + excluded.amount, units = credit_total.units + excluded.units, entries = credit_total.entries + excluded.entries;
  ELSE
    -- UPDATE and DELETE: take the old rows out (an UPDATE puts the new ones in too), then drop emptied totals.
    INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
      SELECT organization_id, kind, coalesce(category, ''), -sum(amount), -sum(units), -count(*) FROM old_rows
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, kind, category) DO UPDATE
        SET amount = credit_total.amount + excluded.amount, units = credit_total.units + excluded.units, entries = credit_total.entries + excluded.entries;
    IF TG_OP = 'UPDATE' THEN
      INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
        SELECT organization_id, kind, coalesce(category, ''), sum(amount), sum(units), count(*) FROM new_rows
         GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (organization_id, kind, category) DO UPDATE
          SET amount = credit_total.amount + excluded.amount, units = credit_total.units + excluded.units, entries = credit_total.entries + excluded.entries;
    END IF;
    DELETE FROM credit_total t USING (SELECT DISTINCT organization_id FROM old_rows) o
     WHERE t.organization_id = o.organization_id AND t.entries = 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER credit_ledger_total_insert AFTER INSERT ON "credit_ledger" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION credit_total_add();--> statement-breakpoint
CREATE TRIGGER credit_ledger_total_update AFTER UPDATE ON "credit_ledger" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION credit_total_add();--> statement-breakpoint
CREATE TRIGGER credit_ledger_total_delete AFTER DELETE ON "credit_ledger" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION credit_total_add();--> statement-breakpoint
-- What was there before the triggers.
INSERT INTO credit_total (organization_id, kind, category, amount, units, entries)
SELECT organization_id, kind, coalesce(category, ''), sum(amount), sum(units), count(*) FROM credit_ledger GROUP BY 1, 2, 3;
