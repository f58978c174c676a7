import { extractName, extractPhone, matchPerson, matchService, spokenDigitsToText } from "./entities";
import { detectLanguage } from "./language";

describe("phone numbers", () => {
  test("said as words, digit by digit", () => {
    expect(extractPhone("five five five one two three four five six seven")).toBe("+15551234567");
    expect(extractPhone("my number is four one five five five five oh one oh oh")).toBe("+14155550100");
    expect(extractPhone("it's four one five double five five zero one zero zero")).toBe("+14155550100");
  });

  test("written or said as digits, with the usual punctuation", () => {
    expect(extractPhone("(415) 555-0100")).toBe("+14155550100");
    expect(extractPhone("call me at 415 555 0100 please")).toBe("+14155550100");
    expect(extractPhone("415.555.0100")).toBe("+14155550100");
    expect(extractPhone("+34 612 345 678")).toBe("+34612345678");
  });

  test("in Spanish", () => {
    expect(extractPhone("mi número es cuatro uno cinco cinco cinco cinco cero uno cero cero")).toBe("+14155550100");
  });

  test("too few digits, or no number, is nothing", () => {
    expect(extractPhone("five five five one two three four")).toBeUndefined();
    expect(extractPhone("I need one appointment for two people at three")).toBeUndefined();
    expect(extractPhone("no one called me")).toBeUndefined();
  });

  test("spoken digits only turn into digits inside a run", () => {
    expect(spokenDigitsToText("someone said one thing")).toBe("someone said one thing");
    expect(spokenDigitsToText("it is oh one two")).toBe("it is 012");
  });
});

describe("names", () => {
  test("the caller's own name after the usual lead-ins", () => {
    expect(extractName("this is Tom Baker", "en", false)).toBe("Tom Baker");
    expect(extractName("hi yeah this is tom baker calling about my appointment", "en", false)).toBe("Tom Baker");
    expect(extractName("my name's Ana", "en", false)).toBe("Ana");
    expect(extractName("my name is jose garcia", "en", false)).toBe("Jose Garcia");
    expect(extractName("it's Tom", "en", false)).toBe("Tom");
    expect(extractName("me llamo Ana López", "es", false)).toBe("Ana López");
    expect(extractName("soy maría", "es", false)).toBe("María");
  });

  test("a bare name only when the assistant asked for one", () => {
    expect(extractName("tom baker", "en", true)).toBe("Tom Baker");
    expect(extractName("um it's Sarah O'Neil", "en", true)).toBe("Sarah O'Neil");
    expect(extractName("tom baker", "en", false)).toBeUndefined();
  });

  test("phrases that only look like a name lead-in are not names", () => {
    expect(extractName("it's about my appointment", "en", false)).toBeUndefined();
    expect(extractName("i'm calling to reschedule", "en", false)).toBeUndefined();
    expect(extractName("this is urgent", "en", false)).toBeUndefined();
    expect(extractName("i'm looking for a haircut", "en", false)).toBeUndefined();
    expect(extractName("tuesday at 3", "en", true)).toBeUndefined();
  });
});

describe("services, fuzzy against the business's list", () => {
  const salon = ["Haircut", "Hair Color", "Blowout"];
  const dental = ["Teeth Cleaning", "Whitening", "Checkup"];
  const plumber = ["Drain Cleaning", "Water Heater Repair", "Leak Repair"];

  test("a word of the service's name, with or without the rest", () => {
    expect(matchService("can I get a color", salon)?.name).toBe("Hair Color");
    expect(matchService("anything for a haircut tomorrow morning", salon)?.name).toBe("Haircut");
    expect(matchService("i need a hair cut", salon)?.name).toBe("Haircut");
    expect(matchService("I'd like a cleaning", dental)?.name).toBe("Teeth Cleaning");
  });

  test("plurals, typos and everyday words for the same thing", () => {
    expect(matchService("do you do haircuts", salon)?.name).toBe("Haircut");
    expect(matchService("a teeth clening please", dental)?.name).toBe("Teeth Cleaning");
    expect(matchService("my drain is clogged", plumber)?.name).toBe("Drain Cleaning");
    expect(matchService("the water heater is broken", plumber)?.name).toBe("Water Heater Repair");
    expect(matchService("quiero una limpieza", dental)?.name).toBe("Teeth Cleaning");
  });

  test("nothing the business offers named is nothing", () => {
    expect(matchService("what are your hours", salon)).toBeUndefined();
    expect(matchService("can I get a color", undefined)).toBeUndefined();
  });
});

describe("people at the business", () => {
  const people = ["Dr. Chen", "Maria Lopez (hygienist)", "Sam Ortiz (owner)"];

  test("by name, with or without the title", () => {
    expect(matchPerson("is Dr. Chen in?", people)).toBe("Dr. Chen");
    expect(matchPerson("is doctor chen around", people)).toBe("Dr. Chen");
    expect(matchPerson("can I speak with maria", people)).toBe("Maria Lopez (hygienist)");
  });

  test("by a role word", () => {
    expect(matchPerson("put me through to the dentist", people)).toBe("Dr. Chen");
    expect(matchPerson("can I talk to the owner", people)).toBe("Sam Ortiz (owner)");
    expect(matchPerson("me comunica con el dentista", people)).toBe("Dr. Chen");
  });

  test("a doctor named when the business lists nobody", () => {
    expect(matchPerson("is Dr. Chen in?", undefined)).toBe("Dr. Chen");
    expect(matchPerson("can I get a haircut", people)).toBeUndefined();
  });
});

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
