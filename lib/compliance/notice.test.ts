import { CONSENT_SENTENCE, DEFAULT_NOTICE, DEFAULT_TEXT_NOTICE, noticeFor, noticeTextProblem } from "./notice";
import { ALL_PARTY_STATES, isAllPartyState, partyState, stateFromAddress, stateFromNumber } from "./states";

const on = { noticeEnabled: true, noticeText: null };
const off = { noticeEnabled: false, noticeText: null };

describe("the all-party-consent table", () => {
  it("lists each state once with a citation and an official link", () => {
    const states = ALL_PARTY_STATES.map((s) => s.state);
    expect(new Set(states).size).toBe(states.length);
    for (const s of ALL_PARTY_STATES) {
      expect(s.citation).toMatch(/§|ILCS|RCW|MCL|NRS/);
      expect(s.url).toMatch(/^https?:\/\/[a-z0-9.-]+\.(gov|us)\//);
    }
    expect(isAllPartyState("ca")).toBe(true);
    expect(isAllPartyState("NY")).toBe(false);
  });
});

describe("a party's state", () => {
  it("comes from the carrier's field, else the number's area code", () => {
    expect(partyState("CA", "+12125550123")).toBe("CA");
    expect(partyState(undefined, "+12125550123")).toBe("NY");
    expect(partyState("", "+14155550123")).toBe("CA");
    expect(stateFromNumber("+15555550123")).toBeNull();
    expect(stateFromNumber("+442071234567")).toBeNull();
    expect(stateFromAddress("1 Main St, San Diego, CA 92101")).toBe("CA");
    expect(stateFromAddress("1 Main Street")).toBeNull();
  });
});

describe("the notice for a call", () => {
  it("plays the default notice when on and nobody's state requires it", () => {
    expect(noticeFor({ callerState: "NY", businessState: "TX", settings: on })).toEqual({ text: `${DEFAULT_NOTICE}.`, required: false, strict: false, reasons: [] });
  });

  it("is silent when the owner switched it off and no state requires it", () => {
    expect(noticeFor({ callerState: null, businessState: "NY", settings: off }).text).toBeNull();
  });

  it("takes the strict form, and ignores the switch, when either party is in an all-party state", () => {
    const caller = noticeFor({ callerState: "CA", businessState: "NY", settings: off });
    expect(caller).toMatchObject({ required: true, strict: true, reasons: ["CA: all-party consent to record"] });
    expect(caller.text).toBe(`${DEFAULT_NOTICE}. ${CONSENT_SENTENCE}`);
    expect(noticeFor({ callerState: "NY", businessState: "WA", settings: on }).strict).toBe(true);
  });

  it("is required in Utah (AI disclosure) without the consent sentence", () => {
    const n = noticeFor({ callerState: null, businessState: "UT", settings: off });
    expect(n).toMatchObject({ required: true, strict: false, text: `${DEFAULT_NOTICE}.` });
  });

  it("uses the owner's words, adding the consent sentence in the strict form unless they ask for it", () => {
    const own = { noticeEnabled: true, noticeText: "Hi! You're talking to our AI helper; calls are recorded" };
    expect(noticeFor({ callerState: "NY", businessState: null, settings: own }).text).toBe("Hi! You're talking to our AI helper; calls are recorded.");
    expect(noticeFor({ callerState: "FL", businessState: null, settings: own }).text).toBe(`Hi! You're talking to our AI helper; calls are recorded. ${CONSENT_SENTENCE}`);
    const asks = { noticeEnabled: true, noticeText: "An AI answers and records this call; staying on means you agree." };
    expect(noticeFor({ callerState: "FL", businessState: null, settings: asks }).text).toBe(asks.noticeText);
  });

  it("has its own default for texts", () => {
    expect(noticeFor({ callerState: null, businessState: null, settings: on, channel: "text" }).text).toBe(`${DEFAULT_TEXT_NOTICE}.`);
  });

  it("refuses owner wording that drops the AI or the recording", () => {
    expect(noticeTextProblem("Welcome to Acme, calls may be recorded")).toMatch(/AI/);
    expect(noticeTextProblem("You're speaking with an AI assistant")).toMatch(/recorded/);
    expect(noticeTextProblem("An AI assistant answers; this call may be recorded")).toBeNull();
  });
});
