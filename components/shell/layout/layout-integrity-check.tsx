"use client";

import * as React from "react";

const FIRST_CHECK_MS = 1000;
const CHECK_INTERVAL_MS = 3000;
const regions = ["header", "main", "footer"] as const;

/** Spec §2: checks that header, main and footer are on the page; it only ever warns. */
export function LayoutIntegrityCheck() {
  React.useEffect(() => {
    const check = () => {
      const missing = regions.filter((region) => !document.querySelector(`[data-layout="${region}"]`));
      if (missing.length > 0) console.warn(`Layout integrity: missing ${missing.join(", ")}`);
    };
    let interval: number | undefined;
    const first = window.setTimeout(() => {
      check();
      interval = window.setInterval(check, CHECK_INTERVAL_MS);
    }, FIRST_CHECK_MS);
    return () => {
      window.clearTimeout(first);
      if (interval !== undefined) window.clearInterval(interval);
    };
  }, []);
  return null;
}
