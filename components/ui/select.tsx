import * as React from "react";
import { ChevronDown } from "lucide-react";
import { cn } from "@/lib/platform/utils";
import { inputClassName } from "./input";

/** A styled native <select>: keyboard, screen-reader and mobile behaviour come for free. */
export function Select({ className, children, ...props }: React.ComponentProps<"select">) {
  return (
    <div className="relative">
      <select className={cn(inputClassName, "appearance-none pr-8", className)} {...props}>
        {children}
      </select>
      <ChevronDown
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
