"use client";

import { RotateCw } from "lucide-react";
import { EmptyState } from "@/components/agents/agent-consoles/stat-card";
import { timeAgo } from "@/components/agents/agent-consoles/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { stackOnPhone, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { HealthBadge } from "./badges";
import { useCheckService, useMcpHealth, useServices } from "./use-mcp";

const statusVariant = { healthy: "success", degraded: "warning", unhealthy: "destructive" } as const;

export function HealthTab() {
  const health = useMcpHealth();
  const services = useServices();
  const check = useCheckService();
  if (!health.data) return <EmptyState text="Loading health data..." testId="mcp-health-loading" />;
  const { status, timestamp, mcp } = health.data;
  const active = (services.data?.services ?? []).filter((s) => s.isActive);
  return (
    <div className="flex flex-col gap-4" data-testid="mcp-health-monitor">
      <Card>
        <CardContent className="flex flex-wrap items-center gap-x-6 gap-y-2 p-5 text-sm">
          <span className="flex items-center gap-2">
            MCP status
            <Badge variant={statusVariant[status]} data-testid="mcp-health-status">
              {status[0].toUpperCase() + status.slice(1)}
            </Badge>
          </span>
          <span>
            {mcp.healthyServices} of {mcp.services} active services healthy
          </span>
          <span>{mcp.connections} connected clients</span>
          <span className="text-muted-foreground">Updated {timeAgo(timestamp)} · checked every minute</span>
        </CardContent>
      </Card>
      {active.length === 0 ? (
        <EmptyState text="No active services to monitor" testId="mcp-health-empty" />
      ) : (
        <Card className="overflow-x-auto max-md:border-0 max-md:bg-transparent max-md:shadow-none">
          <Table className={stackOnPhone} data-testid="mcp-health-table">
            <TableHeader>
              <TableRow>
                <TableHead>Service</TableHead>
                <TableHead>Health</TableHead>
                <TableHead>Latency</TableHead>
                <TableHead>Last check</TableHead>
                <TableHead>Server</TableHead>
                <TableHead />
              </TableRow>
            </TableHeader>
            <TableBody>
              {active.map((s) => (
                <TableRow key={s.id} data-testid="mcp-health-row">
                  <TableCell data-label="Service">
                    <div className="min-w-0 max-md:text-right">
                      <div className="font-medium">{s.name}</div>
                      {s.lastError ? <div className="max-w-md text-xs text-destructive">{s.lastError}</div> : null}
                    </div>
                  </TableCell>
                  <TableCell data-label="Health">
                    <HealthBadge service={s} />
                  </TableCell>
                  <TableCell data-label="Latency" className="tabular-nums">{s.latencyMs !== null ? `${s.latencyMs} ms` : "—"}</TableCell>
                  <TableCell data-label="Last check" className="whitespace-nowrap">{timeAgo(s.lastCheckedAt)}</TableCell>
                  <TableCell data-label="Server" className="text-xs text-muted-foreground">
                    <div className="max-md:text-right">
                      {s.serverInfo ? `${s.serverInfo.name} ${s.serverInfo.version}` : "—"}
                      {s.protocolVersion ? <div>{s.protocolVersion}</div> : null}
                    </div>
                  </TableCell>
                  <TableCell data-label="Check" className="text-right">
                    <Button variant="outline" size="sm" disabled={check.isPending && check.variables === s.id} onClick={() => check.mutate(s.id)}>
                      {check.isPending && check.variables === s.id ? <Spinner /> : <RotateCw />}
                      Check now
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
    </div>
  );
}
