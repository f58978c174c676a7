"use client";

import * as React from "react";
import { Trash2 } from "lucide-react";
import { EmptyState } from "@/components/agents/agent-consoles/stat-card";
import { timeAgo } from "@/components/agents/agent-consoles/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import type { McpServiceDto } from "@/lib/agents/mcp/service";
import { HealthBadge } from "./badges";
import { useDeleteService, useServices, useSetServiceActive } from "./use-mcp";

function ServiceRow({ service, onDelete }: { service: McpServiceDto; onDelete: () => void }) {
  const setActive = useSetServiceActive();
  const offered = new Set(service.tools?.map((t) => t.name) ?? []);
  const extra = service.tools?.filter((t) => !service.methods.includes(t.name)) ?? [];
  return (
    <Card data-testid="mcp-service-row" data-service-id={service.id}>
      <CardContent className="flex flex-col gap-3 p-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="font-semibold">{service.name}</h3>
              <Badge variant="outline">v{service.version}</Badge>
              <HealthBadge service={service} />
              {service.organizationName ? <Badge variant="secondary">{service.organizationName}</Badge> : null}
            </div>
            <p className="text-sm text-muted-foreground">{service.description}</p>
            <p className="truncate font-mono text-xs text-muted-foreground" title={service.endpoint}>
              {service.endpoint}
            </p>
          </div>
          <div className="flex items-center gap-2">
            <label className="flex items-center gap-2 text-sm text-muted-foreground">
              <Switch
                checked={service.isActive}
                disabled={setActive.isPending}
                onCheckedChange={(isActive) => setActive.mutate({ id: service.id, isActive })}
                aria-label={`${service.isActive ? "Deactivate" : "Activate"} ${service.name}`}
                data-testid="mcp-service-toggle"
              />
              {service.isActive ? "Active" : "Inactive"}
            </label>
            <Button variant="ghost" size="icon" onClick={onDelete} aria-label={`Delete ${service.name}`} data-testid="mcp-service-delete">
              <Trash2 />
            </Button>
          </div>
        </div>
        <div className="grid gap-3 text-sm sm:grid-cols-2">
          <div className="flex flex-col gap-1.5">
            <p className="text-xs font-medium text-muted-foreground">Declared methods</p>
            <div className="flex flex-wrap gap-1.5">
              {service.methods.map((method) => (
                <Badge key={method} variant={service.tools === null ? "outline" : offered.has(method) ? "success" : "warning"} title={service.tools && !offered.has(method) ? "Not offered by the server at its last check" : undefined}>
                  {method}
                </Badge>
              ))}
            </div>
          </div>
          <div className="flex flex-col gap-1.5" data-testid="mcp-service-tools">
            <p className="text-xs font-medium text-muted-foreground">Tools it really offers</p>
            {service.tools === null ? (
              <p className="text-xs text-muted-foreground">Not reached yet</p>
            ) : service.tools.length === 0 ? (
              <p className="text-xs text-muted-foreground">None</p>
            ) : (
              <div className="flex flex-wrap gap-1.5">
                {service.tools.map((tool) => (
                  <Badge key={tool.name} variant="secondary" title={tool.description}>
                    {tool.name}
                  </Badge>
                ))}
              </div>
            )}
            {service.missingMethods.length ? <p className="text-xs text-warning">Missing: {service.missingMethods.join(", ")}</p> : null}
            {extra.length ? <p className="text-xs text-muted-foreground">Also offered: {extra.map((t) => t.name).join(", ")}</p> : null}
          </div>
        </div>
        <p className="text-xs text-muted-foreground">
          Last checked {timeAgo(service.lastCheckedAt)}
          {service.latencyMs !== null ? ` · ${service.latencyMs} ms` : ""}
          {service.protocolVersion ? ` · protocol ${service.protocolVersion}` : ""}
          {service.lastError ? <span className="text-destructive"> · {service.lastError}</span> : null}
        </p>
      </CardContent>
    </Card>
  );
}

export function ServicesTab({ onRegister }: { onRegister: () => void }) {
  const { data, isLoading, isError } = useServices();
  const remove = useDeleteService();
  const [deleting, setDeleting] = React.useState<McpServiceDto | null>(null);
  if (isLoading) return <Skeleton className="h-40 w-full" />;
  if (isError) return <EmptyState text="Services could not be loaded. Please try again." testId="mcp-services-error" />;
  const services = data?.services ?? [];
  return (
    <div className="flex flex-col gap-4">
      {services.length === 0 ? (
        <EmptyState text="No services registered yet" testId="mcp-services-empty">
          <Button variant="outline" onClick={onRegister}>
            Register Service
          </Button>
        </EmptyState>
      ) : (
        services.map((service) => <ServiceRow key={service.id} service={service} onDelete={() => setDeleting(service)} />)
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this service?"
        description={`${deleting?.name ?? "The service"} will be removed and the assistant will stop using its tools.`}
        confirmLabel="Delete"
        destructive
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting, { onSettled: () => setDeleting(null) });
        }}
      />
    </div>
  );
}
