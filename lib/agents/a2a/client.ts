import "server-only";
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory, type Client } from "@a2a-js/sdk/client";
import { safeFetch, type SafeFetchInit } from "@/lib/platform/net/safe-fetch";
import { agentCardUrl } from "./card";

/**
 * Switchboard as an A2A client (@a2a-js/sdk, A2A v1.0): the SDK's ClientFactory reads the target's
 * card and picks its JSON-RPC or HTTP+JSON interface. Every request, to the card and to the interface
 * URL the card names, goes through the SSRF guard, redirects included.
 */
/** A blocking SendMessage waits for the other agent's answer: allow it this long. */
export const A2A_REQUEST_TIMEOUT_MS = 60_000;

function guardedFetch(timeoutMs: number): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    const options = { followRedirects: 3, timeoutMs };
    if (input instanceof Request) {
      return safeFetch(input.url, { method: input.method, headers: input.headers, body: init?.body ?? undefined } as SafeFetchInit, options);
    }
    return safeFetch(String(input), (init ?? {}) as SafeFetchInit, options);
  }) as unknown as typeof fetch;
}

export function a2aClientFactory(timeoutMs = A2A_REQUEST_TIMEOUT_MS): ClientFactory {
  const fetchImpl = guardedFetch(timeoutMs);
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
}

/**
 * An SDK client for the agent whose base URL is `endpoint` (its card at
 * `<endpoint>/.well-known/agent-card.json`, also when the endpoint has a path).
 */
export async function connectA2a(endpoint: string, timeoutMs = A2A_REQUEST_TIMEOUT_MS): Promise<Client> {
  return a2aClientFactory(timeoutMs).createFromUrl(agentCardUrl(endpoint), "");
}
