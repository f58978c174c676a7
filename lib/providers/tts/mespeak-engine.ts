import "server-only";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * A small driver for meSpeak's eSpeak engine (mespeak 2.0.2, GPL), loaded once per process.
 *
 * Why not `mespeak.speak()` directly: meSpeak keeps one emscripten engine for the whole process,
 * and every run of it allocates static memory that is never given back. On this machine the 80th
 * call read its dictionary from corrupted memory ("Bad data: en_dict") and then aborted the whole
 * Node process (V8 "invalid size error") — for any text length. So this driver uses the same engine
 * (`mespeak/src/ESpeak.js`) and the same data files, but replaces the engine instance every
 * `RUNS_PER_ENGINE` syntheses (a new instance costs ~3 ms; the decoded data files are shared).
 *
 * The module and its JSON data are read from node_modules at run time (not bundled): ESpeak.js is
 * 4.9 MB of generated code and the data files ~700 KB of base64, which the bundler has no reason to
 * process, and `createRequire` + `fs` work the same under `next start`, jest and tsx.
 */

const RUNS_PER_ENGINE = 50; // well under the 80 runs after which an engine corrupts itself

type EmscriptenFs = {
  findObject(path: string): unknown;
  createPath(parent: string, path: string, canRead: boolean, canWrite: boolean): unknown;
  createDataFile(parent: string, name: string, data: ArrayLike<number>, canRead: boolean, canWrite: boolean): unknown;
  root: { write: boolean; contents: Record<string, { contents: number[] } | undefined> };
};
type EngineInstance = { Module: { arguments: string[] }; FS: EmscriptenFs; run: () => unknown };
type EngineConstructor = new () => EngineInstance;

type DataFile = { dir: string; name: string; data: Uint8Array };

export type SpeakOptions = {
  /** eSpeak voice file id, e.g. "en/en-us" or "en/en-rp". */
  voice: string;
  /** A meSpeak variant (m1–m7, f1–f5, …); unknown or missing variants fall back to the plain voice. */
  variant?: string;
  pitch?: number;
  speed?: number;
  amplitude?: number;
};

const DATA_DIR = "/espeak/espeak-data";
const VARIANT_DIR = `${DATA_DIR}/voices/!v`;
const LANGUAGES = ["en-us", "en-rp"] as const;

let state: {
  Engine: EngineConstructor;
  files: DataFile[];
  variants: Set<string>;
  engine: EngineInstance | null;
  runs: number;
} | null = null;

function mespeakDir(): string {
  // Resolved from the project root at run time; kept out of the bundler's file tracing.
  const root = path.join(/*turbopackIgnore: true*/ process.cwd(), "node_modules", "mespeak");
  if (fs.existsSync(root)) return root;
  const req = createRequire(path.join(/*turbopackIgnore: true*/ process.cwd(), "package.json"));
  return path.dirname(path.dirname(req.resolve(["mespeak", "package.json"].join("/"))));
}

function readJson(file: string): Record<string, string> {
  return JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>;
}

/**
 * meSpeak's voice variants live as text inside its index.js (`optionFiles` in setUpVFS); they are
 * read from there rather than copied into this repository.
 */
function readVariants(dir: string): DataFile[] {
  try {
    const source = fs.readFileSync(path.join(dir, "src", "index.js"), "utf8");
    const start = source.indexOf("var optionFiles = {");
    const end = source.indexOf("};", start);
    if (start < 0 || end < 0) return [];
    const block = source.slice(start, end);
    const files: DataFile[] = [];
    for (const match of block.matchAll(/'([\w-]+)':\s*'((?:[^'\\]|\\.)*)'/g)) {
      const text = match[2].replace(/\\n/g, "\n").replace(/\\'/g, "'").replace(/\\\\/g, "\\");
      files.push({ dir: VARIANT_DIR, name: match[1], data: new Uint8Array(Buffer.from(text, "latin1")) });
    }
    return files;
  } catch {
    return [];
  }
}

function load() {
  if (state) return state;
  const dir = mespeakDir();
  const req = createRequire(path.join(dir, "package.json"));
  const Engine = req(path.join(dir, "src", "ESpeak.js")) as EngineConstructor;
  const config = readJson(path.join(dir, "src", "mespeak_config.json"));
  const files: DataFile[] = ["config", "phontab", "phonindex", "phondata", "intonations"].map((name) => ({
    dir: DATA_DIR,
    name,
    data: new Uint8Array(Buffer.from(config[name], "base64")),
  }));
  let dictLoaded = false;
  for (const language of LANGUAGES) {
    const voice = readJson(path.join(dir, "voices", "en", `${language}.json`));
    if (!dictLoaded) {
      files.push({ dir: DATA_DIR, name: voice.dict_id, data: new Uint8Array(Buffer.from(voice.dict, "base64")) });
      dictLoaded = true;
    }
    const [folder, name] = voice.voice_id.split("/");
    files.push({ dir: `${DATA_DIR}/voices/${folder}`, name, data: new Uint8Array(Buffer.from(voice.voice, "base64")) });
  }
  const variantFiles = readVariants(dir);
  files.push(...variantFiles);
  state = { Engine, files, variants: new Set(variantFiles.map((f) => f.name)), engine: null, runs: 0 };
  return state;
}

function freshEngine(s: NonNullable<typeof state>): EngineInstance {
  const engine = new s.Engine();
  engine.FS.createPath("/", VARIANT_DIR.slice(1), true, true); // creates the root first
  engine.FS.root.write = true; // eSpeak writes its output file (wav.wav) into the root
  for (const file of s.files) {
    if (!engine.FS.findObject(file.dir)) engine.FS.createPath("/", file.dir.slice(1), true, true);
    engine.FS.createDataFile(file.dir, file.name, file.data, true, false);
  }
  return engine;
}

/**
 * eSpeak reads its input as one command-line argument, byte by byte: plain ASCII on one line reads
 * best. Accents are dropped (Café → Cafe), dashes between words become "to" (Mon–Fri, 8 AM–6 PM),
 * typographic quotes become plain ones.
 */
export function speakableText(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/(\w)\s*[–—]\s*(\w)/g, "$1 to $2")
      .replace(/[–—]/g, ", ")
      .replace(/[‘’]/g, "'")
      .replace(/[“”]/g, '"')
      .replace(/…/g, "...")
      .replace(/[^\x20-\x7e\s]/g, " ")
      .replace(/\s+/g, " ")
      .trim() || "."
  );
}

/** Loads the engine and its data now (first request then pays no start-up cost). */
export function warmUp(): void {
  speakWav("Hello.", { voice: "en/en-us" });
}

/**
 * Synthesizes `text` and returns eSpeak's WAV: 22,050 Hz, mono, 16-bit PCM. Synchronous (the
 * engine is plain JavaScript); about 20–40 ms per sentence on this machine.
 */
export function speakWav(text: string, options: SpeakOptions): Buffer {
  const s = load();
  if (!s.engine || s.runs >= RUNS_PER_ENGINE) {
    s.engine = freshEngine(s);
    s.runs = 0;
  }
  s.runs += 1;
  const engine = s.engine;
  const voice = options.variant && s.variants.has(options.variant) ? `${options.voice}+${options.variant}` : options.voice;
  // eSpeak reads its input as a command-line argument: keep it on one line.
  const input = speakableText(text);
  engine.Module.arguments = [
    "-w", "wav.wav",
    "-a", String(options.amplitude ?? 100),
    "-g", "0",
    "-p", String(options.pitch ?? 50),
    "-s", String(options.speed ?? 175),
    "-b", "1",
    "-v", voice,
    `--path=/espeak`,
    input,
  ];
  try {
    engine.run();
  } catch (error) {
    s.engine = null; // never reuse an engine that failed mid-run
    throw error;
  }
  const file = engine.FS.root.contents["wav.wav"];
  if (!file || file.contents.length < 44) {
    s.engine = null;
    throw new Error("The offline synthesizer produced no audio");
  }
  // The engine writes signed bytes; Buffer.from keeps the low 8 bits, which is the unsigned byte.
  const wav = Buffer.from(file.contents);
  file.contents.length = 0;
  return wav;
}
