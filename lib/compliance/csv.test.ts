import { toCsv } from "./csv";

describe("CSV for spreadsheets", () => {
  it("quotes commas, quotes and line breaks, defuses formulas, and starts with a byte-order mark", () => {
    const csv = toCsv(["a", "b"], [["=HYPERLINK(\"x\")", "Smith, Jo"], ["+1 555", 'say "hi"\nthere'], [null, 3]]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv.slice(1).split("\r\n")).toEqual(["a,b", `"'=HYPERLINK(""x"")","Smith, Jo"`, `'+1 555,"say ""hi""\nthere"`, ",3", ""]);
  });
});
