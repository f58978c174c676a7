"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, Circle, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { apiRequest } from "@/lib/platform/api-client";
import type { SetupChecklist } from "@/lib/consoles/onboarding/checklist";

export const CHECKLIST_QUERY_KEY = ["/api/onboarding/checklist"] as const;

export function useSetupChecklist() {
  return useQuery<SetupChecklist>({ queryKey: CHECKLIST_QUERY_KEY });
}

/** The new organization's next steps, computed by the server from its data, until done or dismissed. */
export function SetupChecklistCard() {
  const queryClient = useQueryClient();
  const { data } = useSetupChecklist();
  const dismiss = useMutation<SetupChecklist>({
    mutationFn: async () => (await apiRequest("POST", "/api/onboarding/checklist/dismiss")).json(),
    onSuccess: (next) => queryClient.setQueryData(CHECKLIST_QUERY_KEY, next),
  });
  if (!data?.show) return null;
  return (
    <Card data-testid="setup-checklist">
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <CardTitle as="h2">Set up your phone desk</CardTitle>
          <CardDescription data-testid="setup-checklist-progress">
            {data.completed} of {data.total} done
          </CardDescription>
        </div>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => dismiss.mutate()}
          disabled={dismiss.isPending}
          data-testid="setup-checklist-dismiss"
        >
          <X aria-hidden />
          Dismiss
        </Button>
      </CardHeader>
      <CardContent>
        <ol className="flex flex-col gap-2">
          {data.steps.map((step) => (
            <li key={step.id} className="flex items-start gap-3" data-testid={`setup-step-${step.id}`} data-done={step.done}>
              {step.done ? (
                <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
              ) : (
                <Circle className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
              )}
              <div className="flex min-w-0 flex-col">
                {step.done ? (
                  <span className="text-sm text-muted-foreground line-through">
                    {step.label}
                    <span className="sr-only"> (done)</span>
                  </span>
                ) : (
                  <Link href={step.href} className="text-sm font-medium text-primary underline underline-offset-4">
                    {step.label}
                  </Link>
                )}
                {step.done ? null : <span className="text-xs text-muted-foreground">{step.description}</span>}
              </div>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
