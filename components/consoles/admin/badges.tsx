import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/platform/utils";

const grey = "border-transparent bg-muted text-muted-foreground";

/** Badge colours (advanced §4): role admin red, business blue, else grey (master admin counts as admin). */
export function RoleBadge({ role }: { role: string }) {
  const label = role === "master_admin" ? "master admin" : role;
  if (role === "admin" || role === "master_admin") return <Badge variant="destructive">{label}</Badge>;
  if (role === "business") return <Badge className="border-transparent bg-blue-500/15 text-blue-400">{label}</Badge>;
  return <Badge className={grey}>{label}</Badge>;
}

/** Status active green, suspended yellow, anything else red. */
export function StatusBadge({ status }: { status: string }) {
  const variant = status === "active" ? "success" : status === "suspended" ? "warning" : "destructive";
  return <Badge variant={variant}>{status.replace("_", " ")}</Badge>;
}

/** Tier enterprise purple, pro accent, else grey. */
export function TierBadge({ tier }: { tier: string }) {
  if (tier === "enterprise") return <Badge className="border-transparent bg-purple-500/15 text-purple-400">{tier}</Badge>;
  if (tier === "pro") return <Badge>{tier}</Badge>;
  return <Badge className={cn(grey)}>{tier}</Badge>;
}
