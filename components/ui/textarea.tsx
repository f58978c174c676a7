import * as React from "react";
import { cn } from "@/lib/platform/utils";
import { inputClassName } from "./input";

export function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  return <textarea className={cn(inputClassName, "h-auto min-h-20 py-2", className)} {...props} />;
}
