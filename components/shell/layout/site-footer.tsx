import Link from "next/link";
import { FooterStatus } from "./footer-status";
import { Logo } from "./logo";

const SUPPORT_EMAIL = "support@switchboard.dev";
const SUPPORT_PHONE_DISPLAY = "+1 (555) 010-0199";
const SUPPORT_PHONE_TEL = "+15550100199";

type FooterLink = { label: string; href?: string; external?: boolean };

const columns: { title: string; links: FooterLink[] }[] = [
  {
    title: "Product",
    links: [
      { label: "Voice Assistants", href: "/voice-assistants" },
      { label: "Phone Numbers", href: "/phone-numbers" },
      { label: "Integrations", href: "/integrations" },
      { label: "Call Analytics", href: "/call-history" },
    ],
  },
  {
    title: "Support",
    links: [
      // Placeholders until the help site exists (spec §2).
      { label: "Help Center" },
      { label: "Documentation" },
      { label: "Contact Support", href: `mailto:${SUPPORT_EMAIL}`, external: true },
      { label: SUPPORT_PHONE_DISPLAY, href: `tel:${SUPPORT_PHONE_TEL}`, external: true },
    ],
  },
  {
    title: "Legal",
    links: [
      { label: "Privacy Policy", href: "/privacy" },
      { label: "Terms of Service", href: "/terms" },
      { label: "Cookie Policy" },
      { label: "GDPR Compliance" },
    ],
  },
];

const linkClassName = "text-sm text-muted-foreground transition-colors hover:text-foreground";

function FooterItem({ link }: { link: FooterLink }) {
  if (!link.href) {
    return (
      <span className="text-sm text-muted-foreground" title="Coming soon">
        {link.label}
      </span>
    );
  }
  if (link.external) {
    return (
      <a href={link.href} className={linkClassName}>
        {link.label}
      </a>
    );
  }
  return (
    <Link href={link.href} className={linkClassName}>
      {link.label}
    </Link>
  );
}

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer data-layout="footer" className="border-t border-border bg-card/40">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-4 lg:px-8">
        <div className="flex flex-col gap-3">
          <Logo href="/" />
          <p className="max-w-xs text-sm text-muted-foreground">
            An AI phone desk that answers, routes and follows up on your business calls and messages.
          </p>
        </div>
        {columns.map((column) => (
          <div key={column.title}>
            <h2 className="text-sm font-semibold text-foreground">{column.title}</h2>
            <ul className="mt-3 flex flex-col gap-2">
              {column.links.map((link) => (
                <li key={link.label}>
                  <FooterItem link={link} />
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-5 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
          <p>Made in San Francisco, CA · Serving businesses worldwide</p>
          <div className="flex items-center gap-4">
            <FooterStatus />
            <span>© {year} Switchboard</span>
          </div>
        </div>
      </div>
    </footer>
  );
}
