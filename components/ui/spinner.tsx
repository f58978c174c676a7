import * as React from "react";
import { LoaderCircle } from "lucide-react";
import { cn } from "@/lib/platform/utils";

/** A decorative spinning icon; pair it with visible or sr-only text. */
export function Spinner({ className, ...props }: React.ComponentProps<"svg">) {
  return <LoaderCircle aria-hidden className={cn("size-4 animate-spin", className)} {...props} />;
}
