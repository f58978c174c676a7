import { assistantOptions } from "@/lib/assistants/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "assistants.read" }, async () => assistantOptions());
