import type { Metadata } from "next";
import { MobilePreviewScreen } from "@/components/phone/mobile-preview/mobile-preview-screen";

export const metadata: Metadata = { title: "Mobile Preview" };

/** Public: reachable signed in and signed out (spec core §2); signed out it talks to the demo assistant. */
export default function MobilePreviewPage() {
  return <MobilePreviewScreen />;
}
