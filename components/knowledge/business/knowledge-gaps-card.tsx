"use client";

import * as React from "react";
import { CheckCircle2, MessageCircleQuestion } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError } from "@/components/ui/field-error";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import { answerGapInput } from "@/lib/knowledge/gaps/schema";
import { SOURCE_LABELS, timeAgo } from "./format";
import { useAnswerGap, useDismissGap, useOpenKnowledgeGaps, type KnowledgeGap } from "./use-business";

/**
 * Questions the assistant could not answer from the profile (knowledge gaps), newest first. The owner
 * answers each once; the answer becomes a question-and-answer the assistant uses from the next call.
 */
export function KnowledgeGapsCard() {
  const { data, isLoading, isError } = useOpenKnowledgeGaps();
  const open = data?.items ?? [];
  return (
    <Card id="questions" className="scroll-mt-24" data-testid="knowledge-gaps">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex items-start gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-warning/15 text-warning">
            <MessageCircleQuestion className="size-4" aria-hidden />
          </span>
          <div className="flex flex-col gap-1">
            <CardTitle>Unanswered questions</CardTitle>
            <CardDescription>Callers asked these and your assistant did not know, so it said so instead of guessing. Answer once; it answers from then on.</CardDescription>
          </div>
        </div>
        {data ? (
          <Badge variant={data.counts.open ? "warning" : "success"} data-testid="knowledge-gaps-open-count">
            {data.counts.open} open
          </Badge>
        ) : null}
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="flex flex-col gap-3" aria-busy="true">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-20 w-full" />
          </div>
        ) : isError ? (
          <p role="alert" className="text-sm text-destructive">
            We couldn&apos;t load the unanswered questions.
          </p>
        ) : open.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="knowledge-gaps-empty">
            <CheckCircle2 className="size-4 text-success" aria-hidden />
            No unanswered questions{data?.counts.answered ? ` — ${data.counts.answered} answered so far` : ""}.
          </p>
        ) : (
          <ul className="flex flex-col gap-4">
            {open.map((gap) => (
              <GapItem key={gap.id} gap={gap} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function GapItem({ gap }: { gap: KnowledgeGap }) {
  const [answer, setAnswer] = React.useState("");
  const [error, setError] = React.useState<string | undefined>();
  const answerGap = useAnswerGap();
  const dismiss = useDismissGap();
  const id = `gap-${gap.id}-answer`;
  const last = gap.lastOccurrence;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = answerGapInput.safeParse({ answer });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    answerGap.mutate(
      { id: gap.id, answer: parsed.data.answer },
      {
        onSuccess: () => toast.success("Answer saved", { description: "It is now in your questions and answers; your assistant uses it from the next call." }),
        onError: (e) => {
          if (isUnauthorizedError(e)) return;
          toast.error("Failed to save the answer", { description: serverMessage(e) ?? "Please try again." });
        },
      },
    );
  };

  return (
    <li className="flex flex-col gap-3 rounded-lg border border-border p-4" data-testid="knowledge-gap">
      <div className="flex flex-col gap-1">
        <p className="font-medium" data-testid="knowledge-gap-question">
          “{gap.question}”
        </p>
        <p className="text-xs text-muted-foreground">
          Asked {gap.occurrences === 1 ? "once" : `${gap.occurrences} times`}, last {timeAgo(gap.lastAskedAt)}
          {last ? ` on ${SOURCE_LABELS[last.source] ?? last.source}${last.caller ? ` from ${last.caller}` : ""}` : ""}.
          {last?.replyText ? ` The assistant said: “${last.replyText}”` : ""}
        </p>
      </div>
      <form onSubmit={submit} noValidate className="flex flex-col gap-2">
        <Label htmlFor={id} className="sr-only">
          Your answer to “{gap.question}”
        </Label>
        <Textarea
          id={id}
          rows={2}
          value={answer}
          onChange={(e) => setAnswer(e.target.value)}
          placeholder="Your answer, as the assistant should say it"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          data-testid="knowledge-gap-answer"
        />
        <FieldError id={`${id}-error`} message={error} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" size="sm" disabled={answerGap.isPending} data-testid="knowledge-gap-save">
            {answerGap.isPending ? <Spinner /> : null}
            Save answer
          </Button>
          <Button
            type="button"
            size="sm"
            variant="ghost"
            disabled={dismiss.isPending}
            onClick={() =>
              dismiss.mutate(gap.id, {
                onSuccess: () => toast.success("Question dismissed", { description: "It is no longer in your list." }),
                onError: (e) => !isUnauthorizedError(e) && toast.error("Failed to dismiss the question", { description: serverMessage(e) ?? "Please try again." }),
              })
            }
          >
            Not a real question
          </Button>
        </div>
      </form>
    </li>
  );
}
