/** Keyword matching for knowledge: stems, synonyms, question detection and the key that makes repeats one gap. */
import { bestMatch, isQuestion, keywords, questionKey, stem } from "./match";

describe("text matching", () => {
  it("stems plurals and -ing forms to one word", () => {
    expect(["cleanings", "cleaning", "clean"].map(stem)).toEqual(["clean", "clean", "clean"]);
    expect(stem("cancelling")).toBe("cancel");
    expect(stem("policies")).toBe("policy");
    expect(stem("glass")).toBe("glass");
  });

  it("drops common words and folds synonyms", () => {
    expect([...keywords("Do you take my insurance?")]).toEqual(["accept", "insurance"]);
    expect([...keywords("How much does it cost?")]).toEqual(["price"]);
  });

  it("finds the closest FAQ above a threshold, and none for unrelated questions", () => {
    const faqs = ["Do you have parking?", "Which insurance do you accept?", "Do you see children?"];
    expect(bestMatch("Is there parking nearby?", faqs, (f) => f, 0.5)?.item).toBe("Do you have parking?");
    expect(bestMatch("do you take insurance", faqs, (f) => f, 0.5)?.item).toBe("Which insurance do you accept?");
    expect(bestMatch("Can I bring my kids?", faqs, (f) => f, 0.5)?.item).toBe("Do you see children?");
    expect(bestMatch("Do you offer Invisalign?", faqs, (f) => f, 0.5)).toBeNull();
  });

  it("tells questions from statements", () => {
    for (const q of ["Do you open on Sundays", "hi, what time do you close", "I wanted to know if you take walk-ins", "Any parking?", "Is it free?"]) expect(isQuestion(q)).toBe(true);
    for (const s of ["Thanks, bye", "I'll call back later", "My name is Ana"]) expect(isQuestion(s)).toBe(false);
  });

  it("gives the same key to the same question asked differently", () => {
    expect(questionKey("Do you offer Invisalign?")).toBe(questionKey("do you offer invisalign"));
    expect(questionKey("Do you take insurance?")).toBe(questionKey("Do you accept insurance"));
    expect(questionKey("Do you offer Invisalign?")).not.toBe(questionKey("Do you offer whitening?"));
  });
});
