import { detectLanguage } from "./language";

describe("language", () => {
  test("Spanish sentences are Spanish, English ones English", () => {
    expect(detectLanguage("quiero una cita para el martes")).toBe("es");
    expect(detectLanguage("se me rompió una tubería")).toBe("es");
    expect(detectLanguage("necesito hablar con alguien")).toBe("es");
    expect(detectLanguage("I'd like to book a cleaning for Tuesday")).toBe("en");
    expect(detectLanguage("we can lower your merchant processing rates")).toBe("en");
    expect(detectLanguage("do you offer dental implants")).toBe("en");
  });

  test("short utterances are English unless clearly Spanish", () => {
    expect(detectLanguage("sí")).toBe("es");
    expect(detectLanguage("si")).toBe("es");
    expect(detectLanguage("gracias")).toBe("es");
    expect(detectLanguage("hola")).toBe("es");
    expect(detectLanguage("yes")).toBe("en");
    expect(detectLanguage("ok")).toBe("en");
    expect(detectLanguage("Tom")).toBe("en");
    expect(detectLanguage("no")).toBe("en");
  });

  test("the conversation's language is the prior for words both languages share", () => {
    expect(detectLanguage("no", "es")).toBe("es");
    expect(detectLanguage("Tom", "es")).toBe("es");
    expect(detectLanguage("ok", "es")).toBe("es");
    expect(detectLanguage("I'd like to book a cleaning for Tuesday", "es")).toBe("en");
  });
});
