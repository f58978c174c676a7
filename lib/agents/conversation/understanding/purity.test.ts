import fs from "node:fs";
import path from "node:path";

/**
 * Caller understanding is pure: no database, no network clients, nothing from the rest of lib/
 * (docs/conversation-understanding.md). Every import of its source files must stay in this folder
 * or be one of the libraries it is built on.
 */
const ALLOWED_PACKAGES = ["chrono-node", "franc-min", "libphonenumber-js", "@nlpjs/core", "@nlpjs/nlp", "@nlpjs/lang-en-min", "@nlpjs/lang-es"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

test("imports only its own files and the libraries it is built on", () => {
  const outside: string[] = [];
  for (const file of sourceFiles(__dirname)) {
    const source = fs.readFileSync(file, "utf8");
    for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
      if (specifier.startsWith(".")) {
        const resolved = path.resolve(path.dirname(file), specifier);
        if (!resolved.startsWith(__dirname)) outside.push(`${path.relative(__dirname, file)} → ${specifier}`);
      } else if (!ALLOWED_PACKAGES.includes(specifier) && specifier !== "@/lib/platform/utils") {
        outside.push(`${path.relative(__dirname, file)} → ${specifier}`);
      }
    }
  }
  expect(outside).toEqual([]);
});
