// npm run admin:create -- --email ops@example.com [--password …] [--first-name Ada] [--last-name Ops]
// Creates a master admin (with an organization of its own) in the configured database. Without
// --password it reads MASTER_ADMIN_PASSWORD, else asks for it on the terminal without echoing it.
import readline from "node:readline";
import { createMasterAdmin, MASTER_ADMIN_PASSWORD_MIN } from "@/lib/consoles/admin/bootstrap";
import { closeDb, getDbHandle } from "@/lib/platform/database";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  const inline = process.argv.find((a) => a.startsWith(`--${name}=`));
  return inline?.slice(name.length + 3);
}

function ask(question: string, hidden = false): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  if (hidden) {
    const output = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WriteStream };
    output._writeToOutput = (s: string) => {
      if (s.includes(question)) output.output.write(s);
    };
  }
  return new Promise((resolve) =>
    rl.question(question, (answer) => {
      rl.close();
      if (hidden) process.stdout.write("\n");
      resolve(answer.trim());
    }),
  );
}

async function main() {
  const email = arg("email") ?? process.env.MASTER_ADMIN_EMAIL ?? (await ask("Master admin e-mail: "));
  let password = arg("password") ?? process.env.MASTER_ADMIN_PASSWORD;
  if (!password) {
    password = await ask(`Password (at least ${MASTER_ADMIN_PASSWORD_MIN} characters): `, true);
    if (password !== (await ask("Repeat the password: ", true))) throw new Error("The passwords do not match");
  }
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`Not an e-mail address: ${email}`);
  const { db, driver } = await getDbHandle();
  const user = await createMasterAdmin(db, { email, password, firstName: arg("first-name"), lastName: arg("last-name") });
  console.log(`created master admin ${user.email} (username ${user.username}) in the ${driver} database`);
  await closeDb();
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.message : error);
  await closeDb().catch(() => undefined);
  process.exit(1);
});
