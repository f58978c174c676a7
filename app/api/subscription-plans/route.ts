import { listPlans } from "@/lib/billing/service";
import { publicRoute } from "@/lib/http/route";

export const GET = publicRoute(async () => listPlans());
