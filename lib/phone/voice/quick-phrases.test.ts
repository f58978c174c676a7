import { quickPhrasesFor } from "./quick-phrases";

describe("quickPhrasesFor", () => {
  it("fits a bakery's services and questions, five phrases", () => {
    const phrases = quickPhrasesFor({
      businessName: "Rosa's Bakery",
      services: [{ name: "Custom cake order" }, { name: "Catering platter" }],
      faqs: [{ question: "Do you have gluten-free bread?" }],
    });
    expect(phrases).toEqual([
      "Hello, I'd like to book a custom cake order",
      "What are your opening hours?",
      "How much does a catering platter cost?",
      "Can I speak to a person?",
      "Do you have gluten-free bread?",
    ]);
  });

  it("never mentions a dental cleaning for a business that did not say so, and keeps five", () => {
    const phrases = quickPhrasesFor({ businessName: "Rosa's Bakery" });
    expect(phrases).toHaveLength(5);
    expect(phrases.join(" ")).not.toMatch(/cleaning/i);
    expect(phrases[4]).toBe("Where is Rosa's Bakery located?");
  });

  it("skips inactive services", () => {
    expect(quickPhrasesFor({ services: [{ name: "Old thing", isActive: false }, { name: "Oil change" }] })[0]).toBe(
      "Hello, I'd like to book an oil change",
    );
  });
});
