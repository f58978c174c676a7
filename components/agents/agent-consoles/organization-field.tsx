"use client";

import { useAdminOrganizations } from "@/components/consoles/admin/use-admin";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { useAuth } from "@/lib/identity/auth/use-auth";

/**
 * The spec's organizationId field (advanced §5: numeric, default 0 = "my organization"). Records
 * belong to the caller's organization; only a master admin may pick another, so only a master admin
 * sees this field.
 */
export function OrganizationField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  const { user } = useAuth();
  const isMaster = user?.role === "master_admin";
  const organizations = useAdminOrganizations(isMaster);
  if (!isMaster) return null;
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>Organization</Label>
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid={id}>
        <option value="0">My organization</option>
        {(organizations.data ?? []).map((org) => (
          <option key={org.id} value={org.id}>
            {org.name}
          </option>
        ))}
      </Select>
    </div>
  );
}
