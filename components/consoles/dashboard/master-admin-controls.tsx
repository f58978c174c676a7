import { BarChart3, Settings2, Users } from "lucide-react";
import { LinkCard } from "./link-card";

export function MasterAdminControls() {
  return (
    <section aria-labelledby="master-admin-heading" className="flex flex-col gap-4" data-testid="master-admin-controls">
      <h2 id="master-admin-heading" className="text-lg font-semibold">
        Master Admin Controls
      </h2>
      <div className="grid gap-4 md:grid-cols-3">
        <LinkCard
          href="/master-admin"
          icon={Users}
          title="User Management"
          description="Every account on the platform: roles, subscriptions and credits."
          testId="master-user-management"
        />
        <LinkCard
          href="/analytics"
          icon={BarChart3}
          title="System Analytics"
          description="Platform-wide call, message and response-time trends."
          testId="master-system-analytics"
        />
        <LinkCard
          href="/settings"
          icon={Settings2}
          title="System Config"
          description="Provider keys, notifications and account settings."
          testId="master-system-config"
        />
      </div>
    </section>
  );
}
