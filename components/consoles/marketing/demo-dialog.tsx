"use client";

import * as React from "react";
import Link from "next/link";
import { ArrowLeft, ArrowRight, Check, Pause, Play } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { cn } from "@/lib/platform/utils";
import { onboardingSteps } from "./onboarding-steps";

const STEP_MS = 5000;
const lastStep = onboardingSteps.length - 1;

/** "Watch Demo": a guided walkthrough of the three steps that plays itself and can be paused. */
export function DemoDialog({ children }: { children: React.ReactNode }) {
  const [open, setOpen] = React.useState(false);
  const [step, setStep] = React.useState(0);
  const [playing, setPlaying] = React.useState(true);

  React.useEffect(() => {
    if (!open || !playing || step >= lastStep) return;
    const timer = window.setTimeout(() => {
      const next = step + 1;
      setStep(next);
      if (next >= lastStep) setPlaying(false);
    }, STEP_MS);
    return () => window.clearTimeout(timer);
  }, [open, playing, step]);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setStep(0);
      setPlaying(true);
    }
  };

  const goTo = (index: number) => {
    setStep(index);
    setPlaying(false);
  };

  const current = onboardingSteps[step];
  const Icon = current.icon;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{children}</DialogTrigger>
      <DialogContent className="max-w-xl" data-testid="demo-dialog">
        <DialogHeader>
          <DialogTitle>How Switchboard works</DialogTitle>
          <DialogDescription>Three steps from sign-up to an AI that answers your phone.</DialogDescription>
        </DialogHeader>

        <ol className="grid grid-cols-3 gap-2" aria-label="Steps">
          {onboardingSteps.map((s, index) => (
            <li key={s.title}>
              <button
                type="button"
                onClick={() => goTo(index)}
                aria-current={index === step ? "step" : undefined}
                className="flex w-full flex-col gap-2 rounded-md text-left outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <span className="h-1 w-full overflow-hidden rounded-full bg-muted">
                  <span
                    key={index === step ? `${step}-${playing}` : index}
                    className={cn(
                      "block h-full rounded-full bg-primary",
                      index < step && "w-full",
                      index > step && "w-0",
                      index === step && (playing ? "animate-step-progress" : "w-full"),
                    )}
                  />
                </span>
                <span className={cn("text-xs font-medium", index === step ? "text-foreground" : "text-muted-foreground")}>
                  {index + 1}. {s.title}
                </span>
              </button>
            </li>
          ))}
        </ol>

        <div key={step} className="flex flex-col gap-4 rounded-lg border border-border bg-background/60 p-5 animate-fade-in" aria-live="polite">
          <div className="flex items-center gap-3">
            <span className="flex size-10 items-center justify-center rounded-lg bg-primary/15 text-primary">
              <Icon className="size-5" aria-hidden />
            </span>
            <div>
              <p className="text-xs font-medium tracking-wide text-primary uppercase">Step {step + 1} of {onboardingSteps.length}</p>
              <h3 className="text-lg font-semibold">{current.title}</h3>
            </div>
          </div>
          <p className="text-sm text-foreground/90">{current.summary}</p>
          <ul className="flex flex-col gap-2">
            {current.details.map((detail) => (
              <li key={detail} className="flex gap-2 text-sm text-muted-foreground">
                <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
                {detail}
              </li>
            ))}
          </ul>
        </div>

        <div className="flex items-center justify-between gap-2">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setPlaying((p) => !p)}
            disabled={step >= lastStep}
            aria-label={playing ? "Pause walkthrough" : "Play walkthrough"}
          >
            {playing ? <Pause aria-hidden /> : <Play aria-hidden />}
            {playing ? "Pause" : "Play"}
          </Button>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" onClick={() => goTo(step - 1)} disabled={step === 0}>
              <ArrowLeft aria-hidden />
              Back
            </Button>
            {step < lastStep ? (
              <Button size="sm" onClick={() => goTo(step + 1)} data-testid="demo-next">
                Next
                <ArrowRight aria-hidden />
              </Button>
            ) : (
              <Button size="sm" asChild>
                <Link href="/signup">Get Started Free</Link>
              </Button>
            )}
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
