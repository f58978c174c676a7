import type { ConversationInput } from "./interface";
import { analyzeLocally, scoreSentiment } from "./local-analysis";

const profile = { name: "Acme Dental", hours: "Mon–Fri 9–5" };

function input(turns: ConversationInput["turns"], extra: Partial<ConversationInput> = {}): ConversationInput {
  return { profile, caller: "Pat (+15555550123)", channel: "call", turns, ...extra };
}

describe("the local post-call analysis", () => {
  it("summarises what was asked, picks the main intent and lists follow-ups", () => {
    const result = analyzeLocally(
      input([
        { speaker: "assistant", text: "Thanks for calling Acme Dental." },
        { speaker: "caller", text: "Hi, what are your opening hours?" },
        { speaker: "assistant", text: "We're open Mon–Fri 9–5." },
        { speaker: "caller", text: "Great, I'd like to book a cleaning" },
        { speaker: "assistant", text: "What day and time work best?" },
        { speaker: "caller", text: "Tuesday at 3pm, thanks!" },
      ]),
    );
    expect(result.intent).toBe("appointment");
    expect(result.summary).toBe(
      "Pat (+15555550123) called Acme Dental and asked about opening hours and asked to book an appointment for Tuesday at 3pm.",
    );
    expect(result.actionItems).toEqual(["Confirm the appointment Pat (+15555550123) requested for Tuesday at 3pm"]);
    expect(result.sentiment).toBe("positive");
    expect(result.sentimentScore).toBe(5);
  });

  it("scores complaints low and reads negations", () => {
    expect(scoreSentiment("I was charged twice and I'm really frustrated", ["complaint"])).toBe(1);
    expect(scoreSentiment("I'm not happy with the service", ["complaint"])).toBe(1);
    expect(scoreSentiment("What time do you open?", ["hours"])).toBe(3);
    const result = analyzeLocally(input([{ speaker: "caller", text: "This is unacceptable, I was overcharged on my bill" }]));
    expect(result).toMatchObject({ intent: "complaint", sentiment: "negative" });
    expect(result.actionItems[0]).toMatch(/Follow up on .*complaint/);
  });

  it("reports a message taken and a voicemail, and a silent call without inventing anything", () => {
    const message = analyzeLocally(
      input([
        { speaker: "caller", text: "Can I talk to someone?" },
        { speaker: "caller", text: "It's Sam, call me on 555 0123", kind: "message" },
      ], { outcome: "the assistant took a message for the team" }),
    );
    expect(message.summary).toContain('Message for the team: "It\'s Sam, call me on 555 0123".');
    expect(message.summary).toContain("The assistant took a message for the team.");
    expect(message.actionItems).toContain("Reply to the message Pat (+15555550123) left");

    const voicemail = analyzeLocally(input([{ speaker: "caller", text: "please call me back about my crown" }], { channel: "voicemail" }));
    expect(voicemail.summary).toMatch(/^Pat \(\+15555550123\) left a voicemail for Acme Dental/);
    expect(voicemail.actionItems).toContain("Listen to the voicemail and call Pat (+15555550123) back");

    const silent = analyzeLocally(input([{ speaker: "assistant", text: "Hello?" }]));
    expect(silent).toMatchObject({ sentiment: "neutral", sentimentScore: 3, intent: "other", actionItems: [] });
    expect(silent.summary).toMatch(/did not say anything/);
  });
});
