import Link from "next/link";
import type { LucideIcon } from "lucide-react";
import { ArrowRight } from "lucide-react";

export interface LinkCardProps {
  href: string;
  title: string;
  description: string;
  icon: LucideIcon;
  testId?: string;
}

/** A whole-card link with an icon, title and one line of description. */
export function LinkCard({ href, title, description, icon: Icon, testId }: LinkCardProps) {
  return (
    <Link
      href={href}
      data-testid={testId}
      className="group flex items-start gap-4 rounded-xl border border-border bg-card p-5 transition-colors outline-none hover:border-primary/50 hover:bg-accent/40 focus-visible:ring-2 focus-visible:ring-ring"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
        <Icon className="size-5" aria-hidden />
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="flex items-center gap-1.5 font-medium">
          {title}
          <ArrowRight
            className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5 group-hover:text-primary"
            aria-hidden
          />
        </span>
        <span className="text-sm text-muted-foreground">{description}</span>
      </span>
    </Link>
  );
}
