import { isBackchannel, relayAttributes, unheardRest } from "./settings";

describe("isBackchannel", () => {
  it.each(["uh-huh", "Uh huh.", "mm-hmm", "Mhm", "okay", "OK", "yeah", "Yeah, yeah.", "right", "I see", "ajá", "vale"])("'%s' only acknowledges", (words) => {
    expect(isBackchannel(words)).toBe(true);
  });

  it.each([
    "yes", // answers a question (a read-back's "yes" is the gateway's to judge)
    "sí",
    "okay, book it",
    "yeah but what about Saturday?",
    "wait",
    "no",
    "I'd like to book a cleaning",
    "",
  ])("'%s' is something the caller wants answered", (words) => {
    expect(isBackchannel(words)).toBe(false);
  });
});

describe("relayAttributes", () => {
  it("lets speech cut the assistant off and has Twilio ignore backchannels by default", () => {
    expect(relayAttributes(null)).toEqual({ interruptible: "speech", welcomeGreetingInterruptible: "speech", preemptible: false, ignorebackchannel: "true" });
  });

  it("renders each setting the owner picks", () => {
    expect(relayAttributes({ interruptions: "any", ignoreBackchannels: false })).toEqual({ interruptible: "any", welcomeGreetingInterruptible: "any", preemptible: false });
    // Speech cannot interrupt: what the caller says meanwhile is still reported (answered after the reply).
    expect(relayAttributes({ interruptions: "dtmf", ignoreBackchannels: true })).toEqual({
      interruptible: "dtmf",
      welcomeGreetingInterruptible: "dtmf",
      preemptible: false,
      reportInputDuringAgentSpeech: true,
    });
    expect(relayAttributes({ interruptions: "none", ignoreBackchannels: true })).toMatchObject({ interruptible: "none", welcomeGreetingInterruptible: "none" });
  });
});

describe("unheardRest", () => {
  const reply = "I'd be glad to help you book. We have openings on Tuesday. Which suits you?";
  it("is what follows the words the caller heard", () => {
    expect(unheardRest(reply, "I'd be glad to help you book.")).toBe("We have openings on Tuesday. Which suits you?");
  });
  it("starts again at the word the caller was hearing, never mid-word", () => {
    expect(unheardRest(reply, "I'd be glad to help you bo")).toBe("book. We have openings on Tuesday. Which suits you?");
  });
  it("is the whole reply when nothing was heard, and nothing when all was", () => {
    expect(unheardRest(reply, "")).toBe(reply);
    expect(unheardRest(reply, reply)).toBe("");
  });
});
