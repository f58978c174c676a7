import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ClientFactory } from "@a2a-js/sdk/client";
import { Role, TaskState, type Task } from "@a2a-js/sdk";
import { demoMasterAccount } from "../../lib/consoles/demo-accounts";
import { startA2aAgentFake, type A2aAgentFake } from "../fakes/a2a-agent";
import { startMcpServiceFake, type McpServiceFake } from "../fakes/mcp-service";
import { signInThroughApi, toastWith } from "./owner-helpers";

/**
 * MCP and A2A Management on the production build (advanced §2, §8), against real counterparts built
 * with the SDKs and running in this test process on 127.0.0.1 (the server runs with
 * ALLOW_PRIVATE_ENDPOINTS=true, see playwright.config.ts): a registered MCP service turns healthy, an
 * A2A agent comes online, answers a message, and the spec's empty states and toasts show.
 * Each test works as a fresh admin in a fresh organization, so the lists start empty.
 */

const PASSWORD = "secret123";
let mcpService: McpServiceFake;
let a2aAgent: A2aAgentFake;

test.beforeAll(async () => {
  mcpService = await startMcpServiceFake();
  a2aAgent = await startA2aAgentFake();
});
test.afterAll(async () => {
  await mcpService.stop();
  await a2aAgent.stop();
});

function uniqueSuffix() {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

/** Registers a user, makes them an admin (through the master admin) and signs the page in as them. */
async function signInAsNewAdmin(page: Page, request: APIRequestContext) {
  const suffix = uniqueSuffix();
  const email = `agents${suffix}@example.com`;
  const registered = await request.post("/api/auth/register", {
    data: { email, password: PASSWORD, username: `agents${suffix}`, firstName: "Ari", lastName: "Quinn" },
  });
  expect(registered.status()).toBe(200);
  const user = (await registered.json()) as { id: string; organizationId: string };
  const master = await request.post("/api/auth/login", { data: { email: demoMasterAccount.email, password: demoMasterAccount.password } });
  const { sessionId: masterSession } = (await master.json()) as { sessionId: string };
  const promoted = await request.put(`/api/admin/users/${user.id}`, { data: { role: "admin" }, headers: { authorization: `Bearer ${masterSession}` } });
  expect(promoted.status()).toBe(200);
  const sessionId = await signInThroughApi(page, { email, password: PASSWORD });
  return { sessionId, organizationId: user.organizationId };
}

test("MCP: empty states, register a service and see it turn healthy, toggle, delete, failure toast", async ({ page, request }) => {
  await signInAsNewAdmin(page, request);
  // Hold the first health answer back so the Health Monitor's loading text can be seen.
  let releaseHealth: () => void = () => undefined;
  const healthHeld = new Promise<void>((resolve) => (releaseHealth = resolve));
  await page.route(
    "**/api/mcp/health",
    async (route) => {
      await healthHeld;
      await route.continue();
    },
    { times: 1 },
  );
  await page.goto("/mcp");
  await expect(page.getByRole("heading", { name: "MCP Management", level: 1 })).toBeVisible();
  for (const label of ["Total Services", "Active Services", "Healthy Services", "Active Connections"]) {
    await expect(page.getByTestId("mcp-management").getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByTestId("mcp-services-empty")).toHaveText(/No services registered yet/);
  await page.getByTestId("mcp-tab-health").click();
  await expect(page.getByText("Loading health data...")).toBeVisible();
  releaseHealth();
  await expect(page.getByTestId("mcp-health-status")).toHaveText("Healthy");
  await page.getByTestId("mcp-tab-connections").click();
  await expect(page.getByText("No active connections")).toBeVisible();

  // Register: the form refuses metadata that is not a JSON object without calling the server.
  await page.getByTestId("mcp-tab-services").click();
  await page.getByTestId("mcp-register-open").click();
  const dialog = page.getByTestId("mcp-register-dialog");
  await dialog.getByLabel("Name").fill("Harbor Inventory");
  await dialog.getByLabel("Description").fill("Stock levels and reservations");
  await dialog.getByLabel("Endpoint").fill(mcpService.url);
  await dialog.getByLabel("Methods").fill("check_stock, reserve_item, cancel_reservation");
  await dialog.getByLabel("Metadata (JSON)").fill("{not json");
  await dialog.getByTestId("mcp-register-submit").click();
  await expect(dialog.getByText("Metadata must be a JSON object")).toBeVisible();
  await dialog.getByLabel("Metadata (JSON)").fill('{"team": "front desk"}');
  await dialog.getByTestId("mcp-register-submit").click();
  await expect(toastWith(page, "Service Registered")).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("mcp-service-row").filter({ hasText: "Harbor Inventory" });
  await expect(row.getByTestId("mcp-health")).toHaveAttribute("data-status", "healthy", { timeout: 20_000 });
  await expect(row.getByTestId("mcp-service-tools")).toContainText("check_stock");
  await expect(row.getByTestId("mcp-service-tools")).toContainText("reserve_item");
  await expect(row.getByTestId("mcp-service-tools")).toContainText("Missing: cancel_reservation");
  await expect(page.getByTestId("mcp-stat-healthy-value")).toHaveText("1");
  await expect(page.getByTestId("mcp-stat-total-value")).toHaveText("1");

  // The Health Monitor lists it with its latency; "Check now" measures again.
  await page.getByTestId("mcp-tab-health").click();
  const healthRow = page.getByTestId("mcp-health-row").filter({ hasText: "Harbor Inventory" });
  await expect(healthRow).toContainText(/\d+ ms/);
  await healthRow.getByRole("button", { name: "Check now" }).click();
  await expect(toastWith(page, "Service is healthy")).toBeVisible();

  // Deactivate: "Service Updated", not active any more.
  await page.getByTestId("mcp-tab-services").click();
  await row.getByTestId("mcp-service-toggle").click();
  await expect(toastWith(page, "Service Updated", "inactive")).toBeVisible();
  await expect(page.getByTestId("mcp-stat-active-value")).toHaveText("0");

  // A registration the server refuses shows "Registration Failed" with its message.
  await page.route("**/api/mcp/services/register", (route) =>
    route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ message: "The registry is full" }) }),
  );
  await page.getByTestId("mcp-register-open").click();
  await dialog.getByLabel("Name").fill("Second");
  await dialog.getByLabel("Description").fill("x");
  await dialog.getByLabel("Endpoint").fill(mcpService.url);
  await dialog.getByLabel("Methods").fill("a");
  await dialog.getByTestId("mcp-register-submit").click();
  await expect(toastWith(page, "Registration Failed", "The registry is full")).toBeVisible();
  await page.unroute("**/api/mcp/services/register");
  await page.keyboard.press("Escape");

  // Delete: confirm, "Service Removed", the empty state again.
  await row.getByTestId("mcp-service-delete").click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toastWith(page, "Service Removed")).toBeVisible();
  await expect(page.getByTestId("mcp-services-empty")).toBeVisible();
});

test("MCP: an access token from Settings lets an MCP client in, and it shows as a connection", async ({ page, request, baseURL }) => {
  await signInAsNewAdmin(page, request);
  await page.goto("/settings");
  await page.getByTestId("settings-tab-api-keys").click();
  const card = page.getByTestId("access-tokens");
  await expect(card.getByTestId("access-tokens-empty")).toBeVisible();
  await card.getByTestId("access-token-name").fill("E2E laptop");
  await card.getByTestId("access-token-scope-dashboard:read").check();
  await card.getByTestId("access-token-create").click();
  await expect(toastWith(page, "Access token created")).toBeVisible();
  const token = (await card.getByTestId("access-token-value").textContent())!.trim();
  expect(token).toMatch(/^sbat_/);
  await expect(card.getByTestId("access-token-row")).toContainText("E2E laptop");

  const client = new Client({ name: "e2e-desktop", version: "4.2.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/api/mcp/server`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const stats = await client.callTool({ name: "get_dashboard_stats", arguments: {} });
  expect(stats.isError).toBeFalsy();
  await client.close();

  await page.goto("/mcp");
  await page.getByTestId("mcp-tab-connections").click();
  const connection = page.getByTestId("mcp-connection-row").filter({ hasText: "e2e-desktop" });
  await expect(connection).toContainText("Connected");
  await expect(connection).toContainText("calls:read");
  await expect(connection).toContainText("dashboard:read");
  await expect(page.getByTestId("mcp-stat-connections-value")).toHaveText("1");

  // Revoking the token in Settings refuses the client at once.
  await page.goto("/settings");
  await page.getByTestId("settings-tab-api-keys").click();
  await page.getByTestId("access-token-revoke").click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke" }).click();
  await expect(toastWith(page, "Access token revoked")).toBeVisible();
  const refused = await request.post(`${baseURL}/api/mcp/server`, {
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(refused.status()).toBe(401);
});

test("A2A: empty state, create an agent and see it online, send a message and see the answer, toasts", async ({ page, request, baseURL }) => {
  const { organizationId } = await signInAsNewAdmin(page, request);
  await page.goto("/a2a");
  await expect(page.getByRole("heading", { name: "A2A Management", level: 1 })).toBeVisible();
  for (const label of ["Total", "Online", "Offline", "Organizations"]) {
    await expect(page.getByTestId("a2a-management").getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByText("No A2A agents registered yet")).toBeVisible();

  // The Monitor tab names this organization's own agent endpoint.
  await page.getByTestId("a2a-tab-monitor").click();
  await expect(page.getByTestId("a2a-protocol-status")).toHaveText("Active");
  await expect(page.getByTestId("a2a-own-endpoint")).toContainText(`/api/a2a/orgs/${organizationId}`);
  await page.getByTestId("a2a-tab-agents").click();

  // A creation the server refuses: "Creation Failed" with its message.
  await page.route("**/api/a2a/agents", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 400, contentType: "application/json", body: JSON.stringify({ message: "Invalid request: endpoint: not reachable" }) })
      : route.continue(),
  );
  await page.getByTestId("a2a-create-open").click();
  const create = page.getByTestId("a2a-create-dialog");
  await create.getByLabel("Name").fill("Broken");
  await create.getByLabel("Capabilities").fill("x");
  await create.getByTestId("a2a-create-submit").click();
  await expect(toastWith(page, "Creation Failed", "not reachable")).toBeVisible();
  await page.unroute("**/api/a2a/agents");
  await page.keyboard.press("Escape");

  // Create the real one.
  await page.getByTestId("a2a-create-open").click();
  await create.getByLabel("Name").fill("Echo Concierge");
  await create.getByLabel("Capabilities").fill("echo, concierge");
  await create.getByLabel("Endpoint (optional)").fill(a2aAgent.url);
  await create.getByTestId("a2a-create-submit").click();
  await expect(toastWith(page, "Agent Created")).toBeVisible();
  const row = page.getByTestId("a2a-agent-row").filter({ hasText: "Echo Concierge" });
  await expect(row.getByTestId("a2a-status")).toHaveAttribute("data-status", "online", { timeout: 20_000 });
  const id = await row.getAttribute("data-agent-id");
  await expect(row).toContainText(id!.slice(0, 8));
  await expect(page.getByTestId("a2a-stat-online-value")).toHaveText("1", { timeout: 10_000 });

  // An agent without an endpoint stays offline and cannot be sent to.
  await page.getByTestId("a2a-create-open").click();
  await create.getByLabel("Name").fill("Paper Agent");
  await create.getByLabel("Capabilities").fill("nothing");
  await create.getByTestId("a2a-create-submit").click();
  const offlineRow = page.getByTestId("a2a-agent-row").filter({ hasText: "Paper Agent" });
  await expect(offlineRow.getByTestId("a2a-status")).toHaveAttribute("data-status", "offline");
  await expect(offlineRow.getByTestId("a2a-agent-send")).toBeDisabled();

  // The Connections tab lists only the online agent.
  await page.getByTestId("a2a-tab-connections").click();
  await expect(page.getByTestId("a2a-connection")).toHaveCount(1);
  await expect(page.getByTestId("a2a-connection")).toContainText("Echo Concierge");
  await page.getByTestId("a2a-tab-agents").click();

  // Send from the row: "Message Sent", then the answer in the Monitor tab.
  await row.getByTestId("a2a-agent-send").click();
  const send = page.getByTestId("a2a-send-dialog");
  await expect(send.getByTestId("a2a-send-target")).toHaveValue(id!);
  await expect(send.getByTestId("a2a-send-payload")).toHaveValue(/"message": "Hello from another agent"/);
  await send.getByTestId("a2a-send-submit").click();
  await expect(toastWith(page, "Message Sent", "queued for delivery")).toBeVisible();
  await page.getByTestId("a2a-tab-monitor").click();
  const message = page.getByTestId("a2a-message-row").first();
  await expect(message).toHaveAttribute("data-status", "answered", { timeout: 20_000 });
  await expect(message.getByTestId("a2a-message-answer")).toContainText("Echo: Hello from another agent");

  // A send the server refuses: "Send Failed".
  await page.route(`**/api/a2a/agents/${id}/message`, (route) =>
    route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ message: "Echo Concierge is offline: messages can only be sent to online agents" }) }),
  );
  await page.getByTestId("a2a-send-open").click();
  await send.getByTestId("a2a-send-target").selectOption(id!);
  await send.getByTestId("a2a-send-submit").click();
  await expect(toastWith(page, "Send Failed", "is offline")).toBeVisible();
  await page.unroute(`**/api/a2a/agents/${id}/message`);
  await page.keyboard.press("Escape");

  // Delete: "Agent Removed".
  await page.getByTestId("a2a-tab-agents").click();
  await offlineRow.getByTestId("a2a-agent-delete").click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(toastWith(page, "Agent Removed")).toBeVisible();
  await expect(offlineRow).toHaveCount(0);

  // Another AI agent leaves a message with this business's own agent (served by next start, through
  // the SDK client); the exchange shows in Call History as a conversation with an agent.
  const own = await new ClientFactory().createFromUrl(`${baseURL}/api/a2a/orgs/${organizationId}/`);
  const task = (await own.sendMessage({
    tenant: "",
    message: {
      messageId: crypto.randomUUID(),
      contextId: "",
      taskId: "",
      role: Role.ROLE_USER,
      parts: [{ content: { $case: "text", value: "Please call Sam back about the crown fitting." }, metadata: undefined, filename: "", mediaType: "text/plain" }],
      metadata: { skill: "leave_message", sender: { name: "Front-desk bot", agentUrl: "https://bots.example/front-desk" } },
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  })) as Task;
  expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  await page.goto("/call-history");
  const conversation = page.getByTestId("history-row").filter({ hasText: "Front-desk bot" });
  await expect(conversation).toHaveAttribute("data-channel", "agent");
  await expect(conversation).toContainText("Agent");
  await conversation.click();
  await expect(page.getByRole("dialog")).toContainText("Please call Sam back about the crown fitting.");
  await expect(page.getByRole("dialog")).toContainText("passed on to the team");
});
