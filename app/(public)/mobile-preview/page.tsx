import type { Metadata } from "next";
import { MobilePreviewScreen } from "@/components/placeholders/feature-screens";

export const metadata: Metadata = { title: "Mobile Preview" };

/** Public: reachable signed in and signed out (spec core §2). */
export default function MobilePreviewPage() {
  return <MobilePreviewScreen />;
}
