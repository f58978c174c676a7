import * as React from "react";
import { cn } from "@/lib/platform/utils";

export const inputClassName =
  "flex h-9 w-full min-w-0 rounded-md border border-input bg-background/60 px-3 py-1 text-sm text-foreground shadow-xs transition-colors outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/30";

export function Input({ className, type = "text", ...props }: React.ComponentProps<"input">) {
  return <input type={type} className={cn(inputClassName, className)} {...props} />;
}
