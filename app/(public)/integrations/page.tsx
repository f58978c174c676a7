import type { Metadata } from "next";
import { IntegrationsScreen } from "@/components/channels/integrations/integrations-screen";

export const metadata: Metadata = { title: "Integrations" };

/** Public: reachable signed in and signed out (spec core §2). */
export default function IntegrationsPage() {
  return <IntegrationsScreen />;
}
