import { prepareDatabase } from "@/lib/seed/prepare";
import { demoAccount } from "@/lib/demo-accounts";
import { call } from "@/tests/helpers/http";
import { POST as login } from "@/app/api/auth/login/route";
import { GET as plans } from "@/app/api/subscription-plans/route";
import { GET as me } from "@/app/api/auth/me/route";
import { GET as numbers } from "@/app/api/phone-numbers/route";
import { GET as assistants } from "@/app/api/voice-assistants/route";
import { GET as history } from "@/app/api/call-history/route";
import { GET as stats } from "@/app/api/dashboard/stats/route";
async function main() {
  await prepareDatabase();
  const res = await call(login as any, "POST", "/api/auth/login", { body: { email: demoAccount.email, password: demoAccount.password } });
  const sessionId = res.body.sessionId ?? res.body.token;
  if (!sessionId) throw new Error(JSON.stringify(res.body));
  const all: [string, any, string][] = [["plans", plans, "/api/subscription-plans"], ["me", me, "/api/auth/me"], ["stats", stats, "/api/dashboard/stats"], ["numbers", numbers, "/api/phone-numbers"], ["assistants", assistants, "/api/voice-assistants"], ["history", history, "/api/call-history?limit=25"]]; const routes = all.filter(([n]) => !process.env.ONLY || process.env.ONLY.split(",").includes(n));
  const N = Number(process.env.N ?? 1500);
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
    for (const [name, h, path] of routes) {
      for (let i = 0; i < 100; i++) await call(h, "GET", path, { sessionId });
      const t0 = performance.now(); const c0 = process.cpuUsage();
      for (let i = 0; i < N; i++) { const r = await call(h, "GET", path, { sessionId }); if (r.status !== 200) throw new Error(name + r.status); }
      const dt = (performance.now() - t0) / N; const cu = process.cpuUsage(c0);
      console.log(round, name.padEnd(12), dt.toFixed(3), "ms/req wall", ((cu.user + cu.system) / 1000 / N).toFixed(3), "ms cpu");
    }
  }
  process.exit(0);
}
main();
