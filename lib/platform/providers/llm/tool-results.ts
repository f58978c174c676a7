import type { z } from "zod";
import type { ReplyTools, ToolCallResult, ToolDefinition } from "./interface";

/**
 * How a model tool's result is shaped, for every set of tools the conversation gives a language model
 * (the booking tools, take_message/transfer): a success is text (a value as JSON), a refusal is an
 * error the model reads and acts on, and input is checked against the tool's schema before its handler.
 */
export const ok = (value: unknown): ToolCallResult => ({ text: typeof value === "string" ? value : JSON.stringify(value), isError: false });
export const refuse = (message: string): ToolCallResult => ({ text: message, isError: true });

export type NamedTools = ReplyTools & { names: Set<string> };

/** A tool set: each call's input parsed by its tool's schema (a refusal naming what is wrong), then its handler. */
export function toolSet<I extends Record<string, z.ZodTypeAny>>(
  definitions: ToolDefinition[],
  inputs: I,
  handlers: { [K in keyof I]: (input: z.infer<I[K]>) => Promise<ToolCallResult> },
): NamedTools {
  return {
    names: new Set(definitions.map((d) => d.name)),
    definitions,
    async call(name, raw) {
      const schema = inputs[name as keyof I];
      if (!schema) return refuse(`There is no tool named ${name}.`);
      const parsed = schema.safeParse(raw ?? {});
      if (!parsed.success) return refuse(`Invalid input: ${parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ")}`);
      return handlers[name as keyof I](parsed.data);
    },
  };
}
