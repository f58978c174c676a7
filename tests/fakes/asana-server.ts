/**
 * A local fake of Asana's OAuth and API 1.0 (the parts Switchboard uses), on 127.0.0.1 with a random
 * port. Point ASANA_OAUTH_BASE and ASANA_API_BASE at `url`. Wire format as Asana documents it:
 * - GET /-/oauth_authorize (auto-approved); POST /-/oauth_token (form, client in the body) →
 *   {access_token, refresh_token, expires_in: 3600, token_type: "bearer", data: {id, gid, name, email}};
 *   POST /-/oauth_revoke (form: client_id, client_secret, token).
 * - GET /api/1.0/workspaces → {data: [{gid, name, resource_type: "workspace"}]};
 *   GET /api/1.0/projects?workspace={gid} → {data: [{gid, name, resource_type: "project"}]}.
 * - POST /api/1.0/tasks {data: {name, notes, projects}} → 201 {data: task}; an unknown project → 400.
 * - GET /api/1.0/tasks/{gid}?opt_fields=… → {data: {gid, completed, completed_at}}.
 * - A dead token → 401 {errors: [{message: "Not Authorized"}]}.
 * `complete(gid)` is the owner ticking the task off in Asana.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthFake, readBody } from "./oauth-server";

export type AsanaTask = { gid: string; name: string; notes: string; projects: string[]; completed: boolean; completed_at: string | null };

export type FakeAsana = {
  url: string;
  oauth: OAuthFake;
  tasks: AsanaTask[];
  complete(gid: string): void;
  close(): Promise<void>;
};

export async function startFakeAsana(): Promise<FakeAsana> {
  const oauth = new OAuthFake({
    authorizePath: "/-/oauth_authorize",
    tokenPath: "/-/oauth_token",
    revoke: { path: "/-/oauth_revoke", how: "form" },
    expiresIn: 3600,
    tokenPrefix: "asana",
    extraTokenFields: { data: { id: "1200000000000001", gid: "1200000000000001", name: "Owner", email: "owner@example.com" } },
  });
  const workspace = { gid: "1100000000000001", name: "Fake Dental", resource_type: "workspace" };
  const project = { gid: "1300000000000001", name: "Front desk", resource_type: "project" };
  const tasks: AsanaTask[] = [];
  const error = (res: http.ServerResponse, status: number, message: string) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ errors: [{ message }] }));

  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake");
    if (oauth.handle(req, res, url, raw)) return;
    if (!oauth.validBearer(req)) return error(res, 401, "Not Authorized");
    const json = (value: unknown, status = 200) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ data: value }));
    if (req.method === "GET" && url.pathname === "/api/1.0/workspaces") return json([workspace]);
    if (req.method === "GET" && url.pathname === "/api/1.0/projects") {
      return json(url.searchParams.get("workspace") === workspace.gid ? [project] : []);
    }
    if (req.method === "POST" && url.pathname === "/api/1.0/tasks") {
      const { data } = JSON.parse(raw || "{}") as { data?: { name?: string; notes?: string; projects?: string[] } };
      if (!data?.name) return error(res, 400, "name: Missing input");
      if (!(data.projects ?? []).every((p) => p === project.gid)) return error(res, 400, "projects: Not a recognized ID");
      const task: AsanaTask = { gid: String(1400000000000000 + tasks.length + 1), name: data.name, notes: data.notes ?? "", projects: data.projects ?? [], completed: false, completed_at: null };
      tasks.push(task);
      return json({ ...task, resource_type: "task" }, 201);
    }
    const m = /^\/api\/1\.0\/tasks\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && m) {
      const task = tasks.find((t) => t.gid === m[1]);
      if (!task) return error(res, 404, "task: Unknown object");
      return json({ gid: task.gid, completed: task.completed, completed_at: task.completed_at });
    }
    error(res, 404, `No route ${req.method} ${url.pathname} ${crypto.randomUUID()}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    oauth,
    tasks,
    complete(gid) {
      const task = tasks.find((t) => t.gid === gid);
      if (task) Object.assign(task, { completed: true, completed_at: new Date().toISOString() });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
