import { ArrowRight } from "lucide-react";
import { Button } from "@/components/ui/button";

export function ClosingCta() {
  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
      <div className="relative overflow-hidden rounded-2xl border border-primary/30 bg-gradient-to-br from-primary/20 via-card to-card px-6 py-14 text-center sm:px-12">
        <h2 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
          Let Switchboard pick up the phone
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-muted-foreground">
          Sign in, choose a number and have an assistant answering calls today.
        </p>
        <Button size="lg" className="mt-8" asChild>
          <a href="/api/login" data-testid="landing-try-free">
            Try for Free
            <ArrowRight aria-hidden />
          </a>
        </Button>
      </div>
    </section>
  );
}
