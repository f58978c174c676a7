"use client";

import { apiRequest } from "@/lib/platform/api-client";

/** Downloads a CSV route with the caller's session (the file name comes from the server). */
export async function downloadCsv(url: string): Promise<void> {
  const res = await apiRequest("GET", url);
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "export.csv";
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
