import { GET as loginNavigation } from "@/app/api/login/route";
import { closeDb } from "@/lib/platform/database";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());

function location(res: { headers: Headers }) {
  const url = new URL(res.headers.get("location")!, "https://desk.example.com");
  return `${url.pathname}${url.search}`;
}

describe("GET /api/login?next= (return to the asked-for page after sign-in)", () => {
  it("carries a same-site path to /auth when signed out", async () => {
    const res = await call(loginNavigation, "GET", "/api/login?next=%2Fcall-history%3Fdirection%3Dinbound");
    expect(res.status).toBe(303);
    const url = new URL(res.headers.get("location")!, "https://desk.example.com");
    expect(url.pathname).toBe("/auth");
    expect(url.searchParams.get("next")).toBe("/call-history?direction=inbound");
  });

  it("sends a signed-in visitor straight to the asked-for page", async () => {
    const account = await registerTestUser();
    const res = await call(loginNavigation, "GET", "/api/login?next=%2Fcall-history", { sessionId: account.sessionId });
    expect(location(res)).toBe("/call-history");
  });

  it.each(["//evil.example/x", "https://evil.example/", "/\\evil.example", "/api/logout"])(
    "drops %j and falls back to /auth or /dashboard",
    async (next) => {
      const out = await call(loginNavigation, "GET", `/api/login?next=${encodeURIComponent(next)}`);
      expect(location(out)).toBe("/auth");
      const account = await registerTestUser();
      const signedIn = await call(loginNavigation, "GET", `/api/login?next=${encodeURIComponent(next)}`, {
        sessionId: account.sessionId,
      });
      expect(new URL(signedIn.headers.get("location")!, "https://desk.example.com").host).toBe(new URL(out.headers.get("location")!, "https://desk.example.com").host);
      expect(location(signedIn)).toBe("/dashboard");
    },
  );
});
