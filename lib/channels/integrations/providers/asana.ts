import "server-only";
import { providerJson } from "@/lib/platform/outbound/provider-http";

/**
 * Asana API 1.0 (REST; no SDK installed):
 * - the picker: GET /api/1.0/workspaces, then GET /api/1.0/projects?workspace={gid}&archived=false;
 * - a receptionist task → POST /api/1.0/tasks {data: {name, notes, projects: [gid]}} → {data: {gid}};
 * - completion, polled: GET /api/1.0/tasks/{gid}?opt_fields=completed,completed_at.
 */
type Named = { gid: string; name: string };

export async function listProjects(apiBase: string, token: string): Promise<{ id: string; name: string }[]> {
  const { data: workspaces } = await providerJson<{ data: Named[] }>("Asana", `${apiBase}/api/1.0/workspaces`, token);
  const out: { id: string; name: string }[] = [];
  for (const w of workspaces) {
    const { data: projects } = await providerJson<{ data: Named[] }>("Asana", `${apiBase}/api/1.0/projects?workspace=${encodeURIComponent(w.gid)}&archived=false`, token);
    for (const p of projects) out.push({ id: p.gid, name: `${w.name} › ${p.name}` });
  }
  return out;
}

export async function createAsanaTask(apiBase: string, token: string, projectGid: string, task: { name: string; notes: string }): Promise<{ gid: string }> {
  const { data } = await providerJson<{ data: { gid: string } }>("Asana", `${apiBase}/api/1.0/tasks`, token, "POST", {
    data: { name: task.name.slice(0, 1000), notes: task.notes.slice(0, 60_000), projects: [projectGid] },
  });
  return { gid: data.gid };
}

export async function asanaTaskCompleted(apiBase: string, token: string, gid: string): Promise<boolean> {
  const { data } = await providerJson<{ data: { completed: boolean } }>("Asana", `${apiBase}/api/1.0/tasks/${encodeURIComponent(gid)}?opt_fields=completed,completed_at`, token);
  return data.completed === true;
}
