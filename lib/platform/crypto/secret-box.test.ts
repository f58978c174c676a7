import { decryptSecret, encryptSecret, secretHint } from "./secret-box";

describe("secret box", () => {
  it("round-trips and never stores the plaintext", () => {
    const sealed = encryptSecret("sk-ant-very-secret-1234");
    expect(sealed).not.toContain("very-secret");
    expect(decryptSecret(sealed)).toBe("sk-ant-very-secret-1234");
  });

  it("uses a fresh IV each time", () => {
    expect(encryptSecret("same")).not.toBe(encryptSecret("same"));
  });

  it("refuses a tampered ciphertext", () => {
    const sealed = encryptSecret("value");
    const parts = sealed.split(".");
    parts[3] = Buffer.from("other").toString("base64url");
    expect(() => decryptSecret(parts.join("."))).toThrow();
  });

  it("shows only the last four characters", () => {
    expect(secretHint("sk-live-abcdef1234")).toBe("…1234");
    expect(secretHint("abc")).toBe("…");
  });
});
