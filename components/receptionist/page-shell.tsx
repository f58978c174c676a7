import Link from "next/link";
import type { ReactNode } from "react";

const links = [
  { href: "/tasks", label: "Tasks" },
  { href: "/recaps", label: "Recaps" },
  { href: "/contacts", label: "Contacts" },
  { href: "/outbox", label: "Outbox" },
];

/** The receptionist's pages share a header and links to each other. */
export function ReceptionistPage({ title, description, testId, actions, children }: { title: string; description: string; testId: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8" data-testid={testId}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
          <p className="text-muted-foreground">{description}</p>
          <nav aria-label="Receptionist" className="flex flex-wrap gap-3 text-sm">
            {links.map((l) => (
              <Link key={l.href} href={l.href} className="text-primary underline underline-offset-4">
                {l.label}
              </Link>
            ))}
          </nav>
        </div>
        {actions}
      </div>
      {children}
    </div>
  );
}

export function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
