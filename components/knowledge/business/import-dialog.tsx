"use client";

import * as React from "react";
import { AlertTriangle, FileText, Globe, Type } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import { serverFieldErrors } from "@/components/platform/server-errors";
import { isUnauthorizedError, serverMessage } from "@/lib/platform/api-client";
import type { ImportFactInput } from "@/lib/knowledge/business-profile/facts";
import { browserTimeZone, describeFact, FACT_GROUPS, timeZones } from "./format";
import { useApplyImport, useImport, type BusinessProfile, type ImportedFact, type ImportRequest, type ImportResult } from "./use-business";

const STATUS_LABEL: Record<ImportedFact["status"], string> = { new: "New", same: "Already saved", changes: "Changes yours" };

/** Strips what the review adds (id, source, evidence, status, current): apply takes the fact itself. */
function factOnly(fact: ImportedFact): ImportFactInput {
  const rest: Record<string, unknown> = { ...fact };
  for (const key of ["id", "source", "evidence", "status", "current"]) delete rest[key];
  return rest as ImportFactInput;
}

/**
 * Import from a website (a few pages of the same site), a document (PDF, text, web page) or pasted
 * text. The facts found are listed for the owner to tick; only the ticked ones are added.
 */
export function ImportDialog({
  open,
  onOpenChange,
  profile,
  initialUrl,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  profile: BusinessProfile;
  initialUrl?: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] max-w-3xl overflow-y-auto" data-testid="import-dialog">
        <DialogHeader>
          <DialogTitle>Import from your website or documents</DialogTitle>
          <DialogDescription>We read the pages or file and list what we find. Nothing is added until you confirm it.</DialogDescription>
        </DialogHeader>
        {open ? <ImportFlow profile={profile} initialUrl={initialUrl ?? profile.website ?? ""} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ImportFlow({ profile, initialUrl, onDone }: { profile: BusinessProfile; initialUrl: string; onDone: () => void }) {
  const [tab, setTab] = React.useState("website");
  const [url, setUrl] = React.useState(initialUrl);
  const [file, setFile] = React.useState<File | null>(null);
  const [text, setText] = React.useState("");
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [result, setResult] = React.useState<ImportResult | null>(null);
  const run = useImport();

  const start = (request: ImportRequest) => {
    setErrors({});
    run.mutate(request, {
      onSuccess: (found) => setResult(found),
      onError: (error) => {
        if (isUnauthorizedError(error)) return;
        const fields = serverFieldErrors(error) ?? {};
        setErrors(fields);
        if (!Object.keys(fields).length) toast.error("Import failed", { description: serverMessage(error) ?? "Please try again." });
      },
    });
  };

  if (result) return <Review result={result} profile={profile} onBack={() => setResult(null)} onDone={onDone} />;

  return (
    <Tabs value={tab} onValueChange={setTab} className="flex flex-col gap-4">
      <TabsList className="w-full">
        <TabsTrigger value="website" data-testid="import-tab-website">
          <Globe aria-hidden className="size-4" />
          Website
        </TabsTrigger>
        <TabsTrigger value="file" data-testid="import-tab-file">
          <FileText aria-hidden className="size-4" />
          Document
        </TabsTrigger>
        <TabsTrigger value="text" data-testid="import-tab-text">
          <Type aria-hidden className="size-4" />
          Paste text
        </TabsTrigger>
      </TabsList>
      <TabsContent value="website">
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (!url.trim()) return setErrors({ url: "Enter your website's address, e.g. https://example.com" });
            start({ kind: "url", url: url.trim() });
          }}
        >
          <Label htmlFor="import-url">Website address</Label>
          <Input id="import-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com" aria-invalid={errors.url ? true : undefined} aria-describedby="import-url-hint" data-testid="import-url" />
          <FieldError id="import-url-error" message={errors.url} />
          <p id="import-url-hint" className="text-xs text-muted-foreground">
            We read this page and up to seven more pages of the same site that it links to (contact, hours, services, prices, FAQ).
          </p>
          <div>
            <Button type="submit" disabled={run.isPending} data-testid="import-url-submit">
              {run.isPending ? <Spinner /> : null}
              {run.isPending ? "Reading your website…" : "Read website"}
            </Button>
          </div>
        </form>
      </TabsContent>
      <TabsContent value="file">
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (!file) return setErrors({ file: "Choose a file to upload" });
            start({ kind: "file", file });
          }}
        >
          <Label htmlFor="import-file">A brochure, price list or FAQ</Label>
          <Input
            id="import-file"
            type="file"
            accept=".pdf,.txt,.md,.markdown,.html,.htm,application/pdf,text/plain,text/markdown,text/html"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            aria-invalid={errors.file ? true : undefined}
            data-testid="import-file"
          />
          <FieldError id="import-file-error" message={errors.file} />
          <p className="text-xs text-muted-foreground">PDF, text, Markdown or a saved web page, up to 10 MB.</p>
          <div>
            <Button type="submit" disabled={run.isPending} data-testid="import-file-submit">
              {run.isPending ? <Spinner /> : null}
              {run.isPending ? "Reading the file…" : "Read file"}
            </Button>
          </div>
        </form>
      </TabsContent>
      <TabsContent value="text">
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (!text.trim()) return setErrors({ text: "Paste some text to read" });
            start({ kind: "text", text });
          }}
        >
          <Label htmlFor="import-text">Hours, prices, policies or questions and answers</Label>
          <Textarea id="import-text" rows={8} value={text} onChange={(e) => setText(e.target.value)} aria-invalid={errors.text ? true : undefined} data-testid="import-text" />
          <FieldError id="import-text-error" message={errors.text} />
          <div>
            <Button type="submit" disabled={run.isPending} data-testid="import-text-submit">
              {run.isPending ? <Spinner /> : null}
              Read text
            </Button>
          </div>
        </form>
      </TabsContent>
    </Tabs>
  );
}

function Review({ result, profile, onBack, onDone }: { result: ImportResult; profile: BusinessProfile; onBack: () => void; onDone: () => void }) {
  const [chosen, setChosen] = React.useState<Set<string>>(() => new Set(result.facts.filter((f) => f.status !== "same").map((f) => f.id)));
  const suggestedZone = result.facts.find((f) => f.kind === "timezone");
  const [timezone, setTimezone] = React.useState(suggestedZone?.kind === "timezone" ? suggestedZone.value : browserTimeZone());
  const apply = useApplyImport();
  const read = result.pages.filter((p) => !p.error);
  const skipped = result.pages.filter((p) => p.error);
  const picked = result.facts.filter((f) => chosen.has(f.id));
  const hoursWithoutZone =
    !profile.timezone && picked.some((f) => f.kind === "hours" || (f.kind === "holiday" && f.hours?.length)) && !picked.some((f) => f.kind === "timezone");
  const sourceName = result.source.kind === "website" ? result.source.url : result.source.name;

  const toggle = (id: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const confirm = () => {
    const facts = picked.map(factOnly);
    if (hoursWithoutZone) facts.unshift({ kind: "timezone", value: timezone });
    apply.mutate(facts, {
      onSuccess: () => {
        toast.success("Business profile updated", { description: `Added ${picked.length} ${picked.length === 1 ? "fact" : "facts"} from ${sourceName}.` });
        onDone();
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) return;
        toast.error("Failed to add the facts", { description: serverMessage(error) ?? "Please try again." });
      },
    });
  };

  return (
    <div className="flex flex-col gap-5" data-testid="import-review">
      <div className="flex flex-col gap-1 text-sm">
        <p data-testid="import-summary">
          {result.source.kind === "website" ? `Read ${read.length} ${read.length === 1 ? "page" : "pages"} of ${new URL(result.source.url).host}` : `Read ${sourceName}`} and found{" "}
          {result.facts.length} {result.facts.length === 1 ? "fact" : "facts"}.
        </p>
        {result.source.kind === "website" ? (
          <details className="text-muted-foreground">
            <summary className="cursor-pointer">Pages read</summary>
            <ul className="mt-2 flex flex-col gap-1 text-xs" data-testid="import-pages">
              {read.map((p) => (
                <li key={p.url}>
                  {p.title || p.url} <span className="opacity-70">({p.url})</span>
                </li>
              ))}
              {skipped.map((p) => (
                <li key={p.url} className="text-warning">
                  Skipped {p.url}: {p.error}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>

      {result.facts.length === 0 ? (
        <p className="rounded-lg border border-border bg-muted/40 px-4 py-3 text-sm" data-testid="import-nothing">
          We couldn&apos;t find opening hours, prices, policies or questions here. Try the page that lists them, or upload a document.
        </p>
      ) : (
        FACT_GROUPS.map(({ kind, title }) => {
          const facts = result.facts.filter((f) => f.kind === kind);
          if (!facts.length) return null;
          return (
            <fieldset key={kind} className="flex flex-col gap-2" data-testid={`import-group-${kind}`}>
              <legend className="mb-1 text-sm font-semibold">{title}</legend>
              {facts.map((fact) => {
                const { label, detail } = describeFact(fact, profile.currency);
                const inputId = `import-fact-${fact.id}`;
                return (
                  <div key={fact.id} className="flex items-start gap-3 rounded-lg border border-border p-3" data-testid="import-fact">
                    <input
                      id={inputId}
                      type="checkbox"
                      className="mt-1 size-4 accent-[var(--color-primary)]"
                      checked={chosen.has(fact.id)}
                      onChange={(e) => toggle(fact.id, e.target.checked)}
                    />
                    <label htmlFor={inputId} className="flex min-w-0 flex-1 cursor-pointer flex-col gap-1 text-sm">
                      <span className="flex flex-wrap items-center gap-2">
                        <span className="font-medium break-words">{label}</span>
                        <Badge variant={fact.status === "new" ? "default" : fact.status === "changes" ? "warning" : "outline"}>{STATUS_LABEL[fact.status]}</Badge>
                      </span>
                      {detail ? <span className="break-words text-muted-foreground">{detail}</span> : null}
                      {fact.status === "changes" && fact.current ? <span className="text-xs text-warning">Currently: {fact.current}</span> : null}
                      <span className="text-xs break-words text-muted-foreground/80">
                        From “{fact.evidence}”{result.source.kind === "website" ? ` · ${fact.source}` : ""}
                      </span>
                    </label>
                  </div>
                );
              })}
            </fieldset>
          );
        })
      )}

      {hoursWithoutZone ? (
        <div className="flex flex-col gap-2 rounded-lg border border-warning/40 bg-warning/5 p-3">
          <p className="flex items-center gap-2 text-sm">
            <AlertTriangle className="size-4 text-warning" aria-hidden />
            Which time zone are these hours in?
          </p>
          <Select value={timezone} onChange={(e) => setTimezone(e.target.value)} aria-label="Time zone of the hours" data-testid="import-timezone">
            {timeZones(timezone).map((z) => (
              <option key={z} value={z}>
                {z.replaceAll("_", " ")}
              </option>
            ))}
          </Select>
        </div>
      ) : null}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onBack} disabled={apply.isPending}>
          Back
        </Button>
        <Button type="button" onClick={confirm} disabled={apply.isPending || picked.length === 0} data-testid="import-apply">
          {apply.isPending ? <Spinner /> : null}
          {picked.length === 0 ? "Choose facts to add" : `Add ${picked.length} ${picked.length === 1 ? "fact" : "facts"}`}
        </Button>
      </DialogFooter>
    </div>
  );
}
