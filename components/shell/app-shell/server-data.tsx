import "server-only";
import * as React from "react";
import { HydrationBoundary } from "@tanstack/react-query";
import { prefetchQueries, type ServerQuery } from "@/lib/platform/server/prefetch";

/**
 * Renders its client components with their queries already answered (issue 30 point 5): the server
 * asks the API routes the page's components would ask (lib/platform/server/prefetch.ts) and hands the answers
 * to TanStack Query, so the first HTML holds the page's data and the client keeps its own polling,
 * refetching and mutations.
 */
export async function ServerData({ queries, children }: { queries: ServerQuery[]; children: React.ReactNode }) {
  const state = await prefetchQueries(queries);
  return <HydrationBoundary state={state}>{children}</HydrationBoundary>;
}
