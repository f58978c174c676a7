import * as React from "react";
import { cn } from "@/lib/platform/utils";

/** Validation message under a form field; link it to the input with aria-describedby={id}. */
export function FieldError({ id, message, className }: { id: string; message?: string; className?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className={cn("text-xs font-medium text-destructive", className)}>
      {message}
    </p>
  );
}
