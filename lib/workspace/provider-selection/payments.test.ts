import crypto from "node:crypto";
import { closeDb, getDb } from "@/lib/platform/database";
import { providerCredentials } from "@/db/schema";
import { encryptSecret } from "@/lib/platform/crypto/secret-box";
import { env } from "@/lib/platform/env";
import { createOrganization } from "@/lib/identity/organizations/service";
import { getPaymentsProvider, getStripeWebhookSecret } from "./payments";

afterAll(() => closeDb());

it("never bills through a Stripe key an organization saved (it could settle its own purchases)", async () => {
  const db = await getDb();
  const org = await createOrganization(db, { name: "Own Stripe" });
  await db.insert(providerCredentials).values({
    id: crypto.randomUUID(),
    organizationId: org.id,
    provider: "stripe",
    ciphertext: encryptSecret(JSON.stringify({ secretKey: "sk_test_org_own", webhookSecret: "whsec_org_own" })),
    hint: "…_own",
  });
  const provider = await getPaymentsProvider(db, org.id);
  expect(provider?.name).toBe("simulated");
  expect(await getStripeWebhookSecret(db)).toBeNull();
});

it("without a Stripe key, test payments only where allowed: none at all when PAYMENTS_TEST_MODE is off", async () => {
  const db = await getDb();
  const org = await createOrganization(db, { name: "No payments" });
  const saved = env.PAYMENTS_TEST_MODE;
  env.PAYMENTS_TEST_MODE = false;
  try {
    expect(await getPaymentsProvider(db, org.id)).toBeNull();
  } finally {
    env.PAYMENTS_TEST_MODE = saved;
  }
  expect((await getPaymentsProvider(db, org.id))?.name).toBe(saved ? "simulated" : undefined);
});
