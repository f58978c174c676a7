import { Bot, CalendarDays, ListChecks, Newspaper, Phone, Plug } from "lucide-react";
import { LinkCard } from "./link-card";

export function QuickLinks() {
  return (
    <section aria-labelledby="quick-links-heading" className="flex flex-col gap-4">
      <h2 id="quick-links-heading" className="text-lg font-semibold">
        Manage your phone desk
      </h2>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        <LinkCard
          href="/phone-numbers"
          icon={Phone}
          title="Phone Numbers"
          description="Get a new number or bring the one your customers already call."
          testId="link-phone-numbers"
        />
        <LinkCard
          href="/voice-assistants"
          icon={Bot}
          title="Voice Assistants"
          description="Give each assistant a personality, a voice and instructions."
          testId="link-voice-assistants"
        />
        <LinkCard
          href="/integrations"
          icon={Plug}
          title="Integrations"
          description="Send calls, messages and appointments to the tools you use."
          testId="link-integrations"
        />
        <LinkCard
          href="/appointments"
          icon={CalendarDays}
          title="Appointments"
          description="See the day and the week, book, move and cancel; services and staff."
          testId="link-appointments"
        />
        <LinkCard
          href="/tasks"
          icon={ListChecks}
          title="Tasks"
          description="Voicemails, messages and call-back requests to follow up, with a link to each call."
          testId="link-tasks"
        />
        <LinkCard
          href="/recaps"
          icon={Newspaper}
          title="Daily Recap"
          description="Calls answered and missed, spam blocked, new tasks, knowledge gaps and bookings, every day."
          testId="link-recaps"
        />
      </div>
    </section>
  );
}
