import type { LucideIcon } from "lucide-react";
import { Bot, CalendarCheck, FileText, ListChecks, Phone, PhoneMissed, Plug, Waves } from "lucide-react";

/** The product's capabilities (spec core §1). */
const features: { title: string; description: string; icon: LucideIcon }[] = [
  {
    title: "Business phone numbers",
    description: "Get numbers from our telephony provider with the area code you want, or bring your own.",
    icon: Phone,
  },
  {
    title: "Assistants with personality",
    description: "Friendly, professional or upbeat: pick a voice and personality, and write its instructions.",
    icon: Bot,
  },
  {
    title: "Transcripts and summaries",
    description: "Every call is transcribed and summarised, so you can read in seconds what took minutes.",
    icon: FileText,
  },
  {
    title: "Missed-call receptionist",
    description: "When you can't pick up, a voice receptionist answers, takes the message and follows up.",
    icon: PhoneMissed,
  },
  {
    title: "Daily recaps",
    description: "One summary a day of the tasks that came in through calls, texts and voicemails.",
    icon: ListChecks,
  },
  {
    title: "Routing, spam and appointments",
    description: "Smart call routing, spam detection and AI appointment scheduling, built in.",
    icon: CalendarCheck,
  },
  {
    title: "1,000+ integrations",
    description: "Send calls, contacts and bookings to your CRM and productivity tools.",
    icon: Plug,
  },
  {
    title: "Voice test pipeline",
    description: "Type a phrase and hear the reply: a language model writes it, a speech engine voices it.",
    icon: Waves,
  },
];

export function FeatureGrid() {
  return (
    <section aria-labelledby="features-heading" className="border-t border-border bg-card/30">
      <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-medium text-primary">Features</p>
          <h2 id="features-heading" className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">
            Everything your front desk does, on autopilot
          </h2>
        </div>
        <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {features.map(({ title, description, icon: Icon }) => (
            <li
              key={title}
              className="flex flex-col gap-3 rounded-xl border border-border bg-card p-5 transition-colors hover:border-primary/40"
            >
              <span className="flex size-9 items-center justify-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-4.5" aria-hidden />
              </span>
              <h3 className="font-semibold">{title}</h3>
              <p className="text-sm text-muted-foreground">{description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
