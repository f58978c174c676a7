import { Badge } from "@/components/ui/badge";
import type { McpServiceDto } from "@/lib/agents/mcp/service";
import { isChecking } from "./use-mcp";

/** healthy green, unhealthy red, unknown grey (advanced §4); "Checking…" while a check is pending. */
export function HealthBadge({ service }: { service: McpServiceDto }) {
  if (isChecking(service)) {
    return (
      <Badge variant="outline" data-testid="mcp-health" data-status="checking">
        Checking…
      </Badge>
    );
  }
  const variant = service.healthStatus === "healthy" ? "success" : service.healthStatus === "unhealthy" ? "destructive" : "secondary";
  const label = service.healthStatus === "healthy" ? "Healthy" : service.healthStatus === "unhealthy" ? "Unhealthy" : "Unknown";
  return (
    <Badge variant={variant} data-testid="mcp-health" data-status={service.healthStatus}>
      {label}
    </Badge>
  );
}
