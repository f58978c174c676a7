"use client";

import * as React from "react";
import { Bot, Building2, Plus, Send, Wifi, WifiOff } from "lucide-react";
import { StatCard } from "@/components/agents/agent-consoles/stat-card";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { A2aAgentDto } from "@/lib/agents/a2a/service";
import { CreateAgentDialog } from "./create-agent-dialog";
import { SendMessageDialog } from "./send-message-dialog";
import { AgentsTab, ConnectionsTab, MonitorTab } from "./tabs";
import { useA2aStats, useAgents } from "./use-a2a";

/** A2A Management at /a2a and /a2a-management (advanced §2). */
export function A2aScreen() {
  const agents = useAgents();
  const stats = useA2aStats();
  const [creating, setCreating] = React.useState(false);
  const [sending, setSending] = React.useState<{ targetId: string | null } | null>(null);
  const list = agents.data?.agents ?? [];
  const s = stats.data;
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="a2a-management">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">A2A Management</h1>
          <p className="text-muted-foreground">Agent-to-agent (A2A) agents you work with, the messages you send them, and your own business&apos;s agent.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setSending({ targetId: null })} data-testid="a2a-send-open">
            <Send />
            Send Message
          </Button>
          <Button onClick={() => setCreating(true)} data-testid="a2a-create-open">
            <Plus />
            Create Agent
          </Button>
        </div>
      </div>

      <section aria-label="A2A figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total" value={s?.total} icon={Bot} loading={stats.isLoading} testId="a2a-stat-total" />
        <StatCard label="Online" value={s?.online} icon={Wifi} loading={stats.isLoading} testId="a2a-stat-online" />
        <StatCard label="Offline" value={s?.offline} icon={WifiOff} loading={stats.isLoading} testId="a2a-stat-offline" />
        <StatCard
          label="Organizations"
          value={s ? Object.keys(s.byOrganization).length : undefined}
          hint="Organizations with agents"
          icon={Building2}
          loading={stats.isLoading}
          testId="a2a-stat-organizations"
        />
      </section>

      <Tabs defaultValue="agents" className="flex flex-col gap-6">
        <TabsList className="w-full sm:w-auto">
          <TabsTrigger value="agents" data-testid="a2a-tab-agents">
            Agents
          </TabsTrigger>
          <TabsTrigger value="connections" data-testid="a2a-tab-connections">
            Connections
          </TabsTrigger>
          <TabsTrigger value="monitor" data-testid="a2a-tab-monitor">
            Monitor
          </TabsTrigger>
        </TabsList>
        <TabsContent value="agents">
          <AgentsTab agents={list} loading={agents.isLoading} onSend={(agent: A2aAgentDto) => setSending({ targetId: agent.id })} />
        </TabsContent>
        <TabsContent value="connections">
          <ConnectionsTab agents={list} />
        </TabsContent>
        <TabsContent value="monitor">
          <MonitorTab online={s?.online} />
        </TabsContent>
      </Tabs>

      <CreateAgentDialog open={creating} onOpenChange={setCreating} />
      <SendMessageDialog open={sending !== null} onOpenChange={(open) => !open && setSending(null)} agents={list} initialTargetId={sending?.targetId ?? null} />
    </div>
  );
}
