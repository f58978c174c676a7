#!/usr/bin/env node
/**
 * Regroups lib/ by context (issue 28, docs/architecture.md "The contexts"): `git mv`s today's lib/
 * folders and files into at most twelve context folders directly under lib/ and rewrites every
 * reference to a moved path in the repository — `@/lib/…` specifiers, relative imports that cross a
 * moved folder (import/export, import(), require(), jest.mock() and other strings), and `lib/…` paths
 * in configs, package.json scripts, comments and docs/*.md.
 *
 *   node scripts/regroup-lib.mjs            apply (refuses if already applied or the tree is dirty)
 *   node scripts/regroup-lib.mjs --dry-run  print the moves and the files it would rewrite
 *
 * Deterministic: the moves come from the table below and files are processed in sorted order.
 * Idempotent-safe: it refuses when a context folder it creates exists already or a source is gone.
 * It never reads eval/calls/held-out/ (a held-out evaluation set).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Today's lib/ entry → its place under a context. Order of the contexts: lower layers first. */
export const MOVES = [
  // platform: the database, http, env, crypto, blob store, workers, jobs engine, pure adapters, neutral helpers
  ["lib/database.ts", "lib/platform/database.ts"],
  ["lib/database-errors.ts", "lib/platform/database-errors.ts"],
  ["lib/database-statements.ts", "lib/platform/database-statements.ts"],
  ["lib/env.ts", "lib/platform/env.ts"],
  ["lib/api-client.ts", "lib/platform/api-client.ts"],
  ["lib/api-client.test.ts", "lib/platform/api-client.test.ts"],
  ["lib/query-client.ts", "lib/platform/query-client.ts"],
  ["lib/utils.ts", "lib/platform/utils.ts"],
  ["lib/http", "lib/platform/http"],
  ["lib/crypto", "lib/platform/crypto"],
  ["lib/blob-store", "lib/platform/blob-store"],
  ["lib/workers", "lib/platform/workers"],
  ["lib/jobs", "lib/platform/jobs"],
  ["lib/net", "lib/platform/net"],
  ["lib/providers", "lib/platform/providers"],
  ["lib/text", "lib/platform/text"],
  ["lib/server", "lib/platform/server"],
  // identity: users, sessions, access tokens, organizations
  ["lib/auth", "lib/identity/auth"],
  ["lib/access-tokens", "lib/identity/access-tokens"],
  ["lib/organizations", "lib/identity/organizations"],
  // workspace and billing
  ["lib/settings", "lib/workspace/settings"],
  ["lib/billing", "lib/workspace/billing"],
  ["lib/provider-selection", "lib/workspace/provider-selection"],
  // knowledge
  ["lib/business-profile", "lib/knowledge/business-profile"],
  ["lib/knowledge-gaps", "lib/knowledge/gaps"],
  ["lib/services", "lib/knowledge/services"],
  // phone
  ["lib/telephony", "lib/phone/telephony"],
  ["lib/phone-numbers", "lib/phone/numbers"],
  ["lib/routing", "lib/phone/routing"],
  ["lib/voice", "lib/phone/voice"],
  ["lib/messages", "lib/phone/messages"],
  // scheduling
  ["lib/appointments", "lib/scheduling"],
  // agents
  ["lib/assistants", "lib/agents/assistants"],
  ["lib/conversation", "lib/agents/conversation"],
  ["lib/mcp", "lib/agents/mcp"],
  ["lib/a2a", "lib/agents/a2a"],
  // receptionist (lib/receptionist stays; the call history joins it)
  ["lib/call-history", "lib/receptionist/call-history"],
  // reports
  ["lib/analytics", "lib/reports/analytics"],
  ["lib/dashboard", "lib/reports/dashboard"],
  ["lib/crm-voice", "lib/reports/crm-voice"],
  ["lib/figures", "lib/reports/figures"],
  // compliance and retention (lib/compliance stays)
  ["lib/retention", "lib/compliance/retention"],
  // integrations: lib/integrations stays
  // consoles: the admin and onboarding screens' services, sign-up (it creates the organization, its
  // credits and its starter assistant: above workspace, knowledge and agents), the demo seed
  ["lib/admin", "lib/consoles/admin"],
  ["lib/signup", "lib/consoles/signup"],
  ["lib/onboarding", "lib/consoles/onboarding"],
  ["lib/seed", "lib/consoles/seed"],
  ["lib/demo-accounts.ts", "lib/consoles/demo-accounts.ts"],
];

/** The context folders, lowest layer first (lib/all-jobs.ts, the job list, stays at the top of lib/). */
export const CONTEXTS = ["platform", "identity", "workspace", "knowledge", "phone", "scheduling", "agents", "receptionist", "reports", "compliance", "integrations", "consoles"];

/** Context folders that are today's feature folders of the same name (they stay; others join them). */
const KEPT = ["receptionist", "compliance", "integrations"];

/** Files that stay at the top of lib/: the one job list names every context's jobs, so it sits above them all. */
const STAYS = ["lib/all-jobs.ts"];

const CODE = /\.(ts|tsx|mts|cts|mjs|cjs|js|jsx)$/;
const TEXT = /\.(ts|tsx|mts|cts|mjs|cjs|js|jsx|json|md|yml|yaml)$|(^|\/)(\.ci\/run|Dockerfile|Procfile|\.env\.example)$/;
const SKIP = [/^eval\/calls\/held-out\//, /^scripts\/regroup-lib\.mjs$/, /^db\/migrations\//, /^node_modules\//, /(^|\/)package-lock\.json$/];
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
  console.error(`regroup-lib: ${message}`);
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
    // Every string literal that is a module specifier or a path: "@/lib/…" and "./…", "../…".
    out = out.replace(/(["'`])((?:@\/|\.\.?\/)[^"'`\s]*)\1/g, (whole, quote, spec) => {
      const next = rewriteSpecifier(spec, oldFile, newFile, oldFiles);
      return next === spec ? whole : `${quote}${next}${quote}`;
    });
  }
  if (isCode) {
    // A path built from segments: path.join(root, "lib", "http", "x.ts").
    out = out.replace(/(["'])lib\1((?:\s*,\s*["'][\w.-]+["'])+)/g, (whole, quote, rest) => {
      const segments = [...rest.matchAll(/["']([\w.-]+)["']/g)].map((m) => m[1]);
      for (let n = segments.length; n >= 1; n--) {
        const mapped = mapPath(["lib", ...segments.slice(0, n)].join("/"));
        if (mapped) return [...mapped.split("/"), ...segments.slice(n)].map((seg) => `${quote}${seg}${quote}`).join(", ");
      }
      return whole;
    });
  }
  // Bare repository paths (configs, scripts, comments, docs): lib/<moved>… not inside a longer path.
  out = out.replace(/(^|[^\w./@-]|@\/)(lib\/[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.[\]-]+)*)/gm, (whole, before, p) => {
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
  const next = posixRelative(path.posix.dirname(newFile), newTarget);
  // Keep the author's trailing slash, if any.
  return spec.endsWith("/") && !next.endsWith("/") ? `${next}/` : next;
}

/** The lint walls name paths by pattern; a moved "@/lib/x" pattern keeps meaning what it meant. */
function rewriteEslintPatterns(text) {
  return text
    .replace('"@/lib/*/service", "@/lib/*/service.ts"', '"@/lib/*/service", "@/lib/*/service.ts", "@/lib/*/*/service", "@/lib/*/*/service.ts"')
    .replace(
      '["@/lib/*", "!@/lib/platform/providers", "!@/lib/platform/text", "!@/lib/platform/workers", "@/app/*", "@/components/*"]',
      '["@/lib/*", "!@/lib/platform", "@/lib/platform/*", "!@/lib/platform/providers", "!@/lib/platform/text", "!@/lib/platform/workers", "@/app/*", "@/components/*"]',
    );
}

function main() {
  if (git("status", "--porcelain").trim()) refuse("the working tree has changes; commit or stash them first.");
  // lib/receptionist, lib/compliance and lib/integrations exist before; the other contexts must not.
  const fresh = CONTEXTS.filter((c) => !KEPT.includes(c) && fs.existsSync(path.join(root, "lib", c)));
  if (fresh.length) refuse(`already applied? lib/${fresh.join(", lib/")} exist(s) already.`);
  const missing = MOVES.filter(([from]) => !fs.existsSync(path.join(root, from)));
  if (missing.length) refuse(`already applied or lib/ changed: ${missing.map(([from]) => from).join(", ")} not found.`);
  // Everything under lib/ must have a place: a folder added since the table was written stops the run here.
  const placed = new Set([...MOVES.map(([from]) => from), ...KEPT.map((c) => `lib/${c}`), ...STAYS]);
  const unplaced = fs.readdirSync(path.join(root, "lib")).map((name) => `lib/${name}`).filter((entry) => !placed.has(entry)).sort();
  if (unplaced.length) refuse(`lib/ has entries the table does not place: ${unplaced.join(", ")}. Add them to MOVES (or STAYS).`);
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
    if (oldFile === "eslint.config.mjs") next = rewriteEslintPatterns(next);
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
  for (const [from, to] of MOVES) {
    fs.mkdirSync(path.join(root, path.posix.dirname(to)), { recursive: true });
    git("mv", from, to);
  }
  // The tree was clean before: everything changed now is the regrouping.
  git("add", "-A");
  const folders = fs.readdirSync(path.join(root, "lib"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  console.log(`regroup-lib: ${MOVES.length} moves, ${writes.length} files rewritten; lib/ now holds ${folders.length} folders: ${folders.join(", ")}`);
  if (folders.length > 12) refuse(`more than twelve folders under lib/ (${folders.length}): add the new ones to MOVES.`);
}

main();
