import { prepareDatabase } from "@/lib/seed/prepare";
import { getDbHandle } from "@/lib/database";
import { sql } from "drizzle-orm";
import { listHistory } from "@/lib/call-history/service";
import { organizations } from "@/db/schema";
async function main() {
  await prepareDatabase();
  const { db } = await getDbHandle();
  const client = (db as any).$client;
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(sql`${organizations.name} not ilike '%platform%'`).limit(1);
  const N = 1500;
  const time = async (name: string, f: () => Promise<unknown>) => {
    for (let i = 0; i < 100; i++) await f();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await f();
    console.log(name.padEnd(30), ((performance.now() - t0) / N).toFixed(3), "ms");
  };
  const q = { limit: 25 } as any;
  const page = await listHistory(db, org.id, q);
  console.log("items", page.items.length);
  await time("listHistory", () => listHistory(db, org.id, q));
  await time("select 1", () => client.query("select 1"));
  // capture the SQL drizzle sends
  const orig = client.query.bind(client); let captured: any = null;
  client.query = (text: string, params: any, opts: any) => { captured = { text, params, opts }; return orig(text, params, opts); };
  await listHistory(db, org.id, q);
  client.query = orig;
  console.log(captured.text.length, captured.params, captured.opts && Object.keys(captured.opts));
  await time("raw query same sql", () => client.query(captured.text, captured.params, captured.opts));
  await time("raw query rowMode array", () => client.query(captured.text, captured.params, { rowMode: "array" }));
  await client.exec(`PREPARE hist_first AS ${captured.text}`);
  const exParams = captured.params.map((p: any) => typeof p === "number" ? String(p) : `'${p}'`).join(", ");
  await time("EXECUTE prepared (simple)", () => client.query(`EXECUTE hist_first(${exParams})`));
  await time("explain-free count only", () => client.query(`select count(*) from (${captured.text}) x`, captured.params));
  await time("json_agg of page", () => client.query(`select json_agg(x) from (${captured.text}) x`, captured.params));
  process.exit(0);
}
main();
