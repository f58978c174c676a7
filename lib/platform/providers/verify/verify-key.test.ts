import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyApiKey } from "./verify-key";

const GOOD = "sk-ant-good-key-123456";
let server: http.Server;
let base: string;
const seen: { url?: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    const key = req.headers["x-api-key"] ?? req.headers["xi-api-key"] ?? req.headers.authorization;
    res.setHeader("content-type", "application/json");
    if (req.url?.startsWith("/busy")) {
      res.writeHead(529).end(JSON.stringify({ error: { message: "Overloaded" } }));
    } else if (key === GOOD || key === "Token 0123456789abcdef0123456789abcdef01234567" || String(key).startsWith("Basic ")) {
      res.writeHead(200).end("{}");
    } else {
      res.writeHead(401).end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("verifyApiKey", () => {
  it("says verified when the provider accepts the key, with the provider's own auth header", async () => {
    await expect(verifyApiKey("anthropic", { apiKey: GOOD }, { baseUrl: base })).resolves.toEqual({ status: "verified", message: null });
    expect(seen.at(-1)?.url).toBe("/v1/models?limit=1");
    await expect(
      verifyApiKey("deepgram", { apiKey: "0123456789abcdef0123456789abcdef01234567" }, { baseUrl: base }),
    ).resolves.toMatchObject({ status: "verified" });
    expect(seen.at(-1)?.url).toBe("/v1/projects");
    await expect(
      verifyApiKey("twilio", { accountSid: `AC${"a".repeat(32)}`, authToken: "b".repeat(32) }, { baseUrl: base }),
    ).resolves.toMatchObject({ status: "verified" });
    expect(seen.at(-1)?.url).toBe(`/2010-04-01/Accounts/AC${"a".repeat(32)}.json`);
  });

  it("passes on the provider's refusal", async () => {
    await expect(verifyApiKey("anthropic", { apiKey: "sk-ant-wrong-000000" }, { baseUrl: base })).resolves.toEqual({
      status: "refused",
      message: "invalid x-api-key",
    });
    await expect(verifyApiKey("elevenlabs", { apiKey: "sk_" + "0".repeat(48) }, { baseUrl: base })).resolves.toMatchObject({
      status: "refused",
    });
  });

  it("is offline when nothing answers, and unverified (not refused) when the provider is busy", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(verifyApiKey("anthropic", { apiKey: GOOD }, { baseUrl: `http://127.0.0.1:${port}` })).resolves.toEqual({
      status: "offline",
      message: null,
    });
    const busy = await verifyApiKey("anthropic", { apiKey: GOOD }, { baseUrl: `${base}/busy` });
    expect(busy.status).toBe("offline");
    expect(busy.message).toContain("529");
  });
});
