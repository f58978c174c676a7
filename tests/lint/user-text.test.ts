/**
 * Words meant for engineers never reach users (issue 10 §1): no tracker issues, spec sections or
 * "arrives with …" notes in what the screens and the integration catalogue show. Comments may say
 * anything; string literals and JSX text may not.
 */
import fs from "node:fs";
import path from "node:path";

const root = process.cwd();

function files(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) files(rel, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/** The source without comments (good enough for our files: no "//" inside the strings we check). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

const FORBIDDEN = /\b(issues?|spec|specification|TODO|FIXME)\b|§|arrives with the/i;

function userText(source: string): string[] {
  const code = withoutComments(source);
  const found: string[] = [];
  for (const m of code.matchAll(/"([^"\n]*)"|'([^'\n]*)'|`([^`]*)`/g)) {
    const text = m[1] ?? m[2] ?? m[3] ?? "";
    if (FORBIDDEN.test(text)) found.push(text);
  }
  for (const m of code.matchAll(/>([^<>{}]+)</g)) {
    if (FORBIDDEN.test(m[1])) found.push(m[1].trim());
  }
  return found;
}

describe("text users read", () => {
  const sources = [...files("components"), ...files("app").filter((f) => !f.startsWith(path.join("app", "api"))), "lib/channels/integrations/catalogue.ts"];

  it("never mentions issues, spec sections or what a later piece of work will bring", () => {
    const offenders = sources.flatMap((file) => userText(fs.readFileSync(path.join(root, file), "utf8")).map((text) => `${file}: ${text}`));
    expect(offenders).toEqual([]);
  });

  it("the check itself catches the old texts", () => {
    expect(userText(`const FLAG_NOTE = "Connected — syncing arrives with the CRM issue.";`)).toHaveLength(1);
    expect(userText(`<BeingBuilt issue="advanced §2 MCP Management" />`)).toHaveLength(1);
    expect(userText(`// the spec says so\nconst ok = "Saved";`)).toHaveLength(0);
  });
});
