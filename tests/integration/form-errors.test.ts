import { POST as register } from "@/app/api/auth/register/route";
import { apiRequest } from "@/lib/platform/api-client";
import { closeDb } from "@/lib/platform/database";
import { fieldErrorsOf, serverFieldErrors } from "@/components/platform/server-errors";
import { call } from "../helpers/http";

/**
 * A form shows a route's 400 field messages under its fields (components/platform/server-errors.ts):
 * the route's real answer goes through the browser's apiRequest, as on the screen.
 */
async function errorOf(status: number, text: string): Promise<unknown> {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async () => new Response(text, { status })) as typeof fetch;
  try {
    await apiRequest("POST", "/api/example", {});
  } catch (error) {
    return error;
  } finally {
    globalThis.fetch = realFetch;
  }
  throw new Error("apiRequest did not fail");
}

describe("field messages of a failed request", () => {
  afterAll(() => closeDb());

  it("are the route's own messages, field by field", async () => {
    const res = await call(register, "POST", "/api/auth/register", { body: { email: "not-an-email", password: "123", username: "ab", firstName: "Dana", lastName: "Reyes" } });
    expect(res.status).toBe(400);
    const error = await errorOf(res.status, res.text);
    const expected = { email: "Please enter a valid email", password: "Password must be at least 6 characters", username: "Username must be at least 3 characters" };
    expect(serverFieldErrors(error)).toEqual(expected);
    expect(fieldErrorsOf(error)).toEqual(expected);
  });

  it("are none for an answer without field errors (the form shows the toast instead)", async () => {
    for (const error of [await errorOf(409, JSON.stringify({ message: "Email already registered" })), await errorOf(502, "Bad Gateway"), new TypeError("Failed to fetch"), "not an error"]) {
      expect(serverFieldErrors(error)).toBeNull();
      expect(fieldErrorsOf(error)).toEqual({});
    }
  });
});
