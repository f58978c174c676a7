import { extractName, extractPhone, matchPerson, matchService, spokenDigitsToText, trailingName } from "./entities";

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

  test("in Spanish, and in the business's own country", () => {
    expect(extractPhone("mi número es cuatro uno cinco cinco cinco cinco cero uno cero cero")).toBe("+14155550100");
    expect(extractPhone("mi teléfono es seis uno dos tres cuatro cinco seis siete ocho", "ES")).toBe("+34612345678");
  });

  test("numbers said in pairs, hundreds, an area code and pauses", () => {
    expect(extractPhone("four fifteen five five five oh one hundred")).toBe("+14155550100");
    expect(extractPhone("area code four one five then five five five zero one zero zero")).toBe("+14155550100");
    expect(extractPhone("four one five, five five five, zero one zero zero")).toBe("+14155550100");
    expect(extractPhone("nine one seven, two two two, thirty three thirty three")).toBe("+19172223333");
    expect(extractPhone("+1 (415) 555-0100")).toBe("+14155550100");
  });

  test("too few digits, or no number, is nothing", () => {
    expect(extractPhone("five five five one two three four")).toBeUndefined();
    expect(extractPhone("I need one appointment for two people at three")).toBeUndefined();
    expect(extractPhone("no one called me")).toBeUndefined();
  });

  test("words that are also names of object properties are just words", () => {
    expect(spokenDigitsToText("constructor __proto__ toString")).toBe("constructor __proto__ toString");
    expect(extractPhone("constructor")).toBeUndefined();
  });

  test("spoken digits only turn into digits inside a run", () => {
    expect(spokenDigitsToText("someone said one thing")).toBe("someone said one thing");
    expect(spokenDigitsToText("it is oh one two")).toBe("it is 012");
  });
});

describe("names", () => {
  test("after 'my name is', a surname that is also a common word ends the utterance: kept; a filler is not", () => {
    expect(extractName("can i drop it off thursday at 7:30, name is omar said", "en", false)).toBe("Omar Said");
    expect(extractName("my name is tom here", "en", false)).toBe("Tom");
    expect(extractName("my name is ana please", "en", false)).toBe("Ana");
  });

  test("the caller's own name after the usual lead-ins", () => {
    expect(extractName("this is Tom Baker", "en", false)).toBe("Tom Baker");
    expect(extractName("hi yeah this is tom baker calling about my appointment", "en", false)).toBe("Tom Baker");
    expect(extractName("my name's Ana", "en", false)).toBe("Ana");
    expect(extractName("my name is jose garcia", "en", false)).toBe("Jose Garcia");
    expect(extractName("it's Tom", "en", false)).toBe("Tom");
    expect(extractName("me llamo Ana López", "es", false)).toBe("Ana López");
    expect(extractName("soy maría", "es", false)).toBe("María");
  });

  test("hesitations, spelled letters, 'here', courtesy titles", () => {
    expect(extractName("yeah my name is uh Tom", "en", false)).toBe("Tom");
    expect(extractName("Tom Baker here", "en", false)).toBe("Tom Baker");
    expect(extractName("my last name is baker b a k e r", "en", false)).toBe("Baker");
    expect(extractName("it's T O M", "en", true)).toBe("Tom");
    expect(extractName("soy la señora Martínez", "es", false)).toBe("Martínez");
    expect(extractName("a nombre de Carlos Ruiz", "es", false)).toBe("Carlos Ruiz");
    expect(extractName("This is Sarah with ABC Plumbing", "en", false)).toBe("Sarah");
  });

  test("someone else's name is not the caller's", () => {
    expect(extractName("I'm Tom's wife", "en", false)).toBeUndefined();
    expect(extractName("hi this is dr smith's office", "en", false)).toBeUndefined();
    expect(extractName("it's broken again", "en", false)).toBeUndefined();
    expect(extractName("i'm free on tuesday", "en", false)).toBeUndefined();
  });

  test("a bare name only when the assistant asked for one", () => {
    expect(extractName("tom baker", "en", true)).toBe("Tom Baker");
    expect(extractName("um it's Sarah O'Neil", "en", true)).toBe("Sarah O'Neil");
    expect(extractName("tom baker", "en", false)).toBeUndefined();
    expect(extractName("Tom Baker, four one five five five five oh one oh oh", "en", true)).toBe("Tom Baker");
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

describe("names said at the end or spelled with a surname (issue 27)", () => {
  it("a request signed with a name after a pause has that name; a closing phrase does not", () => {
    expect(trailingName("can you guys do a drain cleaning the day after tomorrow, like 9 ish? pete ross")).toBe("Pete Ross");
    expect(trailingName("could i come in monday the 14th at 11? hugo lane")).toBe("Hugo Lane");
    expect(trailingName("can i come in tomorrow at 3, sounds good")).toBeUndefined();
    expect(trailingName("tomorrow at 3, thanks bye")).toBeUndefined();
    expect(trailingName("pete ross")).toBeUndefined();
  });

  it("\"last name Kerr\" after a spelled first name gives the full name", () => {
    expect(extractName("it's siobhan, s i o b h a n, last name kerr", "en", false)).toBe("Siobhan Kerr");
    expect(extractName("this is tom, my last name is baker", "en", false)).toBe("Tom Baker");
  });
});

describe("whose name it is, and names said as first and last (gen3)", () => {
  it("\"his name's Biscuit\" is the dog's; the caller is who \"this is\" names", () => {
    expect(extractName("my golden, his name's biscuit, he rolled in something, could i get a full groom friday? this is megan shaw", "en", false)).toBe("Megan Shaw");
    expect(extractName("my dog's name is max, can i book a bath", "en", false)).toBeUndefined();
  });
  it("\"first name Anna, last name Kowalski\" is Anna Kowalski", () => {
    expect(extractName("cleaning friday at 9. first name anna, last name kowalski, that's k o w a l s k i", "en", false)).toBe("Anna Kowalski");
  });
  it("\"I'm honestly really upset … I'm Rachel Dunn\": the words after the first \"I'm\" are no name", () => {
    expect(extractName("i'm honestly really upset about this. i'm rachel dunn", "en", false)).toBe("Rachel Dunn");
  });
});

describe("hyphenated service names (gen3)", () => {
  const services = ["Standard Clean", "Deep Clean", "Move-out Clean", "In-home Estimate"];
  it("\"come out tonight\" names no move-out clean; \"move out clean\" and \"move-out\" do", () => {
    expect(matchService("can someone come out tonight", services)).toBeUndefined();
    expect(matchService("i need a move out clean", services)?.name).toBe("Move-out Clean");
    expect(matchService("i need a move-out clean", services)?.name).toBe("Move-out Clean");
  });
});
test("Spanish words for car and heating-and-air services (gen3-es)", () => {
  const garage = ["Oil Change", "Brake Inspection", "Diagnostic", "Tire Rotation"];
  expect(matchService("quiero un cambio de aceite mañana a las 8", garage)?.name).toBe("Oil Change");
  expect(matchService("que me revisen los frenos", garage)?.name).toBe("Brake Inspection");
  expect(matchService("una rotación de llantas", garage)?.name).toBe("Tire Rotation");
  expect(matchService("necesito un ajuste del aire acondicionado", ["AC Tune-Up", "Furnace Inspection", "Repair Visit"])?.name).toBe("AC Tune-Up");
  expect(matchService("quiero cambiar mi cita del miércoles", garage)).toBeUndefined();
});

