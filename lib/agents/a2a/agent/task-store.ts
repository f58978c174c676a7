import "server-only";
import { and, count, desc, eq, isNull, lt, ne, or, type SQL } from "drizzle-orm";
import { TaskState, type ListTasksRequest, type ListTasksResponse, type Task } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import type { Db } from "@/db/client";
import { a2aTasks } from "@/db/schema";
import { taskStateName } from "../messages";

/** ListTasks pages (A2A 1.0 §3.1.4): 50 tasks unless the caller asks for 1–100. */
export const TASK_PAGE_SIZE = { default: 50, max: 100 };

/**
 * The SDK's TaskStore for one organization's agent, in the database (a2a_task), so GetTask and
 * CancelTask work on any instance and after a restart. Every query is scoped to the organization
 * and to the caller (`context.user.userName`, the hash of its caller token, lib/agents/a2a/agent/caller.ts):
 * a task is visible only to the agent that created it.
 */
export class DbTaskStore implements TaskStore {
  constructor(
    private readonly db: Db,
    private readonly organizationId: string,
  ) {}

  private owner(context: ServerCallContext | undefined): string | null {
    const user = context?.user;
    return user?.isAuthenticated && user.userName ? user.userName : null;
  }

  private scope(context: ServerCallContext | undefined): SQL {
    const owner = this.owner(context);
    // No caller identity: nothing matches (owner_key = '' is never stored).
    return and(eq(a2aTasks.organizationId, this.organizationId), eq(a2aTasks.ownerKey, owner ?? ""))!;
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const owner = this.owner(context);
    if (!owner) throw new Error("An A2A task is saved only for an identified caller");
    const now = new Date();
    const json = JSON.parse(JSON.stringify(task)) as Record<string, unknown>;
    const state = taskStateName(task.status?.state);
    await this.db
      .insert(a2aTasks)
      .values({ id: task.id, organizationId: this.organizationId, ownerKey: owner, contextId: task.contextId, state, task: json, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: a2aTasks.id, set: { task: json, state, updatedAt: now }, setWhere: this.scope(context) });
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const [row] = await this.db
      .select({ task: a2aTasks.task })
      .from(a2aTasks)
      .where(and(this.scope(context), eq(a2aTasks.id, taskId)))
      .limit(1);
    return row ? (row.task as unknown as Task) : undefined;
  }

  /** True when another caller already holds tasks in this context (a context id is not a key to them). */
  async contextTakenByAnother(contextId: string, context: ServerCallContext): Promise<boolean> {
    const owner = this.owner(context) ?? "";
    const [row] = await this.db
      .select({ ownerKey: a2aTasks.ownerKey })
      .from(a2aTasks)
      .where(and(eq(a2aTasks.organizationId, this.organizationId), eq(a2aTasks.contextId, contextId), or(isNull(a2aTasks.ownerKey), ne(a2aTasks.ownerKey, owner))))
      .limit(1);
    return Boolean(row);
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const pageSize = Math.min(Math.max(params.pageSize ?? TASK_PAGE_SIZE.default, 1), TASK_PAGE_SIZE.max);
    const filters: SQL[] = [this.scope(context)];
    if (params.contextId) filters.push(eq(a2aTasks.contextId, params.contextId));
    if (params.status && params.status !== TaskState.UNRECOGNIZED) filters.push(eq(a2aTasks.state, taskStateName(params.status)));
    const matching = and(...filters)!;
    const after = params.pageToken ? decodePageToken(params.pageToken) : null;
    const page = after
      ? and(matching, or(lt(a2aTasks.updatedAt, after.updatedAt), and(eq(a2aTasks.updatedAt, after.updatedAt), lt(a2aTasks.id, after.id))))!
      : matching;
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({ id: a2aTasks.id, updatedAt: a2aTasks.updatedAt, task: a2aTasks.task })
        .from(a2aTasks)
        .where(page)
        .orderBy(desc(a2aTasks.updatedAt), desc(a2aTasks.id))
        .limit(pageSize + 1),
      this.db.select({ total: count() }).from(a2aTasks).where(matching),
    ]);
    const more = rows.length > pageSize;
    const shown = rows.slice(0, pageSize);
    const last = shown.at(-1);
    const tasks = shown.map((r) => {
      const task = r.task as unknown as Task;
      // includeArtifacts defaults to false (§3.1.4): the artifacts are left out unless asked for.
      return params.includeArtifacts ? task : { ...task, artifacts: [] };
    });
    return { tasks, nextPageToken: more && last ? encodePageToken(last) : "", pageSize, totalSize: total };
  }
}

function encodePageToken(row: { id: string; updatedAt: Date }): string {
  return Buffer.from(JSON.stringify({ u: row.updatedAt.toISOString(), i: row.id })).toString("base64url");
}

function decodePageToken(token: string): { updatedAt: Date; id: string } {
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { u?: unknown; i?: unknown };
    const updatedAt = new Date(String(parsed.u));
    if (typeof parsed.i !== "string" || Number.isNaN(updatedAt.getTime())) throw new Error("bad token");
    return { updatedAt, id: parsed.i };
  } catch {
    throw new RequestMalformedError("pageToken is not a token this agent issued");
  }
}
