import Link from "next/link";
import { AudioLines } from "lucide-react";

export function Logo({ href }: { href: string }) {
  return (
    <Link
      href={href}
      data-testid="header-logo"
      className="flex items-center gap-2 rounded-md text-base font-semibold tracking-tight text-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm shadow-primary/30">
        <AudioLines className="size-4" aria-hidden />
      </span>
      Switchboard
    </Link>
  );
}
