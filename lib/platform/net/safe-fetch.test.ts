import http from "node:http";
import type { AddressInfo } from "node:net";
import { assertSafeUrl, guardedLookup, isPublicAddress, safeFetch, UnsafeUrlError } from "./safe-fetch";

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.9",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "fe80::1",
    "fd00::1",
    "224.0.0.1",
    // IPv4-compatible IPv6 (::/96): ipaddr.js calls it unicast, the kernel may route it to IPv4.
    "::127.0.0.1",
    "::7f00:1",
    "::169.254.169.254",
    "::a9fe:a9fe",
    "::10.0.0.1",
    "::",
    // NAT64, 6to4 and Teredo embed an IPv4 address.
    "64:ff9b::7f00:1",
    "64:ff9b:1::a9fe:a9fe",
    "2002:7f00:1::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    // Other special IPv6: site-local, documentation, discard-only, benchmarking, multicast, ORCHIDv2.
    "fec0::1",
    "2001:db8::1",
    "3fff::1",
    "100::1",
    "2001:2::1",
    "ff02::1",
    "2001:20::1",
    "::ffff:0:7f00:1",
    "fe80::1%eth0",
    // Other special IPv4.
    "192.0.0.8",
    "198.18.0.1",
    "240.0.0.1",
    "255.255.255.255",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("accepts %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("refuses things that are not addresses", () => {
    expect(isPublicAddress("example.com")).toBe(false);
  });
});

describe("assertSafeUrl / safeFetch", () => {
  const refused = [
    "http://127.0.0.1/hook",
    "http://10.0.0.5/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[::ffff:7f00:1]/hook",
    "http://[::1]:8080/hook",
    "http://localhost/hook",
    "http://[::127.0.0.1]/",
    "http://[::169.254.169.254]/latest/meta-data/",
    "http://[::7f00:1]:3000/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[2002:a9fe:a9fe::]/",
    "http://[fd12:3456::1]/",
    "http://[fe80::1]/",
    "http://0x7f000001/",
    "http://2130706433/",
    "http://127.1/",
    "http://0177.0.0.1/",
  ];

  it.each(refused)("refuses %s", async (url) => {
    await expect(assertSafeUrl(url, { allowPrivate: false })).rejects.toBeInstanceOf(UnsafeUrlError);
    await expect(safeFetch(url, { method: "POST" }, { allowPrivate: false })).rejects.toBeInstanceOf(UnsafeUrlError);
  });

  it.each(["file:///etc/passwd", "ftp://example.com/x", "gopher://127.0.0.1/", "not a url", "http://user:pw@example.com/"])(
    "refuses %s whatever the address rule",
    async (url) => {
      await expect(assertSafeUrl(url, { allowPrivate: true })).rejects.toBeInstanceOf(UnsafeUrlError);
    },
  );

  it("refuses a name that resolves to loopback at connect time too (guarded lookup)", async () => {
    const result = await new Promise<{ err: NodeJS.ErrnoException | null }>((resolve) =>
      guardedLookup("localhost", { all: true }, (err) => resolve({ err })),
    );
    expect(result.err).toBeInstanceOf(UnsafeUrlError);
    expect(result.err?.code).toBe("EADDRNOTALLOWED");
  });

  describe("with a local server", () => {
    let server: http.Server;
    let port: number;
    let hits = 0;

    beforeAll(async () => {
      server = http.createServer((req, res) => {
        hits += 1;
        if (req.url === "/redirect") {
          res.writeHead(302, { location: "http://127.0.0.1/elsewhere" }).end();
          return;
        }
        if (req.url === "/hop") {
          res.writeHead(307, { location: "/final" }).end();
          return;
        }
        if (req.url === "/to-metadata") {
          res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
          return;
        }
        if (req.url === "/to-file") {
          res.writeHead(301, { location: "file:///etc/passwd" }).end();
          return;
        }
        if (req.url === "/see-other") {
          res.writeHead(303, { location: "/final" }).end();
          return;
        }
        if (req.url === "/slow") {
          setTimeout(() => res.writeHead(200).end("late"), 2000);
          return;
        }
        if (req.url === "/final") {
          const chunks: Buffer[] = [];
          req.on("data", (c: Buffer) => chunks.push(c));
          req.on("end", () => res.writeHead(200, { "content-type": "text/plain" }).end(`${req.method} ${Buffer.concat(chunks).toString()}`));
          return;
        }
        res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    });

    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("refuses it by default and reaches it when private endpoints are allowed", async () => {
      const before = hits;
      await expect(safeFetch(`http://127.0.0.1:${port}/`, {}, { allowPrivate: false })).rejects.toBeInstanceOf(UnsafeUrlError);
      expect(hits).toBe(before);
      const res = await safeFetch(`http://127.0.0.1:${port}/`, {}, { allowPrivate: true });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("ok");
    });

    it("does not follow redirects", async () => {
      const res = await safeFetch(`http://127.0.0.1:${port}/redirect`, {}, { allowPrivate: true });
      expect(res.status).toBe(302);
    });

    it("follows redirects when asked, repeating the method and body on 307 and switching to GET on 303", async () => {
      const hop = await safeFetch(`http://127.0.0.1:${port}/hop`, { method: "POST", body: "hello" }, { allowPrivate: true, followRedirects: 2 });
      expect(hop.status).toBe(200);
      expect(await hop.text()).toBe("POST hello");
      const seeOther = await safeFetch(`http://127.0.0.1:${port}/see-other`, { method: "POST", body: "x" }, { allowPrivate: true, followRedirects: 2 });
      expect(await seeOther.text()).toBe("GET ");
    });

    it("checks every redirect hop again: a trusted first host cannot redirect to a private or non-http target", async () => {
      const origin = `127.0.0.1:${port}`;
      // Private addresses are allowed for this server only, as an operator would allow one internal host.
      const onlyThisServer = (url: URL) => url.host === origin;
      await expect(safeFetch(`http://${origin}/to-metadata`, {}, { allowPrivate: onlyThisServer, followRedirects: 3 })).rejects.toThrow(
        /169\.254\.169\.254 is a private, loopback or link-local address/,
      );
      await expect(safeFetch(`http://${origin}/to-file`, {}, { allowPrivate: true, followRedirects: 3 })).rejects.toBeInstanceOf(UnsafeUrlError);
      // The same hop is fine once its target is trusted too, proving the refusal came from the hop check.
      const reached = await safeFetch(`http://${origin}/hop`, {}, { allowPrivate: onlyThisServer, followRedirects: 3 });
      expect(reached.status).toBe(200);
    });

    it("gives up when the caller's own signal aborts, well before its timeout", async () => {
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 50);
      await expect(safeFetch(`http://127.0.0.1:${port}/slow`, { signal: controller.signal } as never, { allowPrivate: true })).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(1500);
    });

    it("stops after the allowed number of redirects and returns the 3xx", async () => {
      const res = await safeFetch(`http://127.0.0.1:${port}/hop`, {}, { allowPrivate: true, followRedirects: 0 });
      expect(res.status).toBe(307);
    });
  });
});
