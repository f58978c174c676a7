"use client";

import * as React from "react";
import { Activity, HeartPulse, Plug, Plus, Server } from "lucide-react";
import { StatCard } from "@/components/agents/agent-consoles/stat-card";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ConnectionsTab } from "./connections-tab";
import { HealthTab } from "./health-tab";
import { RegisterServiceDialog } from "./register-service-dialog";
import { ServicesTab } from "./services-tab";
import { useMcpHealth, useServices } from "./use-mcp";

/** MCP Management at /mcp and /mcp-management (advanced §2). */
export function McpScreen() {
  const services = useServices();
  const health = useMcpHealth();
  const [registering, setRegistering] = React.useState(false);
  const stats = services.data?.stats;
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="mcp-management">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">MCP Management</h1>
          <p className="text-muted-foreground">Model Context Protocol services your assistant can use, and the clients using Switchboard&apos;s own MCP server.</p>
        </div>
        <Button onClick={() => setRegistering(true)} data-testid="mcp-register-open">
          <Plus />
          Register Service
        </Button>
      </div>

      <section aria-label="MCP figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Services" value={stats?.totalServices} icon={Server} loading={services.isLoading} testId="mcp-stat-total" />
        <StatCard label="Active Services" value={stats?.activeServices} icon={Activity} loading={services.isLoading} testId="mcp-stat-active" />
        <StatCard label="Healthy Services" value={stats?.healthyServices} icon={HeartPulse} loading={services.isLoading} testId="mcp-stat-healthy" />
        <StatCard label="Active Connections" value={health.data?.mcp.connections} icon={Plug} loading={health.isLoading} testId="mcp-stat-connections" />
      </section>

      <Tabs defaultValue="services" className="flex flex-col gap-6">
        <TabsList className="w-full sm:w-auto">
          <TabsTrigger value="services" data-testid="mcp-tab-services">
            Services
          </TabsTrigger>
          <TabsTrigger value="connections" data-testid="mcp-tab-connections">
            Connections
          </TabsTrigger>
          <TabsTrigger value="health" data-testid="mcp-tab-health">
            Health Monitor
          </TabsTrigger>
        </TabsList>
        <TabsContent value="services">
          <ServicesTab onRegister={() => setRegistering(true)} />
        </TabsContent>
        <TabsContent value="connections">
          <ConnectionsTab />
        </TabsContent>
        <TabsContent value="health">
          <HealthTab />
        </TabsContent>
      </Tabs>

      <RegisterServiceDialog open={registering} onOpenChange={setRegistering} />
    </div>
  );
}
