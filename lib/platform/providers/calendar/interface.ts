/**
 * An external calendar the appointment book reads busy times from and writes its appointments to
 * (Google Calendar today). Pure adapter: everything it needs comes in as arguments.
 */
export type BusyInterval = { start: Date; end: Date };

export type CalendarEventInput = {
  /** Stable id derived from the appointment, so a retried insert finds the event it made. */
  id: string;
  summary: string;
  description: string;
  start: Date;
  end: Date;
  timeZone: string;
  /** true: shown on the calendar without making its time busy (freeBusy ignores it). */
  transparent: boolean;
};

export interface CalendarProvider {
  readonly name: "google";
  /** Busy intervals of the calendar in [from, to). */
  freeBusy(calendarId: string, from: Date, to: Date): Promise<BusyInterval[]>;
  /** Creates the event, or updates it when an event with this id exists. */
  upsertEvent(calendarId: string, event: CalendarEventInput): Promise<{ id: string }>;
  /** Deletes the event; an event already gone is not an error. */
  deleteEvent(calendarId: string, eventId: string): Promise<void>;
}

export class CalendarError extends Error {
  constructor(
    message: string,
    readonly kind: "auth" | "not_found" | "invalid" | "unavailable",
    readonly status?: number,
  ) {
    super(message);
    this.name = "CalendarError";
  }
}
