"use client";

import * as React from "react";
import { Send, Trash2 } from "lucide-react";
import { EmptyState } from "@/components/agents/agent-consoles/stat-card";
import { timeAgo } from "@/components/agents/agent-consoles/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/platform/utils";
import { stackOnPhone, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { A2aMessageDto } from "@/lib/agents/a2a/messages";
import type { A2aAgentDto } from "@/lib/agents/a2a/service";
import { useA2aMessages, useAgentEndpoint, useDeleteAgent } from "./use-a2a";

function OnlineBadge({ agent }: { agent: A2aAgentDto }) {
  if (agent.endpoint && agent.lastCheckedAt === null) {
    return (
      <Badge variant="outline" data-testid="a2a-status" data-status="checking">
        Checking…
      </Badge>
    );
  }
  return (
    <Badge variant={agent.isOnline ? "success" : "secondary"} data-testid="a2a-status" data-status={agent.isOnline ? "online" : "offline"}>
      {agent.isOnline ? "Online" : "Offline"}
    </Badge>
  );
}

export function AgentsTab({ agents, loading, onSend }: { agents: A2aAgentDto[]; loading: boolean; onSend: (agent: A2aAgentDto) => void }) {
  const remove = useDeleteAgent();
  const [deleting, setDeleting] = React.useState<A2aAgentDto | null>(null);
  if (loading) return <Skeleton className="h-40 w-full" />;
  if (agents.length === 0) return <EmptyState text="No A2A agents registered yet" testId="a2a-agents-empty" />;
  return (
    <Card className="overflow-x-auto max-md:border-0 max-md:bg-transparent max-md:shadow-none">
      <Table className={stackOnPhone} data-testid="a2a-agents-table">
        <TableHeader>
          <TableRow>
            <TableHead>Agent</TableHead>
            <TableHead>Capabilities</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Last seen</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {agents.map((agent) => (
            <TableRow key={agent.id} data-testid="a2a-agent-row" data-agent-id={agent.id}>
              <TableCell data-label="Agent">
                <div className="min-w-0 max-md:text-right">
                  <div className="font-medium">{agent.name}</div>
                  <div className="font-mono text-xs text-muted-foreground" title={agent.id}>
                    {agent.id.slice(0, 8)}
                    {agent.organizationName ? ` · ${agent.organizationName}` : ""}
                  </div>
                  <div className="max-w-xs truncate text-xs text-muted-foreground" title={agent.endpoint ?? undefined}>
                    {agent.endpoint ?? "No endpoint"}
                  </div>
                  {agent.lastError && !agent.isOnline ? <div className="max-w-xs text-xs text-destructive">{agent.lastError}</div> : null}
                </div>
              </TableCell>
              <TableCell data-label="Capabilities">
                <div className="flex max-w-xs flex-wrap gap-1 max-md:justify-end">
                  {agent.capabilities.map((c) => (
                    <Badge key={c} variant="outline">
                      {c}
                    </Badge>
                  ))}
                </div>
              </TableCell>
              <TableCell data-label="Status">
                <OnlineBadge agent={agent} />
              </TableCell>
              <TableCell data-label="Last seen" className="text-sm whitespace-nowrap">{timeAgo(agent.lastSeen)}</TableCell>
              <TableCell data-label="Actions">
                <div className="flex justify-end gap-1">
                  <Button
                    variant="ghost"
                    size="icon"
                    disabled={!agent.isOnline}
                    onClick={() => onSend(agent)}
                    aria-label={`Send a message to ${agent.name}`}
                    title={agent.isOnline ? "Send a message" : "Offline: messages can only be sent to online agents"}
                    data-testid="a2a-agent-send"
                  >
                    <Send />
                  </Button>
                  <Button variant="ghost" size="icon" onClick={() => setDeleting(agent)} aria-label={`Delete ${agent.name}`} data-testid="a2a-agent-delete">
                    <Trash2 />
                  </Button>
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this agent?"
        description={`${deleting?.name ?? "The agent"} and the messages sent to it will be removed.`}
        confirmLabel="Delete"
        destructive
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting, { onSettled: () => setDeleting(null) });
        }}
      />
    </Card>
  );
}

/** Only online agents (advanced §2), with what their card says. */
export function ConnectionsTab({ agents }: { agents: A2aAgentDto[] }) {
  const online = agents.filter((a) => a.isOnline);
  if (online.length === 0) return <EmptyState text="No agents are online right now" testId="a2a-connections-empty" />;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {online.map((agent) => (
        <Card key={agent.id} data-testid="a2a-connection">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              {agent.name}
              <Badge variant="success">Online</Badge>
            </CardTitle>
            <CardDescription>
              {agent.card ? `${agent.card.name} v${agent.card.version} · A2A ${agent.card.protocolVersion || "?"}${agent.card.streaming ? " · streaming" : ""}` : null}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            <code className="font-mono text-xs break-all text-muted-foreground">{agent.card?.url ?? agent.endpoint}</code>
            {agent.card?.description ? <p className="text-muted-foreground">{agent.card.description}</p> : null}
            {agent.card?.skills.length ? (
              <div className="flex flex-wrap gap-1">
                {agent.card.skills.map((s) => (
                  <Badge key={s.id} variant="outline" title={s.description}>
                    {s.name}
                  </Badge>
                ))}
              </div>
            ) : null}
            <p className="text-xs text-muted-foreground">Last seen {timeAgo(agent.lastSeen)}</p>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

const statusVariant: Record<A2aMessageDto["status"], "secondary" | "default" | "success" | "destructive"> = {
  queued: "secondary",
  delivered: "default",
  answered: "success",
  failed: "destructive",
};

function MessageRow({ message }: { message: A2aMessageDto }) {
  return (
    <TableRow data-testid="a2a-message-row" data-status={message.status}>
      <TableCell data-label="To" className="whitespace-nowrap">
        <div className="max-md:text-right">
          <div className="font-medium">{message.targetAgentName ?? message.targetAgentId.slice(0, 8)}</div>
          <div className="text-xs text-muted-foreground">{timeAgo(message.createdAt)}</div>
        </div>
      </TableCell>
      <TableCell data-label="Type">{message.type === "notify" ? "Notification" : "Request"}</TableCell>
      <TableCell data-label="Status">
        <div className="max-md:text-right">
          <Badge variant={statusVariant[message.status]}>{message.status[0].toUpperCase() + message.status.slice(1)}</Badge>
          {message.attempts > 1 ? <div className="text-xs text-muted-foreground">{message.attempts} attempts</div> : null}
        </div>
      </TableCell>
      <TableCell data-label="Payload" className="max-w-md max-md:max-w-none">
        <code className="line-clamp-2 font-mono text-xs text-muted-foreground">{JSON.stringify(message.payload)}</code>
      </TableCell>
      <TableCell data-label="Answer" className="max-w-md text-sm max-md:max-w-none" data-testid="a2a-message-answer">
        {message.answer ? (
          <div className="min-w-0 max-md:text-right">
            <p className="whitespace-pre-wrap">{message.answer.text || "(no text)"}</p>
            <p className="text-xs text-muted-foreground">
              {message.answer.kind === "task" ? `Task ${message.answer.state ?? ""}` : "Message"}
            </p>
          </div>
        ) : message.lastError ? (
          <p className="text-xs text-destructive">{message.lastError}</p>
        ) : (
          <span className="text-muted-foreground">—</span>
        )}
      </TableCell>
    </TableRow>
  );
}

/** Protocol status, this organization's own agent endpoint, the online count, and recent messages. */
export function MonitorTab({ online }: { online: number | undefined }) {
  const endpoint = useAgentEndpoint();
  const messages = useA2aMessages();
  const list = messages.data?.messages ?? [];
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Protocol</CardTitle>
          <CardDescription>Other agents reach your business at this endpoint (A2A v1.0, JSON-RPC, streaming). They can ask questions and leave messages; every exchange appears in Call History.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 text-sm sm:grid-cols-3">
          <div className="flex flex-col gap-1">
            <span className="text-xs text-muted-foreground">Status</span>
            <Badge variant="success" className="w-fit" data-testid="a2a-protocol-status">
              Active
            </Badge>
          </div>
          <div className="flex flex-col gap-1 sm:col-span-2">
            <span className="text-xs text-muted-foreground">Your agent&apos;s endpoint</span>
            <code className="font-mono text-xs break-all" data-testid="a2a-own-endpoint">
              {endpoint.data?.url ?? "…"}
            </code>
            {endpoint.data ? <span className="font-mono text-xs break-all text-muted-foreground">Card: {endpoint.data.cardUrl}</span> : null}
          </div>
          <div className="flex flex-col gap-1">
            <span className="text-xs text-muted-foreground">Agents online</span>
            <span className="text-2xl font-semibold tabular-nums" data-testid="a2a-monitor-online">
              {online ?? "—"}
            </span>
          </div>
          <div className="flex flex-col gap-1 sm:col-span-2">
            <span className="text-xs text-muted-foreground">Skills offered</span>
            <div className="flex flex-wrap gap-1">
              {(endpoint.data?.skills ?? []).map((s) => (
                <Badge key={s.id} variant="outline" title={s.description}>
                  {s.name}
                </Badge>
              ))}
            </div>
          </div>
        </CardContent>
      </Card>
      <Card className="overflow-x-auto">
        <CardHeader>
          <CardTitle>Messages sent</CardTitle>
          <CardDescription>Delivered by a background job and retried when the agent does not answer.</CardDescription>
        </CardHeader>
        {list.length === 0 ? (
          <CardContent>
            <p className="text-sm text-muted-foreground" data-testid="a2a-messages-empty">
              No messages sent yet
            </p>
          </CardContent>
        ) : (
          <Table className={cn(stackOnPhone, "max-md:px-4")} data-testid="a2a-messages-table">
            <TableHeader>
              <TableRow>
                <TableHead>To</TableHead>
                <TableHead>Type</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Payload</TableHead>
                <TableHead>Answer</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((m) => (
                <MessageRow key={m.id} message={m} />
              ))}
            </TableBody>
          </Table>
        )}
      </Card>
    </div>
  );
}
