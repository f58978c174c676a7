import "server-only";
import crypto from "node:crypto";
import { Role, TaskState, type Message, type Part, type Task } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import type { Db } from "@/db/client";
import type { TranscriptTurn } from "@/db/schema";
import { conversationTranscript, recordExchange, type AgentSender } from "./conversations";
import { findSkill, orgAgentSkills, SkillError } from "./skills";

/**
 * The organization's agent logic (the SDK's AgentExecutor): every message becomes a task —
 * submitted, working, then completed with the answer (as the status message and an "answer"
 * artifact) or failed with the reason — and the exchange is recorded in Call History.
 */
const textPart = (value: string): Part => ({ content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "text/plain" });

function agentMessage(taskId: string, contextId: string, text: string): Message {
  return { messageId: crypto.randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

function readMessage(message: Message): { text: string; data: Record<string, unknown> | null; skillId: string | null; sender: AgentSender } {
  const texts: string[] = [];
  let data: Record<string, unknown> | null = null;
  for (const part of message.parts ?? []) {
    const content = part.content;
    if (content?.$case === "text") texts.push(content.value);
    else if (content?.$case === "data" && content.value && typeof content.value === "object" && !Array.isArray(content.value)) {
      data = { ...(data ?? {}), ...(content.value as Record<string, unknown>) };
    }
  }
  const meta = (message.metadata ?? {}) as Record<string, unknown>;
  const senderMeta = (meta.sender && typeof meta.sender === "object" ? meta.sender : {}) as Record<string, unknown>;
  const str = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
  const skillId = str(meta.skill) ?? str(meta.skillId) ?? str(data?.skill) ?? null;
  let text = texts.join("\n").trim();
  if (!text && data) text = str(data.message) ?? str(data.text) ?? str(data.question) ?? JSON.stringify(data);
  return {
    text: text.slice(0, 8000),
    data,
    skillId,
    sender: { name: str(senderMeta.name) ?? str(meta.agentName) ?? str(meta.senderName), agentUrl: str(senderMeta.agentUrl) ?? str(meta.agentUrl) },
  };
}

export class OrgAgentExecutor implements AgentExecutor {
  /** Tasks being worked on in this process, and those asked to stop. */
  private static running = new Map<string, string>();
  private static canceled = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly organizationId: string,
  ) {}

  execute = async (requestContext: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = requestContext;
    const userMessage = requestContext.userMessage;
    const now = () => new Date().toISOString();
    const task: Task = requestContext.task ?? {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: now(), message: undefined },
      artifacts: [],
      history: [userMessage],
      metadata: undefined,
    };
    bus.publish(AgentEvent.task(task));
    OrgAgentExecutor.running.set(taskId, contextId);
    try {
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state: TaskState.TASK_STATE_WORKING, timestamp: now(), message: undefined }, metadata: undefined }));
      const input = readMessage(userMessage);
      const skill = findSkill(input.skillId);
      const history = await conversationTranscript(this.db, this.organizationId, contextId);
      const askedAt = now();
      let answer: string;
      let failed = false;
      let result: Awaited<ReturnType<NonNullable<typeof skill>["run"]>> | null = null;
      try {
        if (!skill) throw new SkillError(`This agent has no skill "${input.skillId}". It offers: ${orgAgentSkills.map((s) => s.id).join(", ")}.`);
        if (!input.text) throw new SkillError("The message has no text.");
        result = await skill.run({ db: this.db, organizationId: this.organizationId, text: input.text, data: input.data, sender: input.sender, history, contextId });
        answer = result.text;
      } catch (error) {
        if (!(error instanceof SkillError)) console.error("[a2a] skill failed", error);
        answer = error instanceof SkillError ? error.message : "Something went wrong while answering. Please try again later.";
        failed = true;
      }
      if (OrgAgentExecutor.canceled.has(taskId)) return;

      const turns: TranscriptTurn[] = [
        { speaker: "agent", text: input.text || "(no text)", at: askedAt },
        { speaker: "assistant", text: answer, at: now() },
      ];
      await recordExchange(this.db, {
        organizationId: this.organizationId,
        contextId,
        sender: input.sender,
        assistantId: result?.assistantId ?? null,
        turns,
        summary: result?.summary ?? `An AI agent's message could not be answered: ${answer}`,
        intent: result?.intent ?? null,
        status: failed ? "failed" : "completed",
      });

      if (!failed) {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: { artifactId: crypto.randomUUID(), name: "answer", description: `Answer (${skill!.id})`, parts: [textPart(answer)], metadata: undefined, extensions: [] },
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
      }
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state: failed ? TaskState.TASK_STATE_FAILED : TaskState.TASK_STATE_COMPLETED, timestamp: now(), message: agentMessage(taskId, contextId, answer) },
          metadata: undefined,
        }),
      );
    } finally {
      OrgAgentExecutor.running.delete(taskId);
      OrgAgentExecutor.canceled.delete(taskId);
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const contextId = OrgAgentExecutor.running.get(taskId);
    if (contextId === undefined) return;
    OrgAgentExecutor.canceled.add(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_CANCELED, timestamp: new Date().toISOString(), message: agentMessage(taskId, contextId, "The task was canceled.") },
        metadata: undefined,
      }),
    );
  };
}
