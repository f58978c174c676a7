/**
 * Screens that are not built yet. Each renders an honest "being built" panel with one sentence, for
 * users, about what it will do. When a feature ships, its page imports the real screen instead,
 * and the entry here is deleted. Aliased routes (/admin-dashboard, /mcp-management, …) import the
 * same component as their main route.
 */
import { BeingBuilt } from "@/components/being-built";

export function CrmVoiceScreen() {
  return (
    <BeingBuilt
      feature="CRM Voice Management"
      description="Follow the CRM voice system: service status, voice calls, texts and e-mails with their sentiment, and logistics requests."
    />
  );
}

export function MasterAdminScreen() {
  return (
    <BeingBuilt
      feature="Master Admin Dashboard"
      description="System-wide management: every user's role, subscription and credits, organizations, and billing across the platform."
    />
  );
}

export function AnalyticsScreen() {
  return (
    <BeingBuilt
      feature="Analytics Dashboard"
      description="Insights over a chosen time range: call and message volume, response times, call durations, intents and sentiment."
    />
  );
}
