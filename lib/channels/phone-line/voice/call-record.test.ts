import { shortWhen, truthfulAnalysis, type CallFacts } from "./call-record";

const facts = (over: Partial<CallFacts>): CallFacts => ({ outcome: null, name: null, booked: false, optedOut: false, transferred: false, messageTaken: false, ...over });

describe("the call's record", () => {
  it("says a booking's time the short way, in the business's zone", () => {
    expect(shortWhen(new Date("2026-12-01T19:00:00Z"), "America/New_York")).toBe("Tue Dec 1 at 2 PM");
    expect(shortWhen(new Date("2026-12-01T19:30:00Z"), "America/New_York")).toBe("Tue Dec 1 at 2:30 PM");
  });

  it("leads with the outcome, once, and drops the action items the engine already did", () => {
    const out = truthfulAnalysis(
      {
        summary: "Tom Baker called Harbor Dental and asked to book a cleaning. Booked a cleaning for Tom Baker, Tue Dec 1 at 2 PM.",
        sentiment: "positive",
        sentimentScore: 4,
        intent: "appointment",
        actionItems: ["Book a cleaning for Tom Baker on Tuesday", "Send Tom Baker the new-patient forms"],
      },
      facts({ outcome: "Booked a cleaning for Tom Baker, Tue Dec 1 at 2 PM", name: "Tom Baker", booked: true }),
      null,
    );
    expect(out.summary).toBe("Booked a cleaning for Tom Baker, Tue Dec 1 at 2 PM. Tom Baker called Harbor Dental and asked to book a cleaning.");
    expect(out.actionItems).toEqual(["Send Tom Baker the new-patient forms"]);
  });

  it("never keeps a device label as the caller's name", () => {
    const out = truthfulAnalysis(
      { summary: "Phone panel called Harbor Dental and asked about hours.", sentiment: "neutral", sentimentScore: 3, intent: "hours", actionItems: [] },
      facts({}),
      "Phone panel",
    );
    expect(out.summary).toBe("The caller called Harbor Dental and asked about hours.");
  });

  it("keeps the team's items when the engine did nothing", () => {
    const items = ["Call Pat back about the invoice"];
    const out = truthfulAnalysis({ summary: "Pat asked about an invoice.", sentiment: "neutral", sentimentScore: 3, intent: "other", actionItems: items }, facts({}), null);
    expect(out.actionItems).toEqual(items);
  });
});
