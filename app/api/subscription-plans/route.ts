import { listPlans } from "@/lib/workspace/billing/service";
import { publicRoute } from "@/lib/platform/http/route";

export const GET = publicRoute(async () => listPlans());
