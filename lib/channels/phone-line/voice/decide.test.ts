import { decideTurn, isGoodbye, type TurnSituation } from "./decide";

const base: TurnSituation = { text: "", mode: "conversation", forwardTo: null, silentPrompts: 0, history: [] };

describe("decideTurn: what the assistant does with what the caller said", () => {
  it("counts silences: the second in a row ends the call", () => {
    expect(decideTurn(base)).toEqual({ kind: "silence", hangUp: false });
    expect(decideTurn({ ...base, silentPrompts: 1 })).toEqual({ kind: "silence", hangUp: true });
  });

  it("ends on a goodbye, but not on a question that mentions one", () => {
    for (const text of ["Bye!", "No, that's all, thanks", "Thank you, goodbye", "Nothing else. Have a good day."]) {
      expect(decideTurn({ ...base, text }).kind).toBe("goodbye");
    }
    expect(decideTurn({ ...base, text: "That's all I need to know: what time do you open?" }).kind).toBe("reply");
    expect(isGoodbye("What are your hours?", "hours")).toBe(false);
  });

  it("transfers a request for a person only when the number forwards somewhere", () => {
    expect(decideTurn({ ...base, text: "Can I speak to a real person?", forwardTo: "+15035550100" })).toEqual({ kind: "transfer", to: "+15035550100" });
    expect(decideTurn({ ...base, text: "Can I speak to a real person?" })).toEqual({ kind: "reply", intent: "human_handoff" });
  });

  it("records a voicemail on request, and takes down a message in message mode", () => {
    expect(decideTurn({ ...base, text: "Can I leave a voicemail?" }).kind).toBe("voicemail");
    expect(decideTurn({ ...base, text: "Tell them my crown fell out", mode: "message" }).kind).toBe("take_message");
    expect(decideTurn({ ...base, text: "no thanks, bye", mode: "message" }).kind).toBe("goodbye");
  });

  it("lets the assistant answer everything else, with the local intent", () => {
    expect(decideTurn({ ...base, text: "What are your opening hours?" })).toEqual({ kind: "reply", intent: "hours" });
  });
});
