/** Marketing claims from the spec (core §1); not account data. */
const claims = [
  { value: "99.9%", label: "Uptime" },
  { value: "10k+", label: "Active users" },
  { value: "1M+", label: "Calls processed" },
  { value: "24/7", label: "AI support" },
] as const;

export function ClaimedStats() {
  return (
    <section aria-label="Switchboard in numbers" className="border-y border-border bg-card/40">
      <dl className="mx-auto grid max-w-7xl grid-cols-2 gap-8 px-4 py-10 sm:px-6 md:grid-cols-4 lg:px-8">
        {claims.map((claim) => (
          <div key={claim.label} className="flex flex-col items-center gap-1 text-center">
            <dt className="order-2 text-sm text-muted-foreground">{claim.label}</dt>
            <dd className="order-1 text-3xl font-semibold tracking-tight sm:text-4xl">{claim.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
