import { parse } from "csv-parse/sync";
import { toCsv } from "./csv";

/** Reads the file back as a spreadsheet would: an RFC 4180 parser (csv-parse), the BOM dropped. */
const readBack = (csv: string): string[][] => parse(csv, { bom: true, relax_column_count: false });

describe("CSV for spreadsheets", () => {
  it("quotes commas, quotes and line breaks, defuses formulas, and starts with a byte-order mark", () => {
    const csv = toCsv(["a", "b"], [["=HYPERLINK(\"x\")", "Smith, Jo"], ["+1 555", 'say "hi"\nthere'], [null, 3]]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv.slice(1).split("\r\n")).toEqual(["a,b", `"'=HYPERLINK(""x"")","Smith, Jo"`, `'+1 555,"say ""hi""\nthere"`, ",3", ""]);
  });

  it("parses back to the same cells, with every formula start (= + - @ tab CR) made text and numbers left as numbers", () => {
    const cells = [
      ["=1+2", "+15555550123", "-2+3", "@SUM(A1)", "\t=cmd", "\r=x"],
      ['He said "no", then left', "line one\r\nline two", "José Müller — ✓", "•••• 0123", "", "plain"],
    ];
    const back = readBack(toCsv(["f1", "f2", "f3", "f4", "f5", "f6"], [...cells, [-5, 0, 12.5, null, undefined, "x,y"]]));
    expect(back[0]).toEqual(["f1", "f2", "f3", "f4", "f5", "f6"]);
    expect(back[1]).toEqual(cells[0].map((c) => `'${c}`));
    expect(back[2]).toEqual(cells[1]);
    expect(back[3]).toEqual(["-5", "0", "12.5", "", "", "x,y"]);
    // Nothing a spreadsheet would evaluate: no cell starts with a formula character.
    for (const row of back.slice(1)) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]\D/);
  });
});
