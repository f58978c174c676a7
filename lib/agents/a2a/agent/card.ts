import "server-only";
import { A2A_PROTOCOL_VERSION, type AgentCard } from "@a2a-js/sdk";
import { env } from "@/lib/platform/env";
import type { OrgAgentSkill } from "./skills";

/**
 * Each organization is an A2A agent (docs/a2a.md): JSON-RPC at /api/a2a/orgs/{organizationId}, its
 * card at /api/a2a/orgs/{organizationId}/.well-known/agent-card.json. URLs are built from PUBLIC_URL,
 * the address callers reach Switchboard at.
 */
export function orgAgentUrl(organizationId: string): string {
  return `${env.PUBLIC_URL.replace(/\/+$/, "")}/api/a2a/orgs/${encodeURIComponent(organizationId)}`;
}

export function orgAgentCardUrl(organizationId: string): string {
  return `${orgAgentUrl(organizationId)}/.well-known/agent-card.json`;
}

export function buildOrgAgentCard(org: { id: string; name: string }, skills: OrgAgentSkill[]): AgentCard {
  return {
    name: org.name,
    description: `The AI front desk of ${org.name}, run by Switchboard: ask the business a question (answered by its assistant from what the business has told it) or leave a message for the team.`,
    supportedInterfaces: [{ url: orgAgentUrl(org.id), protocolBinding: "JSONRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: { organization: "Switchboard", url: env.PUBLIC_URL },
    version: "1.0.0",
    documentationUrl: `${env.PUBLIC_URL.replace(/\/+$/, "")}/integrations`,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills: skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: skill.tags,
      examples: skill.examples,
      inputModes: ["text/plain", "application/json"],
      outputModes: ["text/plain"],
      securityRequirements: [],
    })),
    signatures: [],
  };
}
