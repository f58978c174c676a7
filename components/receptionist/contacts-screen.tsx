"use client";

import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useContacts, useEraseContact, useForgetContact } from "./api";
import { ReceptionistPage, when } from "./page-shell";

/** /contacts: what the assistant remembers about each caller, and "forget" (for good). */
export function ContactsScreen() {
  const { data, isLoading } = useContacts();
  const forget = useForgetContact();
  const erase = useEraseContact();
  return (
    <ReceptionistPage
      title="Contacts"
      description="What the assistant remembers about your callers and offers on their next call. Forgetting a caller erases it for good."
      testId="contacts"
    >
      <p className="text-sm">
        <a className="underline" href="/api/compliance/erasures?format=csv" download>
          Erasure certificates (CSV)
        </a>
      </p>
      {isLoading || !data ? (
        <Skeleton className="h-40 w-full" />
      ) : data.contacts.length === 0 ? (
        <p className="text-muted-foreground">No callers yet.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {data.contacts.map((c) => (
            <li key={c.id}>
              <Card data-testid="contact">
                <CardContent className="flex flex-col gap-2 pt-6 sm:flex-row sm:items-start sm:justify-between">
                  <div className="flex flex-col gap-1 text-sm">
                    <p className="text-base font-medium">{c.forgotten ? `${c.phone} · forgotten` : `${c.name ?? "Name not given"} · ${c.phone}`}</p>
                    {c.forgotten ? (
                      <p className="text-muted-foreground">Erased on {when(c.forgottenAt!)}; nothing is remembered about this caller.</p>
                    ) : (
                      <>
                        {c.preferences.length ? <p>Said: {c.preferences.map((p) => `“${p}”`).join(", ")}</p> : null}
                        <p className="text-muted-foreground">
                          {c.pastCalls.length} recent call{c.pastCalls.length === 1 ? "" : "s"}, {c.pastTexts.length} recent text{c.pastTexts.length === 1 ? "" : "s"}, {c.openTasks.length} open task
                          {c.openTasks.length === 1 ? "" : "s"} · last seen {when(c.lastSeenAt)}
                        </p>
                      </>
                    )}
                  </div>
                  <div className="flex flex-wrap gap-2">
                    {!c.forgotten ? (
                      <Button size="sm" variant="outline" onClick={() => forget.mutate(c.id)} disabled={forget.isPending}>
                        Forget this caller
                      </Button>
                    ) : null}
                    <Button
                      size="sm"
                      variant="destructive"
                      disabled={erase.isPending}
                      onClick={() => {
                        if (window.confirm(`Erase everything naming ${c.phone}: transcripts, recordings, texts, tasks' details? This cannot be undone.`)) erase.mutate(c.id);
                      }}
                    >
                      Erase all their data
                    </Button>
                  </div>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </ReceptionistPage>
  );
}
