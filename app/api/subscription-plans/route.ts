import { listPlans } from "@/lib/workspace/billing/service";
import { publicRoute } from "@/lib/identity/http/route";

export const GET = publicRoute(async () => listPlans());
