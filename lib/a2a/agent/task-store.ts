import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { TaskState, type ListTasksRequest, type ListTasksResponse, type Task } from "@a2a-js/sdk";
import type { TaskStore } from "@a2a-js/sdk/server";
import type { Db } from "@/db/client";
import { a2aTasks } from "@/db/schema";
import { taskStateName } from "../messages";

/**
 * The SDK's TaskStore for one organization's agent, in the database (a2a_task), so GetTask and
 * CancelTask work on any instance and after a restart. Every query is scoped to the organization.
 */
export class DbTaskStore implements TaskStore {
  constructor(
    private readonly db: Db,
    private readonly organizationId: string,
  ) {}

  async save(task: Task): Promise<void> {
    const now = new Date();
    const json = JSON.parse(JSON.stringify(task)) as Record<string, unknown>;
    const state = taskStateName(task.status?.state);
    await this.db
      .insert(a2aTasks)
      .values({ id: task.id, organizationId: this.organizationId, contextId: task.contextId, state, task: json, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: a2aTasks.id, set: { task: json, state, updatedAt: now }, setWhere: eq(a2aTasks.organizationId, this.organizationId) });
  }

  async load(taskId: string): Promise<Task | undefined> {
    const [row] = await this.db
      .select({ task: a2aTasks.task })
      .from(a2aTasks)
      .where(and(eq(a2aTasks.organizationId, this.organizationId), eq(a2aTasks.id, taskId)))
      .limit(1);
    return row ? (row.task as unknown as Task) : undefined;
  }

  async list(params: ListTasksRequest): Promise<ListTasksResponse> {
    const pageSize = Math.min(Math.max(params.pageSize ?? 50, 1), 100);
    const where = [eq(a2aTasks.organizationId, this.organizationId)];
    if (params.contextId) where.push(eq(a2aTasks.contextId, params.contextId));
    if (params.status && params.status !== TaskState.UNRECOGNIZED) where.push(eq(a2aTasks.state, taskStateName(params.status)));
    const rows = await this.db
      .select({ task: a2aTasks.task })
      .from(a2aTasks)
      .where(and(...where))
      .orderBy(desc(a2aTasks.updatedAt))
      .limit(pageSize);
    const tasks = rows.map((r) => r.task as unknown as Task);
    return { tasks, nextPageToken: "", pageSize, totalSize: tasks.length };
  }
}
