import type { Db } from "@/db/client";
import { sessionCache, watchSessions } from "./session-cache";

// The cache's own rules, with a stand-in for the database's change notices.
describe("session cache", () => {
  async function watched() {
    const db = {} as Db;
    let announce: () => void = () => undefined;
    await watchSessions(db, async (_channel, onNotify) => {
      announce = () => onNotify("session");
    });
    return { cache: sessionCache<{ id: string }>(db)!, announce: () => announce() };
  }

  it("is off for a handle nobody watches", () => {
    expect(sessionCache({} as Db)).toBeNull();
  });

  it("keeps a looked-up row until a change is announced", async () => {
    const { cache, announce } = await watched();
    expect(await cache.load("t1", async () => ({ id: "u1" }))).toEqual({ id: "u1" });
    expect(cache.get("t1")).toEqual({ id: "u1" });
    announce();
    expect(cache.get("t1")).toBeUndefined();
  });

  it("never keeps a row whose lookup was in flight when a change was announced", async () => {
    const { cache, announce } = await watched();
    let finish: (row: { id: string }) => void = () => undefined;
    const loading = cache.load("t1", () => new Promise((resolve) => (finish = resolve)));
    announce();
    finish({ id: "stale" });
    expect(await loading).toEqual({ id: "stale" }); // this request saw the database as it was
    expect(cache.get("t1")).toBeUndefined(); // the next one asks again
  });

  it("does not keep a missing session", async () => {
    const { cache } = await watched();
    expect(await cache.load("nope", async () => undefined)).toBeUndefined();
    expect(cache.stats().size).toBe(0);
  });
});
