/**
 * Fact extraction from pages and documents, offline and deterministic: HTML to blocks, schema.org
 * JSON-LD, hours in the forms websites write them, services with prices and durations, holidays,
 * policies and FAQs; PDFs through pdf.js.
 */
import { makePdf } from "@/tests/helpers/pdf";
import { parseHtml, parseText } from "./document";
import { extractFacts, findDate, parseDuration, type RawFact } from "./extract";
import { parseHoursLine, parseRange } from "./parse-hours";
import { pdfToText } from "./pdf";

const today = "2026-11-23";
const facts = (html: string) => extractFacts([parseHtml(html, "https://biz.example/")], { today });
const ofKind = <K extends RawFact["kind"]>(list: RawFact[], kind: K) => list.filter((f): f is Extract<RawFact, { kind: K }> => f.kind === kind);

describe("HTML to blocks", () => {
  it("keeps text in reading order, typed, without scripts, styles, menus or hidden parts", () => {
    const doc = parseHtml(
      `<html><head><title>Bob&#39;s Bikes</title><script>var x = "<p>not text</p>";</script><style>p{color:red}</style></head>
       <body><nav><a href="/shop">Shop</a></nav><h2>Repairs</h2><p>Flat tyre <b>fixed</b>&nbsp;fast<br>Same day</p>
       <div hidden>secret</div><div style="display: none">gone</div><template><p>later</p></template>
       <ul><li>Tune-up</li></ul><table><tr><td>Mon</td><td>9-5</td></tr></table>
       <a href="tel:+1 (555) 010-0000">call</a> <a href="mailto:x@y.z">mail</a> <a href="../about#team">About</a></body></html>`,
      "https://bikes.example/pages/",
    );
    expect(doc.title).toBe("Bob's Bikes");
    expect(doc.blocks.filter((b) => b.text)).toEqual([
      { type: "heading", text: "Repairs", level: 2 },
      { type: "text", text: "Flat tyre fixed fast" },
      { type: "text", text: "Same day" },
      { type: "item", text: "Tune-up" },
      { type: "row", text: "Mon | 9-5" },
      { type: "text", text: "call mail About" },
    ]);
    expect(doc.links.map((l) => l.href)).toEqual(["https://bikes.example/shop", "https://bikes.example/about#team"]);
    expect(doc.phones).toEqual(["+1 (555) 010-0000"]);
  });

  it("reads plain text and Markdown: headings, items and table rows", () => {
    const doc = parseText("# Our prices\n\n- Cut & style — $45\n* Colour: from $90\n| Blow dry | 30 min | $35 |\nOPENING HOURS\nMon-Sat 9-6\n", "salon.md");
    expect(doc.blocks).toEqual([
      { type: "heading", text: "Our prices", level: 1 },
      { type: "item", text: "Cut & style — $45" },
      { type: "item", text: "Colour: from $90" },
      { type: "row", text: "Blow dry | 30 min | $35" },
      { type: "heading", text: "OPENING HOURS", level: 3 },
      { type: "text", text: "Mon-Sat 9-6" },
    ]);
  });
});

describe("hours", () => {
  it.each([
    ["9am-5pm", "9am", "5pm", { open: "09:00", close: "17:00" }],
    ["9-5", "9", "5", { open: "09:00", close: "17:00" }],
    ["1-5", "1", "5", { open: "13:00", close: "17:00" }],
    ["12-8", "12", "8", { open: "12:00", close: "20:00" }],
    ["9-5pm", "9", "5pm", { open: "09:00", close: "17:00" }],
    ["08:30-17:30", "08:30", "17:30", { open: "08:30", close: "17:30" }],
    ["6pm-12am", "6pm", "12am", { open: "18:00", close: "24:00" }],
    ["noon-9pm", "noon", "9pm", { open: "12:00", close: "21:00" }],
  ])("%s", (_label, open, close, expected) => {
    expect(parseRange(open, close)).toEqual(expected);
  });

  it("reads days, day ranges and lists with their times or 'closed'", () => {
    expect(parseHoursLine("Mon-Thu 8:30am-5:30pm, Fri 8:30am-1pm, Sat-Sun closed")).toEqual([
      { days: ["mon", "tue", "wed", "thu"], ranges: [{ open: "08:30", close: "17:30" }], closed: false },
      { days: ["fri"], ranges: [{ open: "08:30", close: "13:00" }], closed: false },
      { days: ["sat", "sun"], ranges: [], closed: true },
    ]);
    expect(parseHoursLine("Weekdays 8-12 & 1-5")[0].ranges).toEqual([{ open: "08:00", close: "12:00" }, { open: "13:00", close: "17:00" }]);
    expect(parseHoursLine("Tuesday through Saturday, noon to 9pm")[0].days).toEqual(["tue", "wed", "thu", "fri", "sat"]);
    expect(parseHoursLine("Open 24 hours, 7 days a week")[0]).toEqual({ days: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], ranges: [{ open: "00:00", close: "24:00" }], closed: false });
    expect(parseHoursLine("Fri–Mon 10:00–16:00")[0].days).toEqual(["fri", "sat", "sun", "mon"]);
  });

  it("finds a schedule in a page: rows, day lines with times on the next line, and ignores stray mentions", () => {
    const found = ofKind(
      facts(`<h2>Hours</h2><p>Monday – Friday</p><p>9:00 AM – 5:00 PM</p><p>Saturday: 10 a.m. – 2 p.m.</p><p>Sunday: Closed</p>
             <p>Join our yoga class on Sunday at 6pm!</p>`),
      "hours",
    );
    expect(found).toHaveLength(1);
    expect(found[0].weeklyHours).toEqual({
      mon: [{ open: "09:00", close: "17:00" }],
      tue: [{ open: "09:00", close: "17:00" }],
      wed: [{ open: "09:00", close: "17:00" }],
      thu: [{ open: "09:00", close: "17:00" }],
      fri: [{ open: "09:00", close: "17:00" }],
      sat: [{ open: "10:00", close: "14:00" }],
      sun: [],
    });
    expect(ofKind(facts(`<p>We had a great Saturday 5pm party.</p>`), "hours")).toEqual([]);
  });
});

describe("JSON-LD", () => {
  it("reads a LocalBusiness: name, address, phone, opening hours and special days", () => {
    const json = {
      "@context": "https://schema.org",
      "@graph": [
        {
          "@type": ["Dentist", "LocalBusiness"],
          name: "Harbor Dental Studio",
          telephone: "+1-503-555-0142",
          address: { "@type": "PostalAddress", streetAddress: "214 Harbor Street", addressLocality: "Portland", addressRegion: "OR", postalCode: "97201" },
          openingHoursSpecification: [
            { "@type": "OpeningHoursSpecification", dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"], opens: "08:00", closes: "18:00" },
            { "@type": "OpeningHoursSpecification", dayOfWeek: "https://schema.org/Saturday", opens: "09:00", closes: "13:00" },
          ],
          specialOpeningHoursSpecification: [{ validFrom: "2026-12-24", validThrough: "2026-12-24", opens: "08:00", closes: "12:00", name: "Christmas Eve" }],
        },
      ],
    };
    const found = facts(`<script type="application/ld+json">${JSON.stringify(json)}</script><p>Welcome</p>`);
    expect(found.find((f) => f.kind === "name")).toMatchObject({ value: "Harbor Dental Studio" });
    expect(found.find((f) => f.kind === "address")).toMatchObject({ value: "214 Harbor Street, Portland, OR 97201" });
    expect(found.find((f) => f.kind === "phone")).toMatchObject({ value: "+1-503-555-0142" });
    expect(found.find((f) => f.kind === "timezone")).toMatchObject({ value: "America/Los_Angeles" });
    const hours = ofKind(found, "hours")[0];
    expect(hours.weeklyHours.mon).toEqual([{ open: "08:00", close: "18:00" }]);
    expect(hours.weeklyHours.sat).toEqual([{ open: "09:00", close: "13:00" }]);
    expect(hours.weeklyHours.sun).toEqual([]);
    expect(ofKind(found, "holiday")).toEqual([expect.objectContaining({ date: "2026-12-24", name: "Christmas Eve", hours: [{ open: "08:00", close: "12:00" }] })]);
    // Broken JSON-LD is skipped; the text still counts.
    expect(() => facts(`<script type="application/ld+json">{broken</script>`)).not.toThrow();
  });
});

describe("services, holidays, policies and FAQs", () => {
  it("reads services with prices, ranges and durations, and not totals or sentences", () => {
    const found = ofKind(
      facts(`<h2>Pricing</h2><ul>
        <li>Haircut (30 min) $25</li><li>Colour ........ $80–$120</li><li>Balayage from $150</li><li>Beard trim: $15.50</li>
        <li>Total: $200</li><li>We have been serving the neighbourhood for twenty years and love what we do for $0</li></ul>
        <h3>Deep tissue massage</h3><p>$95 · 1 hour 30 minutes</p><p>Firm pressure for knots.</p>
        <dl><dt>Facial</dt><dd>Cleanse, mask and massage. 45 min, $70</dd></dl>`),
      "service",
    );
    expect(found.map(({ name, priceCents, priceText, durationMinutes, description }) => ({ name, priceCents, priceText, durationMinutes, description }))).toEqual([
      { name: "Haircut", priceCents: 2500, priceText: undefined, durationMinutes: 30, description: undefined },
      { name: "Colour", priceCents: undefined, priceText: "$80–$120", durationMinutes: undefined, description: undefined },
      { name: "Balayage", priceCents: undefined, priceText: "from $150", durationMinutes: undefined, description: undefined },
      { name: "Beard trim", priceCents: 1550, priceText: undefined, durationMinutes: undefined, description: undefined },
      { name: "Deep tissue massage", priceCents: 9500, priceText: undefined, durationMinutes: 90, description: "Firm pressure for knots." },
      { name: "Facial", priceCents: 7000, priceText: undefined, durationMinutes: 45, description: "Cleanse, mask and massage." },
    ]);
    expect(parseDuration("1h 30m")).toBe(90);
    expect(parseDuration("2 hours")).toBe(120);
  });

  it("lists services without prices under a services heading", () => {
    const found = ofKind(facts(`<h2>Our services</h2><ul><li>Cleanings</li><li>Whitening</li><li>Call us to find out more about everything we do.</li></ul>`), "service");
    expect(found.map((f) => f.name)).toEqual(["Cleanings", "Whitening"]);
  });

  it("reads dates without a year as the next one, and holiday closures and special hours", () => {
    expect(findDate("Closed Dec 25", today)?.date).toBe("2026-12-25");
    expect(findDate("Closed on January 1", today)?.date).toBe("2027-01-01");
    expect(findDate("closed 4th of July 2027", today)?.date).toBe("2027-07-04");
    expect(findDate("2026-12-31", today)?.date).toBe("2026-12-31");
    const found = ofKind(facts(`<h3>Holiday hours</h3><p>Closed on Thanksgiving Day (November 26).</p><p>New Year's Eve, December 31: 10am–2pm</p><p>Our sale ends December 1.</p>`), "holiday");
    expect(found.map(({ date, name, hours }) => ({ date, name, hours }))).toEqual([
      { date: "2026-11-26", name: "Thanksgiving Day", hours: undefined },
      { date: "2026-12-31", name: "New Year's Eve", hours: [{ open: "10:00", close: "14:00" }] },
    ]);
  });

  it("reads FAQs in headings, definition lists, Q:/A: text and one-line pairs, skipping calls to action", () => {
    const found = ofKind(
      facts(`<h3>Do you take walk-ins?</h3><p>Yes, when a chair is free.</p><p>Otherwise book online.</p>
             <dl><dt>Is there parking?</dt><dd>Two spaces out front.</dd></dl>
             <p>Q: Can I bring my dog?</p><p>A: Yes, well-behaved dogs are welcome.</p>
             <p>Do you sell gift cards? Yes, in any amount.</p>
             <h2>Ready to book?</h2><p>Call us today!</p>`),
      "faq",
    );
    expect(found.map(({ question, answer }) => ({ question, answer }))).toEqual([
      { question: "Do you take walk-ins?", answer: "Yes, when a chair is free. Otherwise book online." },
      { question: "Is there parking?", answer: "Two spaces out front." },
      { question: "Can I bring my dog?", answer: "Yes, well-behaved dogs are welcome." },
      { question: "Do you sell gift cards?", answer: "Yes, in any amount." },
    ]);
  });

  it("reads policy sections and rule sentences, not the site's privacy policy", () => {
    const found = ofKind(
      facts(`<h2>Cancellation Policy</h2><p>We ask for 48 hours' notice. Missed appointments are charged in full.</p>
             <h2>Privacy Policy</h2><p>We store cookies and personal data to run this website.</p>
             <p>We accept Visa, Mastercard and cash.</p>`),
      "policy",
    );
    expect(found.map(({ title, text }) => ({ title, text }))).toEqual([
      { title: "Cancellation Policy", text: "We ask for 48 hours' notice. Missed appointments are charged in full." },
      { title: "Payment and insurance", text: "We accept Visa, Mastercard and cash." },
    ]);
  });

  it("reads a US address written across lines, and the state's time zone", () => {
    const found = facts(`<footer><p>Visit us</p><p>1200 W Main St, Suite 5</p><p>Boise, ID 83702</p><p>Phone: 208-555-0101</p></footer>`);
    expect(found.find((f) => f.kind === "address")).toMatchObject({ value: "1200 W Main St, Suite 5, Boise, ID 83702" });
    expect(found.find((f) => f.kind === "timezone")).toMatchObject({ value: "America/Boise" });
    expect(found.find((f) => f.kind === "phone")).toMatchObject({ value: "208-555-0101" });
  });
});

describe("PDF", () => {
  it("extracts the text of a PDF line by line with pdf.js", async () => {
    const { text, pages } = await pdfToText(makePdf(["Harbor Dental Studio", "Monday - Friday: 8:00 AM - 6:00 PM", "Teeth cleaning (60 min) $120"]));
    expect(pages).toBe(1);
    expect(text.split("\n")).toEqual(["Harbor Dental Studio", "Monday - Friday: 8:00 AM - 6:00 PM", "Teeth cleaning (60 min) $120"]);
  });

  it("refuses bytes that are not a PDF", async () => {
    await expect(pdfToText(Buffer.from("%PDF-1.4 this is not really a pdf"))).rejects.toThrow("This file could not be read as a PDF");
  });
});
