import { apiKeysInput, notificationsInput, passwordInput, profileInput } from "./schema";

describe("settings schemas", () => {
  it("normalizes the profile e-mail and trims names", () => {
    expect(profileInput.parse({ firstName: " Ann ", lastName: "Lee ", email: " Ann@Example.COM " })).toEqual({
      firstName: "Ann",
      lastName: "Lee",
      email: "ann@example.com",
    });
  });

  it("puts the password mismatch on confirmPassword", () => {
    const result = passwordInput.safeParse({ currentPassword: "x", newPassword: "long-enough", confirmPassword: "different" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["confirmPassword", "Passwords don't match"]]);
  });

  it("accepts a 34-character AC account SID only", () => {
    const token = "0123456789abcdef0123456789abcdef";
    expect(apiKeysInput.safeParse({ twilio: { accountSid: `AC${token}`, authToken: token } }).success).toBe(true);
    for (const accountSid of [`AB${token}`, `AC${token}0`, "AC123", ""]) {
      const result = apiKeysInput.safeParse({ twilio: { accountSid, authToken: token } });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0].path.join(".")).toBe("twilio.accountSid");
    }
  });

  it("requires at least one field", () => {
    expect(apiKeysInput.safeParse({}).success).toBe(false);
    expect(notificationsInput.safeParse({}).success).toBe(false);
    expect(notificationsInput.parse({ callAlerts: false })).toEqual({ callAlerts: false });
  });
});
