import { healthFigure, sentimentFigure, sentimentText, uptimePercent } from "./index";

describe("one definition of each figure (issue 30 point 4)", () => {
  it("sentiment: positive is a score of 4 or 5, the average is the mean score, the analysed count is said", () => {
    const f = sentimentFigure({ veryPositive: 1, positive: 0, neutral: 1, negative: 1, scoreSum: 5 + 3 + 1 });
    expect(f).toEqual({ analysedCalls: 3, average: 3, positivePercent: 33 });
    expect(sentimentText(f)).toBe("33% positive, average 3.0/5 from 3 analysed calls");
    expect(sentimentText(sentimentFigure({ veryPositive: 0, positive: 0, neutral: 0, negative: 0, scoreSum: 0 }))).toBe("No analysed calls in this range");
  });

  it("a missing optional component is Degraded and named, never Offline", () => {
    const f = healthFigure([
      { component: "database", status: "operational", detail: "" },
      { component: "llm", status: "operational", detail: "" },
      { component: "tts", status: "operational", detail: "" },
      { component: "stt", status: "offline", detail: "No speech recognition installed or configured" },
    ]);
    expect(f.status).toBe("degraded");
    expect(f.headline).toBe("Degraded: voicemail transcription not installed");
    expect(f.problems[0].howTo).toMatch(/PocketSphinx/);
  });

  it("Offline only when the database or the language model does not answer", () => {
    const f = healthFigure([
      { component: "database", status: "offline", detail: "connection refused" },
      { component: "llm", status: "operational", detail: "" },
    ]);
    expect(f.status).toBe("offline");
    expect(f.headline).toBe("Offline: database not answering");
    expect(healthFigure([{ component: "database", status: "operational", detail: "" }]).status).toBe("operational");
    expect(healthFigure([]).status).toBe("unknown");
  });

  it("uptime: core checks answered over all checks; nothing measured is null", () => {
    expect(uptimePercent(0, 0)).toBeNull();
    expect(uptimePercent(3, 2)).toBe(66.7);
  });
});
