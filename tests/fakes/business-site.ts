/**
 * A small business website on 127.0.0.1 (random port) for import tests and the end-to-end test:
 * "Seaside Physio", a few linked pages in the shapes real sites use — a menu, a services list with
 * prices and durations, an hours table with holidays, an FAQ with a cancellation policy, a linked
 * PDF price list — plus an off-site link, redirects within and out of the site, a chain of pages
 * deeper than the import goes, and a page that errors. It records every path requested.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { makePdf } from "../helpers/pdf";

export type FakeBusinessSite = { url: string; requests: string[]; close(): Promise<void> };

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta property="og:site_name" content="Seaside Physio">
<style>.hidden{display:none}</style><script>window.dataLayer = [];</script></head>
<body>
<header><nav><ul>
  <li><a href="/">Home</a></li>
  <li><a href="/services">Services &amp; Prices</a></li>
  <li><a href="/hours">Hours &amp; Location</a></li>
  <li><a href="/faq">FAQ</a></li>
  <li><a href="https://facebook.example/seasidephysio">Facebook</a></li>
  <li><a href="mailto:hello@seaside.example">Email us</a></li>
</ul></nav></header>
<main>${body}</main>
<footer><p>Seaside Physio · Call <a href="tel:+15035550199">(503) 555-0199</a></p>
<p>88 Ocean Avenue, Suite 4<br>Portland, OR 97209</p></footer>
</body></html>`;

const pages: Record<string, string> = {
  "/": layout(
    "Seaside Physio — Physiotherapy in Portland",
    `<h1>Seaside Physio</h1>
     <p>Friendly physiotherapy for sports injuries, back pain and recovery after surgery.</p>
     <p><a href="/about">About us</a> · <a href="/deep/1">Our story</a> · <a href="/price-list.pdf">Price list (PDF)</a> · <a href="/away">Our partner clinic</a> · <a href="/broken">Careers</a></p>`,
  ),
  "/services": layout(
    "Services & Prices",
    `<h2>Services &amp; prices</h2>
     <ul>
       <li>Initial assessment (60 min) — $140</li>
       <li>Follow-up session, 45 minutes ........ $95</li>
       <li>Sports massage: from $80</li>
     </ul>
     <table><tr><th>Treatment</th><th>Length</th><th>Price</th></tr>
       <tr><td>Dry needling</td><td>30 min</td><td>$60</td></tr></table>
     <h3>We also treat</h3>
     <ul><li>Back pain</li><li>Sports injuries</li></ul>`,
  ),
  "/hours": layout(
    "Hours & Location",
    `<h2>Opening hours</h2>
     <table>
       <tr><td>Monday – Thursday</td><td>8:00 AM – 7:00 PM</td></tr>
       <tr><td>Friday</td><td>8:00 AM – 5:00 PM</td></tr>
       <tr><td>Saturday</td><td>9:00 AM – 1:00 PM</td></tr>
       <tr><td>Sunday</td><td>Closed</td></tr>
     </table>
     <h3>Holiday hours</h3>
     <p>Closed on Thanksgiving Day (November 26).</p>
     <p>Christmas Eve, December 24: 9am–12pm.</p>
     <h3>Find us</h3>
     <address>88 Ocean Avenue, Suite 4<br>Portland, OR 97209</address>
     <p>Free parking is available behind the building.</p>`,
  ),
  "/faq": layout(
    "FAQ",
    `<h2>Frequently asked questions</h2>
     <h3>Do I need a referral?</h3>
     <p>No. You can book directly with us; no doctor's referral is needed.</p>
     <h3>Does insurance cover physiotherapy?</h3>
     <p>Most extended health plans cover physiotherapy. We bill your insurer directly.</p>
     <h2>Cancellation policy</h2>
     <p>Please give us 24 hours' notice if you need to cancel or move an appointment. Late cancellations are charged half the session fee.</p>`,
  ),
  "/about": layout("About", `<h2>About us</h2><p>Founded in 2015 by two physiotherapists who love the ocean.</p>`),
  "/deep/1": layout("Story 1", `<p>Chapter one. <a href="/deep/2">Next</a></p>`),
  "/deep/2": layout("Story 2", `<p>Chapter two. <a href="/deep/3">Next</a></p>`),
  "/deep/3": layout("Story 3", `<p>Chapter three: Sunday 10am–2pm yoga.</p>`),
};

export async function startBusinessSite(): Promise<FakeBusinessSite> {
  const requests: string[] = [];
  const pdf = makePdf(["Seaside Physio price list", "Kinesio taping $25", "Home visit (60 min) $180"]);
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    requests.push(path);
    if (path === "/price-list.pdf") {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": pdf.length });
      return res.end(pdf);
    }
    if (path === "/away") {
      res.writeHead(302, { location: "http://partner.example/" });
      return res.end();
    }
    if (path === "/old-faq") {
      res.writeHead(301, { location: "/faq" });
      return res.end();
    }
    if (path === "/broken") {
      res.writeHead(500, { "content-type": "text/plain" });
      return res.end("oops");
    }
    const page = pages[path];
    if (!page) {
      res.writeHead(404, { "content-type": "text/html" });
      return res.end("<h1>Not found</h1>");
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
