/**
 * Plays the carrier in integration tests: form-encoded POSTs to the telephony route handlers, signed
 * with the real `twilio` package (`getExpectedTwilioSignature`), and TwiML answers parsed as XML.
 */
import { DOMParser, type Element as XmlElement } from "@xmldom/xmldom";
import twilio from "twilio";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response> | Response;

export const BASE = "http://localhost:3000";

export type Verb = { name: string; attrs: Record<string, string>; text: string; children: Verb[] };

export type CarrierResult = { status: number; text: string; headers: Headers; verbs: Verb[]; root: string | null };

function toVerb(el: XmlElement): Verb {
  const attrs: Record<string, string> = {};
  for (let i = 0; i < el.attributes.length; i++) attrs[el.attributes[i].name] = el.attributes[i].value;
  const children: Verb[] = [];
  let text = "";
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) children.push(toVerb(n as XmlElement));
    else if (n.nodeType === 3 || n.nodeType === 4) text += n.nodeValue ?? "";
  }
  return { name: el.tagName, attrs, text: text.trim(), children };
}

/** Parses TwiML strictly (a parse error fails the test). */
export function parseTwiml(xml: string): { root: string; verbs: Verb[] } {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level: string, message: string) => {
      if (level !== "warning") errors.push(message);
    },
  }).parseFromString(xml, "text/xml");
  if (errors.length) throw new Error(`Invalid TwiML: ${errors.join("; ")}\n${xml}`);
  const root = doc.documentElement;
  if (!root) throw new Error(`Empty TwiML: ${xml}`);
  return { root: root.tagName, verbs: toVerb(root as unknown as XmlElement).children };
}

export type SignOptions = { signature?: string | null; token?: string; url?: string };

/** POSTs `params` to `path` (query included) signed with `token`, as Twilio would. */
export async function carrierPost(handler: Handler, path: string, params: Record<string, string>, token: string, options: SignOptions = {}): Promise<CarrierResult> {
  const url = `${BASE}${path}`;
  const signature = options.signature !== undefined ? options.signature : twilio.getExpectedTwilioSignature(options.token ?? token, options.url ?? url, params);
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
  if (signature !== null) headers.set("x-twilio-signature", signature);
  const req = new Request(url, { method: "POST", headers, body: new URLSearchParams(params).toString() });
  const res = await handler(req, { params: Promise.resolve({}) });
  const text = await res.text();
  let verbs: Verb[] = [];
  let root: string | null = null;
  if (res.headers.get("content-type")?.includes("xml")) {
    const parsed = parseTwiml(text);
    verbs = parsed.verbs;
    root = parsed.root;
  }
  return { status: res.status, text, headers: res.headers, verbs, root };
}

/** The path and query of an absolute action URL from TwiML. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

export function find(verbs: Verb[], name: string): Verb | undefined {
  for (const v of verbs) {
    if (v.name === name) return v;
    const inner = find(v.children, name);
    if (inner) return inner;
  }
  return undefined;
}

let sidCounter = 0;
export function fakeSid(prefix: "CA" | "SM" | "RE" | "PN"): string {
  sidCounter += 1;
  return prefix + (Date.now().toString(16) + sidCounter.toString(16).padStart(6, "0") + Math.random().toString(16).slice(2)).padEnd(32, "0").slice(0, 32);
}
