// Lints small pieces of code as if they sat at the given paths, with the project's ESLint config,
// and prints which restricted-import messages each one got (JSON on stdout). Used by walls.test.ts.
import { ESLint } from "eslint";

const fixtures = JSON.parse(process.argv[2]);
const eslint = new ESLint({ cwd: process.cwd() });
const out = {};
for (const [name, { path, code }] of Object.entries(fixtures)) {
  const [result] = await eslint.lintText(code, { filePath: path });
  out[name] = result.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
}
process.stdout.write(JSON.stringify(out));
