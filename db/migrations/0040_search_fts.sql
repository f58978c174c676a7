-- MCP search_calls (lib/receptionist/call-history/service.ts searchCalls): the words of the searched
-- text, so a phrase whose trigrams are in every call ("reference 777": "ref", "ere", … "e 7") reads a
-- few posting entries instead of the trigram index's lists of the whole table (issue 29). The same
-- expression as call_search_trgm_idx, kept for text that starts mid-word.
CREATE INDEX IF NOT EXISTS "call_search_fts_idx" ON "call" USING gin (to_tsvector('simple'::regconfig,
  coalesce("caller_name", '') || ' ' || "from_number" || ' ' || "to_number" || ' ' || coalesce("summary", '') || ' ' || ("transcript"::text)
));
