import fs from "node:fs";
import path from "node:path";

/**
 * The docs are named by path all over the repository ("see docs/telephony.md") and link to each
 * other ([api.md](api.md#billing)). A renamed or moved doc, or a renamed heading, must not leave
 * those pointing at nothing (docs/architecture.md#screens-and-docs-by-context).
 */

/** Where docs are named: the README, the docs themselves, the code, its scripts and tests, the root configs. */
const SCANNED = ["README.md", "docs", "app", "components", "lib", "db/schema", "scripts", "tests", "proxy.ts", "instrumentation.ts", "eslint.config.mjs", ".dependency-cruiser.cjs", "package.json"];
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|json|md|yml|yaml)$/;

function filesUnder(entry: string): string[] {
  if (!fs.existsSync(entry)) return [];
  if (!fs.statSync(entry).isDirectory()) return TEXT.test(entry) ? [entry] : [];
  return fs
    .readdirSync(entry)
    .filter((name) => name !== "node_modules")
    .flatMap((name) => filesUnder(path.posix.join(entry, name)));
}

const withoutCodeBlocks = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, "");

/** GitHub's anchors for a markdown file's headings ("## Rate limits (`x`)" → "rate-limits-x"; repeats get -1, -2). */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of withoutCodeBlocks(fs.readFileSync(file, "utf8")).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

describe("links to the docs", () => {
  const files = SCANNED.flatMap(filesUnder).sort();
  const markdown = files.filter((file) => file.endsWith(".md") && (file === "README.md" || file.startsWith("docs/")));

  it("scans the README, every doc and the code", () => {
    expect(markdown).toContain("README.md");
    expect(markdown).toContain("docs/architecture.md");
    expect(files.some((file) => file.startsWith("lib/"))).toBe(true);
    expect(files.some((file) => file.startsWith("components/"))).toBe(true);
  });

  it("names only docs that exist (every docs/….md path in the README, the docs and the code)", () => {
    const missing: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      for (const [, doc] of text.matchAll(/(?<![\w./-])(docs\/[\w./-]*?\.md)(?![\w-])/g)) {
        if (!fs.existsSync(doc)) missing.push(`${file}: ${doc}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("links from the README and the docs to files and headings that exist", () => {
    const broken: string[] = [];
    for (const file of markdown) {
      const text = withoutCodeBlocks(fs.readFileSync(file, "utf8"));
      for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z+.-]*:/i.test(link)) continue; // https:, mailto:
        const [target, anchor] = link.split("#");
        const resolved = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(target))) : file;
        if (!fs.existsSync(resolved)) broken.push(`${file}: ${link} (no such file)`);
        else if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
