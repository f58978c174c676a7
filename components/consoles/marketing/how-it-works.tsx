import { onboardingSteps } from "./onboarding-steps";

export function HowItWorks() {
  return (
    <section aria-labelledby="how-it-works-heading" className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
      <div className="mx-auto max-w-2xl text-center">
        <p className="text-sm font-medium text-primary">How it works</p>
        <h2 id="how-it-works-heading" className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">
          Up and running in three steps
        </h2>
      </div>
      <ol className="mt-12 grid gap-6 md:grid-cols-3">
        {onboardingSteps.map((step, index) => {
          const Icon = step.icon;
          return (
            <li key={step.title} className="relative flex flex-col gap-4 rounded-xl border border-border bg-card p-6">
              <div className="flex items-center justify-between">
                <span className="flex size-10 items-center justify-center rounded-lg bg-primary/15 text-primary">
                  <Icon className="size-5" aria-hidden />
                </span>
                <span className="text-4xl font-semibold text-muted/80 tabular-nums" aria-hidden>
                  {index + 1}
                </span>
              </div>
              <h3 className="text-lg font-semibold">
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="text-sm text-muted-foreground">{step.summary}</p>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
