CREATE TABLE "credit_total" (
	"organization_id" text NOT NULL,
	"kind" text NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"units" bigint DEFAULT 0 NOT NULL,
	"entries" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "credit_total_organization_id_kind_category_pk" PRIMARY KEY("organization_id","kind","category")
);
