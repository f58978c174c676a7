"use client";

import Link from "next/link";
import { BookOpen, Check, Download, MessageCircleQuestion, Minus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useBusinessProfile, useOpenKnowledgeGaps } from "@/components/knowledge/business/use-business";

const numberFormat = new Intl.NumberFormat("en-US");

/**
 * What the assistant knows and the edge of it: the count of questions it could not answer (knowledge
 * gaps), what the business profile has, and — for a new business with nothing yet — the offer to
 * import it from the website given at sign-up.
 */
export function KnowledgeCard() {
  const profile = useBusinessProfile();
  const gaps = useOpenKnowledgeGaps();
  const p = profile.data;
  const open = gaps.data?.counts.open;
  const hasHours = p ? Object.values(p.weeklyHours).some((ranges) => ranges.length > 0) || Boolean(p.legacy.hours) : false;
  const empty = p ? !hasHours && p.services.length === 0 && p.faqs.length === 0 && p.policies.length === 0 : false;
  const checklist = p
    ? [
        { done: hasHours, label: hasHours ? `Opening hours${p.status ? ` · ${p.status.label}` : ""}` : "Opening hours not set" },
        { done: p.services.length > 0, label: `${p.services.length} ${p.services.length === 1 ? "service" : "services"} with prices` },
        { done: p.policies.length + p.faqs.length > 0, label: `${p.policies.length} ${p.policies.length === 1 ? "policy" : "policies"}, ${p.faqs.length} ${p.faqs.length === 1 ? "answer" : "answers"}` },
      ]
    : [];

  return (
    <Card data-testid="dashboard-knowledge">
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <BookOpen className="size-4 text-primary" aria-hidden />
          {empty ? "Teach your assistant about your business" : "What your assistant knows"}
        </CardTitle>
        <CardDescription>
          {empty
            ? "It answers only from your business details: hours, services and prices, policies and FAQs. Import them from your website, or fill them in."
            : "It answers callers only from your business details, and notes every question it could not answer."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-[auto_1fr_auto] md:items-center">
        <Link
          href="/settings/business#questions"
          className="flex items-center gap-3 rounded-lg border border-border px-4 py-3 transition-colors hover:border-primary/50 hover:bg-accent/40"
          data-testid="dashboard-knowledge-gaps"
        >
          <span className="flex size-10 items-center justify-center rounded-lg bg-warning/15 text-warning">
            <MessageCircleQuestion className="size-5" aria-hidden />
          </span>
          <span className="flex flex-col">
            {gaps.isLoading ? (
              <Skeleton className="h-7 w-10" />
            ) : (
              <span className="text-2xl font-semibold tabular-nums" data-testid="dashboard-knowledge-gaps-value">
                {open === undefined ? "—" : numberFormat.format(open)}
              </span>
            )}
            <span className="text-sm text-muted-foreground">unanswered {open === 1 ? "question" : "questions"}</span>
          </span>
        </Link>
        <ul className="flex flex-col gap-1.5 text-sm">
          {profile.isLoading
            ? [0, 1, 2].map((i) => <Skeleton key={i} className="h-4 w-48" />)
            : checklist.map((item) => (
                <li key={item.label} className="flex items-center gap-2">
                  {item.done ? <Check className="size-4 text-success" aria-hidden /> : <Minus className="size-4 text-muted-foreground" aria-hidden />}
                  <span className={item.done ? undefined : "text-muted-foreground"}>{item.label}</span>
                </li>
              ))}
        </ul>
        <div className="flex flex-col gap-2 sm:flex-row md:flex-col">
          {empty ? (
            <Button asChild>
              <Link href={`/settings/business?import=${encodeURIComponent(p?.website ?? "")}`} data-testid="dashboard-knowledge-import">
                <Download aria-hidden />
                {p?.website ? `Import from ${new URL(p.website).host}` : "Import from your website"}
              </Link>
            </Button>
          ) : null}
          <Button asChild variant={empty ? "outline" : "default"}>
            <Link href="/settings/business" data-testid="dashboard-knowledge-edit">
              {empty ? "Fill in by hand" : open ? "Answer questions" : "Edit business details"}
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
