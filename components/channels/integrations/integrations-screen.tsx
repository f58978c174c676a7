"use client";

import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import { Quote, Search, Sparkles, Zap } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { useAuth } from "@/lib/identity/auth/use-auth";
import { catalogue, integrationCategories, type IntegrationCategory, type IntegrationView } from "@/lib/channels/integrations/catalogue";
import { cn } from "@/lib/platform/utils";
import { INTEGRATIONS_KEY } from "./api";
import { ConnectDialog } from "./connect-dialog";
import { IntegrationCard } from "./integration-card";

type Chip = "All" | IntegrationCategory;
const chips: Chip[] = ["All", ...integrationCategories];

/** Marketing copy: customer quotes, attributed by name and business. */
const testimonials = [
  {
    quote: "Missed calls used to mean missed patients. Now every one lands in our Slack channel with the caller's number, and we call back within minutes.",
    name: "Maria Okafor",
    business: "Office manager, Harbor Dental Studio",
  },
  {
    quote: "We pipe every completed call into our CRM through Zapier. The summaries are good enough that nobody re-listens to recordings anymore.",
    name: "Tom Brennan",
    business: "Owner, Brennan & Sons Plumbing",
  },
  {
    quote: "The signed webhooks made our developer happy: one endpoint, verified events, and a delivery log when something goes wrong.",
    name: "Priya Raman",
    business: "Operations lead, Lakeside Veterinary Clinic",
  },
];

const offline: IntegrationView[] = catalogue.map((entry) => ({
  ...entry,
  connected: false,
  available: entry.kind !== "unavailable",
  missingSettings: [],
  oauth: false,
  needsReconnect: false,
  reconnectReason: null,
  lastDelivery: null,
  config: {},
  connectedAt: null,
}));

/** After the provider sends the browser back: say how the connection went, once, and tidy the address. */
function useOAuthReturn(integrations: IntegrationView[]) {
  React.useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const connected = params.get("connected");
    const error = params.get("error");
    if (!connected && !error) return;
    const name = (slug: string | null) => integrations.find((i) => i.slug === slug)?.name ?? slug ?? "The integration";
    if (connected) toast.success("Integration connected", { description: `${name(connected)} is connected.` });
    else toast.error(`Could not connect ${name(params.get("integration"))}`, { description: error ?? undefined });
    window.history.replaceState(null, "", window.location.pathname);
    // Once per visit: the names do not change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

function matches(integration: IntegrationView, search: string, chip: Chip): boolean {
  if (chip !== "All" && integration.category !== chip) return false;
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return [integration.name, integration.description, integration.category].some((text) => text.toLowerCase().includes(q));
}

function Grid({ items, signedIn, loading }: { items: IntegrationView[]; signedIn: boolean; loading: boolean }) {
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {items.map((integration) => (
        <IntegrationCard key={integration.slug} integration={integration} signedIn={signedIn} loading={loading} />
      ))}
    </div>
  );
}

/** /integrations, for visitors and signed-in users alike (spec core §2). */
export function IntegrationsScreen() {
  const { isAuthenticated, isLoading: authLoading } = useAuth();
  const { data, isLoading } = useQuery<IntegrationView[]>({ queryKey: [...INTEGRATIONS_KEY] });
  const [search, setSearch] = React.useState("");
  const [chip, setChip] = React.useState<Chip>("All");
  const [zapierOpen, setZapierOpen] = React.useState(false);

  const integrations = data ?? offline;
  useOAuthReturn(integrations);
  const visible = integrations.filter((i) => matches(i, search, chip));
  const featured = visible.filter((i) => i.featured);
  const loading = isLoading || authLoading;
  const zapier = integrations.find((i) => i.slug === "zapier");

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-10 px-4 py-10 sm:px-6 lg:px-8" data-testid="integrations">
      <header className="flex flex-col items-center gap-3 text-center">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Integrations</h1>
        <p className="max-w-2xl text-muted-foreground">
          Connect Switchboard to the tools you already use: post missed calls to Slack, send every call, text and voicemail to
          Zapier or your own endpoint, and keep your CRM, calendar and notes in step.
        </p>
        <div className="relative mt-2 w-full max-w-md">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            placeholder="Search integrations"
            aria-label="Search integrations"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="pl-9"
            data-testid="integrations-search"
          />
        </div>
        <div className="flex flex-wrap justify-center gap-2" role="group" aria-label="Categories">
          {chips.map((c) => (
            <button
              key={c}
              type="button"
              onClick={() => setChip(c)}
              aria-pressed={chip === c}
              className={cn(
                "rounded-full border px-3 py-1 text-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring",
                chip === c ? "border-primary bg-primary text-primary-foreground" : "border-border text-muted-foreground hover:text-foreground",
              )}
              data-testid={`chip-${c}`}
            >
              {c}
            </button>
          ))}
        </div>
      </header>

      {visible.length === 0 ? (
        <p className="py-10 text-center text-muted-foreground" data-testid="integrations-empty">
          No integration matches “{search}”{chip !== "All" ? ` in ${chip}` : ""}.
        </p>
      ) : (
        <>
          {featured.length > 0 ? (
            <section aria-labelledby="featured-heading" className="flex flex-col gap-4">
              <h2 id="featured-heading" className="flex items-center gap-2 text-xl font-semibold">
                <Sparkles className="size-5 text-primary" aria-hidden />
                Featured
              </h2>
              <Grid items={featured} signedIn={isAuthenticated} loading={loading} />
            </section>
          ) : null}
          <section aria-labelledby="all-heading" className="flex flex-col gap-4">
            <h2 id="all-heading" className="text-xl font-semibold">
              All Integrations
            </h2>
            <Grid items={visible} signedIn={isAuthenticated} loading={loading} />
          </section>
        </>
      )}

      <Card className="overflow-hidden border-primary/30 bg-gradient-to-br from-primary/10 via-card to-card" data-testid="zapier-promo">
        <CardContent className="flex flex-col items-start gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-start gap-4">
            <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-primary/15 text-primary">
              <Zap className="size-6" aria-hidden />
            </span>
            <div className="flex flex-col gap-1">
              <h2 className="text-lg font-semibold">Need something else? Use Zapier.</h2>
              <p className="text-sm text-muted-foreground">
                Paste a Zapier catch-hook URL and Switchboard sends each completed call, text and voicemail as a signed event —
                from there, on to thousands of apps.
              </p>
            </div>
          </div>
          {isAuthenticated && zapier ? (
            zapier.connected ? (
              <span className="text-sm font-medium text-success">Zapier is connected</span>
            ) : (
              <Button onClick={() => setZapierOpen(true)} disabled={loading}>
                Connect Zapier
              </Button>
            )
          ) : (
            <Button asChild variant="outline">
              <a href="/api/login">Sign in to connect Zapier</a>
            </Button>
          )}
        </CardContent>
      </Card>
      {isAuthenticated && zapier ? <ConnectDialog integration={zapier} open={zapierOpen} onOpenChange={setZapierOpen} /> : null}

      <section aria-labelledby="testimonials-heading" className="flex flex-col gap-4">
        <h2 id="testimonials-heading" className="text-xl font-semibold">
          What customers say
        </h2>
        <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
          {testimonials.map((t) => (
            <figure key={t.name} className="flex flex-col gap-4 rounded-xl border border-border bg-card p-5" data-testid="testimonial">
              <Quote className="size-5 text-primary" aria-hidden />
              <blockquote className="text-sm">“{t.quote}”</blockquote>
              <figcaption className="mt-auto text-sm">
                <span className="font-semibold">{t.name}</span>
                <span className="block text-muted-foreground">{t.business}</span>
              </figcaption>
            </figure>
          ))}
        </div>
      </section>

      {!isAuthenticated && !authLoading ? (
        <section className="flex flex-col items-center gap-3 rounded-xl border border-border bg-card px-6 py-10 text-center">
          <h2 className="text-2xl font-semibold">Put your phone desk to work with your tools</h2>
          <p className="max-w-xl text-muted-foreground">Create an account, pick a number and connect your first integration in minutes.</p>
          <Button size="lg" asChild>
            <a href="/api/login" data-testid="integrations-try-free">
              Try for Free
            </a>
          </Button>
        </section>
      ) : null}
    </div>
  );
}
