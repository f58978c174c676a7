"use client";

import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { useTasks, useUpdateTask, type TaskStatusFilter } from "./api";
import { ReceptionistPage, when } from "./page-shell";

const kindLabel = { voicemail: "Voicemail", message: "Message", callback: "Call back" } as const;

/** /tasks: what the team has to do after the assistant's calls and texts. */
export function TasksScreen() {
  const [status, setStatus] = useState<TaskStatusFilter>("open");
  const { data, isLoading } = useTasks(status);
  const update = useUpdateTask();
  const { user } = useAuth();
  return (
    <ReceptionistPage title="Tasks" description="Voicemails, messages and call-back requests from your calls and texts." testId="tasks">
      <Tabs value={status} onValueChange={(v) => setStatus(v as TaskStatusFilter)}>
        <TabsList>
          <TabsTrigger value="open" data-testid="tasks-tab-open">
            Open{data ? ` (${data.counts.open})` : ""}
          </TabsTrigger>
          <TabsTrigger value="snoozed">Snoozed{data ? ` (${data.counts.snoozed})` : ""}</TabsTrigger>
          <TabsTrigger value="done" data-testid="tasks-tab-done">
            Done{data ? ` (${data.counts.done})` : ""}
          </TabsTrigger>
          <TabsTrigger value="all">All</TabsTrigger>
        </TabsList>
        {/* The selected tab controls this panel (its aria-controls must name an element that exists). */}
        <TabsContent value={status} className="mt-6">
      {isLoading || !data ? (
        <Skeleton className="h-40 w-full" />
      ) : data.tasks.length === 0 ? (
        <p className="text-muted-foreground" data-testid="tasks-empty">
          {status === "open" ? "Nothing to do: every call and text has been followed up." : "No tasks here."}
        </p>
      ) : (
        <ul className="flex flex-col gap-3">
          {data.tasks.map((task) => (
            <li key={task.id}>
              <Card data-testid="task">
                <CardContent className="flex flex-col gap-3 pt-6 sm:flex-row sm:items-start sm:justify-between">
                  <div className="flex flex-col gap-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant="secondary">{kindLabel[task.kind]}</Badge>
                      {task.status !== "open" ? <Badge variant="outline">{task.status === "done" ? "Done" : `Snoozed until ${when(task.snoozedUntil!)}`}</Badge> : null}
                      {task.assigneeName ? <Badge variant="outline">Assigned to {task.assigneeName}</Badge> : null}
                    </div>
                    <p className="font-medium" data-testid="task-title">
                      {task.title}
                    </p>
                    {task.detail && task.detail !== task.title ? <p className="text-sm text-muted-foreground">“{task.detail}”</p> : null}
                    <p className="text-sm text-muted-foreground">
                      {task.contactName ? `${task.contactName} · ` : ""}
                      <a href={`tel:${task.contactNumber}`} className="underline-offset-4 hover:underline">
                        {task.contactNumber}
                      </a>{" "}
                      · {when(task.createdAt)}
                      {task.link ? (
                        <>
                          {" · "}
                          <Link href={task.link} className="text-primary underline underline-offset-4" data-testid="task-link">
                            {task.callId ? "Open the call" : "Open the text"}
                          </Link>
                        </>
                      ) : null}
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    {task.status !== "done" ? (
                      <Button size="sm" onClick={() => update.mutate({ id: task.id, status: "done" })} disabled={update.isPending} data-testid="task-done">
                        Done
                      </Button>
                    ) : (
                      <Button size="sm" variant="outline" onClick={() => update.mutate({ id: task.id, status: "open" })} disabled={update.isPending}>
                        Reopen
                      </Button>
                    )}
                    {task.status === "open" ? (
                      <Button size="sm" variant="outline" onClick={() => update.mutate({ id: task.id, status: "snoozed" })} disabled={update.isPending}>
                        Snooze a day
                      </Button>
                    ) : null}
                    {user && task.assigneeId !== user.id ? (
                      <Button size="sm" variant="ghost" onClick={() => update.mutate({ id: task.id, assigneeId: user.id })} disabled={update.isPending}>
                        Assign to me
                      </Button>
                    ) : null}
                  </div>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
        </TabsContent>
      </Tabs>
    </ReceptionistPage>
  );
}
