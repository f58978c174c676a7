import { statusLabels } from "@/lib/receptionist/call-history/constants";

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const time = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", second: "2-digit" });

export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

export function formatTime(iso: string): string {
  return time.format(new Date(iso));
}

/** 0 → "0:00", 75 → "1:15", 3700 → "1:01:40". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

export function statusLabel(status: string): string {
  return statusLabels[status] ?? status;
}

export function statusVariant(status: string): "success" | "warning" | "destructive" | "secondary" | "outline" {
  if (status === "completed" || status === "delivered" || status === "received" || status === "sent") return "success";
  if (status === "missed" || status === "voicemail") return "warning";
  if (status === "failed") return "destructive";
  return "secondary";
}

export function sentimentVariant(sentiment: string | null | undefined): "success" | "secondary" | "destructive" {
  if (sentiment === "positive") return "success";
  if (sentiment === "negative") return "destructive";
  return "secondary";
}

const OUTCOMES: Record<string, string> = {
  answered_by_assistant: "Answered by the assistant",
  transferred: "Transferred",
  voicemail: "Voicemail",
  missed: "Missed",
  failed: "Failed",
  blocked: "Blocked",
};

/** "2 credits", "2 credits (2 credited back)", "Free" for nothing spent. */
export function costLabel(cost: number, back: number): string {
  if (cost === 0) return "Free";
  const spent = `${cost} credit${cost === 1 ? "" : "s"}`;
  return back > 0 ? `${spent} (${back} credited back)` : spent;
}

export function outcomeLabel(outcome: string): string {
  return OUTCOMES[outcome] ?? outcome;
}

const FAILURES: Record<string, string> = {
  timeout: "Assistant timed out",
  authentication: "Provider key refused",
  processing: "Assistant error",
};

export function failureLabel(failureClass: string): string {
  return FAILURES[failureClass] ?? failureClass;
}

const ACTIONS: Record<string, string> = {
  took_message: "Took a message",
  transferred: "Transferred the call",
  transfer_unanswered: "Transfer not answered",
  voicemail_recorded: "Voicemail recorded",
  callback_requested: "Callback requested",
  booking_requested: "Booking requested",
  texted_back: "Texted back",
  reply_held: "Reply held until texting is registered (A2P 10DLC)",
  owner_replied: "You replied",
  opted_out: "Opted out",
  opted_in: "Opted back in",
  spam_declined: "Declined spam",
  cap_reached: "Monthly cap reached: took a message",
};

export function actionLabel(type: string): string {
  return ACTIONS[type] ?? type.replace(/_/g, " ");
}
