"use client";

import Link from "next/link";
import { EmptyState } from "@/components/agents/agent-consoles/stat-card";
import { timeAgo } from "@/components/agents/agent-consoles/format";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { stackOnPhone, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useConnections } from "./use-mcp";

/** Where MCP clients reach Switchboard, and how to let one in. */
export function ServerCard() {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const url = `${origin}/api/mcp/server`;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Switchboard&apos;s MCP server</CardTitle>
        <CardDescription>
          MCP clients (Claude Desktop, IDEs, your own agents) connect here with an access token from{" "}
          <Link href="/settings" className="underline underline-offset-2">
            Settings → API Keys → Access tokens
          </Link>
          , sent as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>. Its tools read your calls and texts, send texts and
          report your dashboard figures, within the token&apos;s scopes.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <code className="block rounded-md bg-muted px-3 py-2 font-mono text-xs break-all" data-testid="mcp-server-url">
          {url}
        </code>
      </CardContent>
    </Card>
  );
}

export function ConnectionsTab() {
  const { data, isLoading } = useConnections();
  const connections = data?.connections ?? [];
  return (
    <div className="flex flex-col gap-4">
      <ServerCard />
      {isLoading ? (
        <Skeleton className="h-32 w-full" />
      ) : connections.length === 0 ? (
        <EmptyState text="No active connections" testId="mcp-connections-empty" />
      ) : (
        <Card className="overflow-x-auto max-md:border-0 max-md:bg-transparent max-md:shadow-none">
          <Table className={stackOnPhone} data-testid="mcp-connections-table">
            <TableHeader>
              <TableRow>
                <TableHead>Client</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Permissions</TableHead>
                <TableHead>Token</TableHead>
                <TableHead>Last activity</TableHead>
                <TableHead className="text-right">Requests</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {connections.map((c) => (
                <TableRow key={c.id} data-testid="mcp-connection-row">
                  <TableCell data-label="Client">
                    <div className="min-w-0 max-md:text-right">
                      <div className="font-medium">{c.clientId || "Anonymous"}</div>
                      <div className="text-xs text-muted-foreground">
                        {c.clientVersion ? `v${c.clientVersion}` : ""}
                        {c.protocolVersion ? ` · ${c.protocolVersion}` : ""}
                      </div>
                    </div>
                  </TableCell>
                  <TableCell data-label="Status">
                    <Badge variant={c.connected ? "success" : "secondary"}>{c.connected ? "Connected" : "Idle"}</Badge>
                  </TableCell>
                  <TableCell data-label="Permissions">
                    <div className="flex flex-wrap gap-1 max-md:justify-end">
                      {c.permissions.map((p) => (
                        <Badge key={p} variant="outline">
                          {p}
                        </Badge>
                      ))}
                    </div>
                  </TableCell>
                  <TableCell data-label="Token" className="text-sm">{c.tokenName}</TableCell>
                  <TableCell data-label="Last activity" className="text-sm whitespace-nowrap">{timeAgo(c.lastActivity)}</TableCell>
                  <TableCell data-label="Requests" className="text-right tabular-nums">{c.requestCount}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
    </div>
  );
}
