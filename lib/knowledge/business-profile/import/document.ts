import { Parser } from "htmlparser2";

/**
 * A page or file reduced to what fact extraction reads: its blocks of text in reading order, each
 * typed by the element it came from (a heading, a list item, a table row, a question and its
 * answer…; a "break" with no text where a page region — header, footer, section — starts or ends), plus the page's links, `tel:` numbers and schema.org JSON-LD. HTML is parsed with
 * htmlparser2 (a tolerant, browser-like tokenizer); scripts, styles, navigation menus and hidden
 * templates are dropped.
 */
export type BlockType = "heading" | "text" | "item" | "row" | "term" | "definition" | "address" | "break";
export type Block = { type: BlockType; text: string; level?: number };

export type SourceDocument = {
  /** The page URL or file name. */
  source: string;
  title: string;
  blocks: Block[];
  links: { href: string; text: string }[];
  phones: string[];
  jsonLd: unknown[];
  siteName: string | null;
};

const SKIP = new Set(["script", "style", "noscript", "template", "svg", "iframe", "object", "canvas", "nav", "select", "button", "head"]);
const BLOCK = new Set([
  "p", "div", "section", "article", "header", "footer", "main", "aside", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dt", "dd",
  "tr", "table", "tbody", "thead", "tfoot", "ul", "ol", "dl", "address", "blockquote", "pre", "form", "figure", "figcaption",
  "summary", "details", "hr", "fieldset", "legend", "caption", "body", "html", "center", "menu",
]);
const TYPED: Record<string, BlockType> = { li: "item", dt: "term", dd: "definition", tr: "row", summary: "term", address: "address", caption: "heading", legend: "heading" };
const CELLS = new Set(["td", "th"]);
/** Regions: what follows one is not part of the section before it (a footer after an FAQ answer). */
const REGIONS = new Set(["header", "footer", "aside", "section", "article", "main"]);
const VOID = new Set(["br", "hr", "img", "input", "meta", "link", "area", "base", "col", "embed", "source", "track", "wbr"]);

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const clean = (s: string) => s.replace(/[\u00a0\u2000-\u200b\u202f\u205f\u3000]/g, " ").replace(/\s+/g, " ").trim();

export type ParseLimits = { maxBlocks?: number };

export function parseHtml(html: string, source: string, limits: ParseLimits = {}): SourceDocument {
  const maxBlocks = limits.maxBlocks ?? 5000;
  const blocks: Block[] = [];
  const links: { href: string; text: string }[] = [];
  const phones: string[] = [];
  const jsonLd: unknown[] = [];
  let title = "";
  let siteName: string | null = null;
  let base = source;

  /** Open elements; `skip` marks those whose content is dropped (scripts, menus, hidden parts). */
  const stack: { name: string; skip: boolean }[] = [];
  let skipDepth = 0;
  let buffer = "";
  let cellCount = 0;
  let inTitle = false;
  let inJsonLd = false;
  let jsonBuffer = "";
  let link: { href: string; text: string } | null = null;

  const currentType = (extra?: string): { type: BlockType; level?: number } => {
    const names = [...stack.map((e) => e.name), ...(extra ? [extra] : [])];
    for (let i = names.length - 1; i >= 0; i--) {
      const tag = names[i];
      if (/^h[1-6]$/.test(tag)) return { type: "heading", level: Number(tag[1]) };
      if (TYPED[tag]) return { type: TYPED[tag] };
    }
    return { type: "text" };
  };

  const boundary = () => {
    if (blocks.length && blocks[blocks.length - 1].type !== "break" && blocks.length < maxBlocks) blocks.push({ type: "break", text: "" });
  };

  const flush = (closing?: string) => {
    const text = clean(buffer).replace(/^\|\s*|\s*\|$/g, "").trim();
    buffer = "";
    if (!text || blocks.length >= maxBlocks) return;
    const { type, level } = currentType(closing);
    blocks.push(level ? { type, text, level } : { type, text });
  };

  const resolve = (href: string): string | null => {
    try {
      return new URL(href, base).toString();
    } catch {
      return null;
    }
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === "base" && attribs.href) base = resolve(attribs.href) ?? base;
        if (name === "meta") {
          const property = (attribs.property ?? attribs.name ?? "").toLowerCase();
          if (property === "og:site_name" && attribs.content) siteName = clean(attribs.content);
        }
        if (name === "title") inTitle = true;
        if (name === "script" && /ld\+json/i.test(attribs.type ?? "")) {
          inJsonLd = true;
          jsonBuffer = "";
        }
        if (VOID.has(name)) {
          if (skipDepth > 0) return;
          if (name === "br" || name === "hr") flush();
          return;
        }
        const skip =
          SKIP.has(name) || attribs.hidden !== undefined || /display\s*:\s*none/i.test(attribs.style ?? "") || attribs["aria-hidden"] === "true";
        if (skipDepth === 0 && !skip) {
          if (BLOCK.has(name)) {
            flush();
            if (REGIONS.has(name)) boundary();
            if (name === "tr") cellCount = 0;
          } else if (CELLS.has(name)) {
            if (cellCount++ > 0) buffer += " | ";
          }
        }
        // Links count even inside menus (a site's navigation is how its pages are found).
        if (name === "a" && attribs.href) {
          const href = attribs.href.trim();
          if (/^tel:/i.test(href)) phones.push(safeDecode(href.slice(4)).trim());
          const resolved = /^(mailto|tel|javascript|data|sms):/i.test(href) ? null : resolve(href);
          link = resolved ? { href: resolved, text: "" } : null;
        }
        stack.push({ name, skip });
        if (skip) skipDepth++;
      },
      ontext(text) {
        if (inTitle) title += text;
        if (inJsonLd) jsonBuffer += text;
        if (link) link.text += text;
        if (skipDepth > 0) return;
        buffer += text;
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
        if (name === "script" && inJsonLd) {
          inJsonLd = false;
          try {
            jsonLd.push(JSON.parse(jsonBuffer) as unknown);
          } catch {
            // Broken JSON-LD is common; the page's text still counts.
          }
        }
        if (VOID.has(name)) return;
        if (name === "a" && link) {
          link.text = clean(link.text);
          links.push(link);
          link = null;
        }
        let index = -1;
        for (let i = stack.length - 1; i >= 0; i--) {
          if (stack[i].name === name) {
            index = i;
            break;
          }
        }
        if (index === -1) return;
        const wasSkipping = skipDepth > 0;
        const closing = stack.splice(index);
        skipDepth -= closing.filter((e) => e.skip).length;
        if (wasSkipping) return;
        // The block's own type applies to the text collected inside it.
        if (BLOCK.has(name)) flush(name);
        if (REGIONS.has(name)) boundary();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return { source, title: clean(title), blocks, links, phones, jsonLd, siteName };
}

/**
 * Plain text (a .txt or .md file, or a PDF's text) as blocks: one per line; markdown "#" lines and
 * short lines ending in ":" are headings, "-", "*", "•" or "1." lines are items, "|" lines are rows.
 */
export function parseText(text: string, source: string): SourceDocument {
  const blocks: Block[] = [];
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = clean(raw);
    if (!line || /^[-=_*#|: ]+$/.test(line)) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ type: "heading", text: heading[2].replace(/[#*_]+/g, "").trim(), level: heading[1].length });
    } else if (/^([-*•●▪◦]|\d{1,2}[.)])\s+/.test(line)) {
      blocks.push({ type: "item", text: line.replace(/^([-*•●▪◦]|\d{1,2}[.)])\s+/, "").replace(/\*\*|__/g, "") });
    } else if (line.startsWith("|") || line.split("|").length >= 3) {
      blocks.push({ type: "row", text: line.replace(/^\||\|$/g, "").split("|").map((c) => c.trim()).filter(Boolean).join(" | ") });
    } else if (line.length <= 60 && /:$/.test(line) && !/\d/.test(line)) {
      blocks.push({ type: "heading", text: line.replace(/:$/, ""), level: 3 });
    } else if (line.length <= 50 && /^[A-Z0-9 &'/-]+$/.test(line) && /[A-Z]{3}/.test(line)) {
      blocks.push({ type: "heading", text: line, level: 3 });
    } else {
      blocks.push({ type: "text", text: line.replace(/\*\*|__/g, "") });
    }
  }
  return { source, title: "", blocks, links: [], phones: [], jsonLd: [], siteName: null };
}

/** All of a document's text, one block a line (what the owner sees as "read from the page"). */
export function documentText(doc: SourceDocument): string {
  return doc.blocks.filter((b) => b.text).map((b) => b.text).join("\n");
}
