import type { Metadata } from "next";
import { BusinessScreen } from "@/components/knowledge/business/business-screen";
import { ServerData } from "@/components/shell/app-shell/server-data";
import { pageQueries } from "@/lib/platform/server/page-queries";

export const metadata: Metadata = { title: "Business" };

/** `?import=<url>` opens the import with that website filled in (from sign-up or the dashboard). */
export default async function BusinessPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const raw = params.import;
  const importUrl = typeof raw === "string" ? raw.slice(0, 2000) : undefined;
  return (
    <ServerData queries={pageQueries.business}>
      <BusinessScreen importUrl={importUrl} />
    </ServerData>
  );
}
