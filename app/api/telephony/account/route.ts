import { authedRoute } from "@/lib/identity/http/route";
import { getTelephonyAccount } from "@/lib/phone/telephony/account";

/** GET /api/telephony/account — the organization's carrier account and webhook URLs (docs/telephony.md). */
export const GET = authedRoute({ permission: "phone_numbers.write" }, async (_req, { db, ctx }) => getTelephonyAccount(db, ctx.organizationId));
