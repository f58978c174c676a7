#!/usr/bin/env node
/**
 * Regroups components/ by the contexts of lib/ (issue 28, docs/architecture.md "The contexts"):
 * `git mv`s today's feature folders to components/<context>/<feature>/ (the feature keeps its name,
 * the one its app/ route has) and rewrites every reference to a moved path in the repository —
 * `@/components/…` specifiers, relative imports that cross a moved folder (import/export, import(),
 * require(), jest.mock() and other strings), and `components/…` paths in configs, tests, comments and
 * docs/*.md. app/ routes do not move (URLs are a contract).
 *
 *   node scripts/regroup-components.mjs            apply (refuses if already applied or the tree is dirty)
 *   node scripts/regroup-components.mjs --dry-run  print the moves and the files it would rewrite
 *
 * Where a folder goes: the context of the lib/ feature it shows; a screen that assembles several
 * contexts sits at the highest of them (the home dashboard and settings, which assemble nearly all,
 * sit in consoles beside the admin consoles, sign-up and the public site). Shared pieces:
 * components/ui/ (the design primitives, level platform: it stays where shadcn puts it),
 * components/platform/ (small shared screens and helpers), and components/shell/ — the frame of
 * every page (providers, the sign-in gate, header and footer); it shows the notification bell and
 * the health figures, so it sits above all contexts, as lib/all-jobs.ts does in lib/.
 *
 * Deterministic: the moves come from the table below and files are processed in sorted order.
 * It refuses when a folder it creates exists already or a source is gone. Single files that a lower
 * context uses move out of their folder first (they come first in the table: the first match wins).
 * It never reads eval/calls/held-out/ (a held-out evaluation set).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Today's components/ entry → its place. Files that leave their folder first; then by context, lowest first. */
export const MOVES = [
  // Single files used by a lower context than their folder's: they move down to it.
  ["components/settings/server-errors.ts", "components/platform/server-errors.ts"],
  ["components/signup/plan-picker.tsx", "components/workspace/billing/plan-picker.tsx"],
  // platform: shared screens and helpers (components/ui/ stays: the design primitives)
  ["components/access-denied.tsx", "components/platform/access-denied.tsx"],
  ["components/being-built.tsx", "components/platform/being-built.tsx"],
  ["components/full-screen-loader.tsx", "components/platform/full-screen-loader.tsx"],
  // identity
  ["components/auth", "components/identity/auth"],
  ["components/flash-toast.tsx", "components/identity/auth/flash-toast.tsx"],
  // workspace and billing
  ["components/billing", "components/workspace/billing"],
  // knowledge
  ["components/business", "components/knowledge/business"],
  // phone
  ["components/phone-numbers", "components/phone/phone-numbers"],
  ["components/voice-test", "components/phone/voice-test"],
  ["components/mobile-preview", "components/phone/mobile-preview"],
  // scheduling
  ["components/appointments", "components/scheduling/appointments"],
  // agents
  ["components/assistants", "components/agents/assistants"],
  ["components/a2a", "components/agents/a2a"],
  ["components/mcp", "components/agents/mcp"],
  ["components/agent-consoles", "components/agents/agent-consoles"],
  // receptionist (components/receptionist stays; the call history and the notices join it)
  ["components/call-history", "components/receptionist/call-history"],
  ["components/notifications", "components/receptionist/notifications"],
  // reports
  ["components/analytics", "components/reports/analytics"],
  ["components/crm-voice", "components/reports/crm-voice"],
  ["components/figures", "components/reports/figures"],
  // integrations: components/integrations stays (later moved to components/channels/integrations with lib/integrations → lib/channels/integrations)
  // consoles: the admin consoles, the screens that assemble many contexts, sign-up, the public site
  ["components/admin", "components/consoles/admin"],
  ["components/master-admin", "components/consoles/master-admin"],
  ["components/dashboard", "components/consoles/dashboard"],
  ["components/settings", "components/consoles/settings"],
  ["components/signup", "components/consoles/signup"],
  ["components/marketing", "components/consoles/marketing"],
  ["components/legal", "components/consoles/legal"],
  // shell: the frame of every page, above all contexts
  ["components/providers.tsx", "components/shell/providers.tsx"],
  ["components/app-shell", "components/shell/app-shell"],
  ["components/layout", "components/shell/layout"],
];

/** The folders directly under components/ afterwards: the contexts of lib/ that have screens, ui/ and shell/. */
export const FOLDERS = ["platform", "identity", "workspace", "knowledge", "phone", "scheduling", "agents", "compliance", "receptionist", "reports", "integrations", "consoles", "ui", "shell"];

/** Folders that are already named as their context (or shared) and stay; others join them. */
const KEPT = ["ui", "receptionist", "integrations"];

const SCRIPT = "regroup-components";
const DIR = "components";

const CODE = /\.(ts|tsx|mts|cts|mjs|cjs|js|jsx)$/;
const TEXT = /\.(ts|tsx|mts|cts|mjs|cjs|js|jsx|json|md|yml|yaml)$|(^|\/)(\.ci\/run|Dockerfile|Procfile|\.env\.example)$/;
const SKIP = [/^eval\/calls\/held-out\//, /^scripts\/regroup-(lib|components)\.mjs$/, /^db\/migrations\//, /^node_modules\//, /(^|\/)package-lock\.json$/];
const RESOLVE_EXT = ["", ".ts", ".tsx", ".mts", ".mjs", ".cjs", ".js", ".jsx", ".json", "/index.ts", "/index.tsx", "/index.js", "/index.mjs"];

const root = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
const dryRun = process.argv.includes("--dry-run");
const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" });

/** An old repository path (a file with or without extension, or a folder) → its new path, or null if it does not move. */
function mapPath(p) {
  for (const [from, to] of MOVES) {
    if (p === from) return to;
    if (p.startsWith(`${from}/`)) return to + p.slice(from.length);
    const bare = from.replace(/\.(ts|tsx)$/, "");
    if (bare !== from && p === bare) return to.replace(/\.(ts|tsx)$/, "");
  }
  return null;
}

function refuse(message) {
  console.error(`${SCRIPT}: ${message}`);
  process.exit(1);
}

/** Would this old path (as an import names it) exist before the move? `oldFiles` holds the tracked files and their folders. */
function existedBefore(p, oldFiles) {
  return RESOLVE_EXT.some((ext) => oldFiles.has(p + ext));
}

function posixRelative(fromDir, to) {
  let rel = path.posix.relative(fromDir, to);
  if (!rel.startsWith(".")) rel = `./${rel}`;
  return rel;
}

/** Rewrites one file's text: `oldFile` is where it was, `newFile` where it is now. */
export function rewrite(text, oldFile, newFile, oldFiles) {
  const isCode = CODE.test(oldFile);
  let out = text;
  if (isCode) {
    // Every string literal that is a module specifier or a path: "@/components/…" and "./…", "../…".
    out = out.replace(/(["'`])((?:@\/|\.\.?\/)[^"'`\s]*)\1/g, (whole, quote, spec) => {
      const next = rewriteSpecifier(spec, oldFile, newFile, oldFiles);
      return next === spec ? whole : `${quote}${next}${quote}`;
    });
  }
  if (isCode) {
    // A path built from segments: path.join(root, "components", "ui", "x.tsx").
    out = out.replace(/(["'])components\1((?:\s*,\s*["'][\w.-]+["'])+)/g, (whole, quote, rest) => {
      const segments = [...rest.matchAll(/["']([\w.-]+)["']/g)].map((m) => m[1]);
      for (let n = segments.length; n >= 1; n--) {
        const mapped = mapPath([DIR, ...segments.slice(0, n)].join("/"));
        if (mapped) return [...mapped.split("/"), ...segments.slice(n)].map((seg) => `${quote}${seg}${quote}`).join(", ");
      }
      return whole;
    });
  }
  // Bare repository paths (configs, scripts, comments, docs): components/<moved>… not inside a longer path.
  out = out.replace(/(^|[^\w./@-]|@\/)(components\/[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.[\]-]+)*)/gm, (whole, before, p) => {
    const mapped = mapLongest(p);
    return mapped ? before + mapped : whole;
  });
  return out;
}

/** The longest prefix of a path made of whole segments that moves (a path may end in prose punctuation). */
function mapLongest(p) {
  const trimmed = p.replace(/[.]+$/, "");
  const tail = p.slice(trimmed.length);
  const direct = mapPath(trimmed);
  if (direct) return direct + tail;
  // A path with a tail that is not a file of its own (a glob, an anchor): map its longest moved head.
  const parts = trimmed.split("/");
  for (let n = parts.length - 1; n >= 2; n--) {
    const head = parts.slice(0, n).join("/");
    const mapped = mapPath(head);
    if (mapped) return mapped + "/" + parts.slice(n).join("/") + tail;
  }
  return null;
}

function rewriteSpecifier(spec, oldFile, newFile, oldFiles) {
  if (spec.startsWith("@/")) {
    const mapped = mapPath(spec.slice(2));
    return mapped ? `@/${mapped}` : spec;
  }
  // A relative specifier: resolve it where the file was, map the target, say it from where the file is.
  const oldTarget = path.posix.normalize(path.posix.join(path.posix.dirname(oldFile), spec));
  if (oldTarget.startsWith("..")) return spec;
  const moved = mapPath(oldTarget);
  if (!moved && oldFile === newFile) return spec;
  if (!existedBefore(oldTarget, oldFiles)) return spec;
  const newTarget = moved ?? oldTarget;
  // A relative import that now climbs out of its folder names the module by alias: the lint walls
  // between contexts read `@/components/…` specifiers.
  const relative = posixRelative(path.posix.dirname(newFile), newTarget);
  const next = relative.startsWith("../") && newTarget.startsWith(`${DIR}/`) ? `@/${newTarget}` : relative;
  // Keep the author's trailing slash, if any.
  return spec.endsWith("/") && !next.endsWith("/") ? `${next}/` : next;
}

/**
 * The order to run the moves in: a file that leaves a folder moves before its folder does, and a move
 * into a place another move creates runs after it (else `git mv a b` into an existing b nests a in b).
 */
function executionOrder(moves) {
  const inside = (p, folder) => p.startsWith(`${folder}/`);
  const mustPrecede = ([fromA, toA], [fromB, toB]) => inside(fromA, fromB) || inside(toB, toA);
  const done = [];
  const left = [...moves];
  while (left.length) {
    const next = left.findIndex((move) => !left.some((other) => other !== move && mustPrecede(other, move)));
    if (next < 0) refuse("the moves depend on each other in a circle.");
    done.push(...left.splice(next, 1));
  }
  return done;
}

function main() {
  if (!dryRun && git("status", "--porcelain").trim()) refuse("the working tree has changes; commit or stash them first.");
  // The kept folders exist before; the others must not.
  const fresh = FOLDERS.filter((c) => !KEPT.includes(c) && fs.existsSync(path.join(root, DIR, c)));
  if (fresh.length) refuse(`already applied? ${DIR}/${fresh.join(`, ${DIR}/`)} exist(s) already.`);
  const missing = MOVES.filter(([from]) => !fs.existsSync(path.join(root, from)));
  if (missing.length) refuse(`already applied or ${DIR}/ changed: ${missing.map(([from]) => from).join(", ")} not found.`);
  // Everything directly under components/ must have a place: an entry added since the table was written stops the run here.
  const placed = new Set([...MOVES.map(([from]) => from), ...KEPT.map((c) => `${DIR}/${c}`)]);
  const unplaced = fs.readdirSync(path.join(root, DIR)).map((name) => `${DIR}/${name}`).filter((entry) => !placed.has(entry)).sort();
  if (unplaced.length) refuse(`${DIR}/ has entries the table does not place: ${unplaced.join(", ")}. Add them to MOVES.`);
  const taken = MOVES.filter(([, to]) => fs.existsSync(path.join(root, to)));
  if (taken.length) refuse(`destination exists: ${taken.map(([, to]) => to).join(", ")}.`);

  const files = git("ls-files", "-z").split("\0").filter(Boolean).sort();
  const oldFiles = new Set(files);
  for (const f of files) for (let d = path.posix.dirname(f); d !== "."; d = path.posix.dirname(d)) oldFiles.add(d);
  const scoped = files.filter((f) => TEXT.test(f) && !SKIP.some((re) => re.test(f)));

  // 1. Rewrite every file's text as it will read after the moves (computed from the old tree).
  const writes = [];
  for (const oldFile of scoped) {
    const newFile = mapPath(oldFile) ?? oldFile;
    const full = path.join(root, oldFile);
    if (!fs.existsSync(full)) continue;
    const text = fs.readFileSync(full, "utf8");
    let next = rewrite(text, oldFile, newFile, oldFiles);
    if (next !== text) writes.push([oldFile, next]);
  }
  if (dryRun) {
    for (const [from, to] of MOVES) console.log(`git mv ${from} ${to}`);
    for (const [file] of writes) console.log(`rewrite ${file}`);
    console.log(`${MOVES.length} moves, ${writes.length} files rewritten`);
    return;
  }
  for (const [file, text] of writes) fs.writeFileSync(path.join(root, file), text);
  // 2. Move (the rewritten files move with their folders).
  for (const [from, to] of executionOrder(MOVES)) {
    fs.mkdirSync(path.join(root, path.posix.dirname(to)), { recursive: true });
    git("mv", from, to);
  }
  // The tree was clean before: everything changed now is the regrouping.
  git("add", "-A");
  const entries = fs.readdirSync(path.join(root, DIR), { withFileTypes: true });
  const folders = entries.filter((d) => d.isDirectory()).map((d) => d.name).sort();
  console.log(`${SCRIPT}: ${MOVES.length} moves, ${writes.length} files rewritten; ${DIR}/ now holds ${folders.join(", ")}`);
  const strays = [...entries.filter((d) => !d.isDirectory()).map((d) => d.name), ...folders.filter((name) => !FOLDERS.includes(name))];
  if (strays.length) refuse(`${DIR}/ holds entries outside its context folders: ${strays.join(", ")}: add them to MOVES.`);
}

main();
