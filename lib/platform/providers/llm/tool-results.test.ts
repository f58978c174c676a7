import { z } from "zod";
import { ok, refuse, toolSet } from "./tool-results";

describe("toolSet: one shape for every model tool's result", () => {
  const tools = toolSet(
    [{ name: "echo", description: "Says it back.", inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] } }],
    { echo: z.object({ word: z.string().min(1, "say a word") }) },
    { echo: async ({ word }) => (word === "no" ? refuse("Not that word.") : ok({ said: word })) },
  );

  it("runs the handler with the parsed input; a value comes back as JSON, a refusal as an error", async () => {
    expect(tools.names).toEqual(new Set(["echo"]));
    await expect(tools.call("echo", { word: "hi" })).resolves.toEqual({ text: '{"said":"hi"}', isError: false });
    await expect(tools.call("echo", { word: "no" })).resolves.toEqual({ text: "Not that word.", isError: true });
  });

  it("refuses an unknown tool and input its schema rejects, naming the field, without running the handler", async () => {
    await expect(tools.call("shout", {})).resolves.toEqual({ text: "There is no tool named shout.", isError: true });
    await expect(tools.call("echo", { word: "" })).resolves.toEqual({ text: "Invalid input: word: say a word", isError: true });
    await expect(tools.call("echo", undefined)).resolves.toMatchObject({ isError: true, text: expect.stringMatching(/^Invalid input: word:/) });
  });
});
