import { Bot, PhoneIncoming, User } from "lucide-react";
import { Badge } from "@/components/ui/badge";

/** An illustration of a call handled by an assistant; labelled as an example, not account data. */
const lines = [
  { speaker: "caller", text: "Hi, I'd like to book a cleaning sometime next week." },
  { speaker: "assistant", text: "Happy to help. Would Tuesday morning or Thursday afternoon suit you better?" },
  { speaker: "caller", text: "Thursday afternoon, please." },
  { speaker: "assistant", text: "Done. You'll get a text confirmation in a moment." },
] as const;

export function ExampleCall() {
  return (
    <figure className="relative rounded-2xl border border-border bg-card/80 p-5 shadow-2xl shadow-primary/10 backdrop-blur">
      <div className="flex items-center justify-between gap-3 border-b border-border pb-4">
        <div className="flex items-center gap-3">
          <span className="flex size-9 items-center justify-center rounded-full bg-success/15 text-success">
            <PhoneIncoming className="size-4" aria-hidden />
          </span>
          <div>
            <p className="text-sm font-medium">Incoming call</p>
            <p className="text-xs text-muted-foreground">Answered by your assistant</p>
          </div>
        </div>
        <Badge variant="outline">Example</Badge>
      </div>
      <ul className="flex flex-col gap-3 pt-4">
        {lines.map((line, i) => {
          const isAssistant = line.speaker === "assistant";
          const Icon = isAssistant ? Bot : User;
          return (
            <li key={i} className={isAssistant ? "flex gap-2" : "flex flex-row-reverse gap-2"}>
              <span
                className={
                  isAssistant
                    ? "flex size-7 shrink-0 items-center justify-center rounded-full bg-primary/15 text-primary"
                    : "flex size-7 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground"
                }
              >
                <Icon className="size-3.5" aria-hidden />
                <span className="sr-only">{isAssistant ? "Assistant" : "Caller"}:</span>
              </span>
              <p
                className={
                  isAssistant
                    ? "max-w-[80%] rounded-2xl rounded-tl-sm bg-primary/10 px-3 py-2 text-sm"
                    : "max-w-[80%] rounded-2xl rounded-tr-sm bg-muted px-3 py-2 text-sm"
                }
              >
                {line.text}
              </p>
            </li>
          );
        })}
      </ul>
      <figcaption className="mt-4 rounded-lg border border-border bg-background/60 px-3 py-2 text-xs text-muted-foreground">
        <span className="font-medium text-foreground">Summary:</span> Caller booked a cleaning for Thursday
        afternoon; confirmation sent by text.
      </figcaption>
    </figure>
  );
}
