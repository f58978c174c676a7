"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { useRecaps, useRunRecap, useSaveRecapSettings, type RecapView } from "./api";
import { ReceptionistPage } from "./page-shell";
import { dateInWords, inZone } from "@/lib/receptionist/time-words";

const SECTIONS = ["answered", "missed", "spamBlocked", "newTasks", "knowledgeGaps", "bookings"] as const;
const deliveredLabel: Record<string, string> = { in_app: "in the app", email: "by e-mail", slack: "to Slack" };

function RecapCard({ recap }: { recap: RecapView }) {
  const c = recap.content;
  return (
    <Card data-testid="recap">
      <CardHeader>
        <CardTitle as="h2" className="text-lg">{dateInWords(c.date)}</CardTitle>
        <p className="text-sm text-muted-foreground">
          The 24 hours to {inZone(new Date(c.to), c.timezone)} ({c.timezone.replace(/_/g, " ")} time) · sent {recap.deliveredTo.map((d) => deliveredLabel[d] ?? d).join(", ")}
        </p>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {SECTIONS.map((key) => {
          const s = c[key];
          return (
            <section key={key} className="flex flex-col gap-1" data-testid={`recap-${key}`}>
              <Link href={s.link} className="font-medium text-primary underline underline-offset-4">
                {s.label}: <span data-testid={`recap-${key}-count`}>{s.count}</span>
              </Link>
              <ul className="flex flex-col gap-1 text-sm text-muted-foreground">
                {s.lines.map((line, i) => (
                  <li key={i}>
                    <Link href={line.link} className="underline-offset-4 hover:underline">
                      {line.text}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </CardContent>
    </Card>
  );
}

/** /recaps: the daily recaps, when they are built, and "build today's now". */
export function RecapsScreen() {
  const { data, isLoading } = useRecaps();
  const run = useRunRecap();
  const save = useSaveRecapSettings();
  const [time, setTime] = useState<string | null>(null);
  return (
    <ReceptionistPage
      title="Recaps"
      description="Every day at the time you choose: calls answered and missed, spam blocked, new tasks, knowledge gaps and bookings."
      testId="recaps"
      actions={
        <Button onClick={() => run.mutate()} disabled={run.isPending} data-testid="recap-run">
          Build today&apos;s recap now
        </Button>
      }
    >
      {data ? (
        <Card>
          <CardContent className="flex flex-col gap-4 pt-6 sm:flex-row sm:items-end">
            <div className="flex items-center gap-2">
              <Switch id="recap-enabled" checked={data.settings.enabled} onCheckedChange={(enabled) => save.mutate({ enabled })} />
              <Label htmlFor="recap-enabled">Daily recap</Label>
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor="recap-time">Time ({data.settings.timezone})</Label>
              <Input id="recap-time" type="time" className="w-36" value={time ?? data.settings.localTime} onChange={(e) => setTime(e.target.value)} />
            </div>
            <Button variant="outline" disabled={!time || time === data.settings.localTime || save.isPending} onClick={() => time && save.mutate({ localTime: time })}>
              Save time
            </Button>
          </CardContent>
        </Card>
      ) : null}
      {isLoading || !data ? (
        <Skeleton className="h-40 w-full" />
      ) : data.recaps.length === 0 ? (
        <p className="text-muted-foreground" data-testid="recaps-empty">
          No recap yet. The first one is built at {data.settings.localTime} ({data.settings.timezone}), or build it now.
        </p>
      ) : (
        <div className="flex flex-col gap-4">
          {data.recaps.map((r) => (
            <RecapCard key={r.id} recap={r} />
          ))}
        </div>
      )}
    </ReceptionistPage>
  );
}
