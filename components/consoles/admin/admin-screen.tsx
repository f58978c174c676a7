"use client";

import type { LucideIcon } from "lucide-react";
import { Building2, DollarSign, PhoneCall, Users } from "lucide-react";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { AnalyticsTab, OrganizationsTab, SettingsTab } from "./overview-tabs";
import { UsersTab } from "./users-tab";
import { useAdminStats, type AdminStats } from "./use-admin";

const numberFormat = new Intl.NumberFormat("en-US");
const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

const cards: { key: keyof AdminStats; label: string; icon: LucideIcon; testId: string; format: (n: number) => string }[] = [
  { key: "totalUsers", label: "Total Users", icon: Users, testId: "admin-stat-users", format: (n) => numberFormat.format(n) },
  { key: "totalOrganizations", label: "Organizations", icon: Building2, testId: "admin-stat-organizations", format: (n) => numberFormat.format(n) },
  { key: "activeCalls", label: "Active Calls", icon: PhoneCall, testId: "admin-stat-active-calls", format: (n) => numberFormat.format(n) },
  { key: "monthlyRevenue", label: "Revenue", icon: DollarSign, testId: "admin-stat-revenue", format: (n) => dollars.format(Math.floor(n)) },
];

/** The admin dashboard at /admin and /admin-dashboard (core §2): platform-wide, admin roles only. */
export function AdminScreen() {
  const { data: stats, isLoading, isError } = useAdminStats();
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="admin-dashboard">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Admin Dashboard</h1>
        <p className="text-muted-foreground">Users, organizations and activity across the whole platform.</p>
      </div>

      <section aria-label="Platform figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {cards.map(({ key, label, icon: Icon, testId, format }) => (
          <Card key={key} data-testid={testId}>
            <CardContent className="flex items-start justify-between gap-4 p-5">
              <div className="flex min-w-0 flex-col gap-2">
                <p className="text-sm font-medium text-muted-foreground">{label}</p>
                {isLoading ? (
                  <Skeleton className="h-8 w-20" />
                ) : (
                  <p className="text-3xl font-semibold tracking-tight tabular-nums" data-testid={`${testId}-value`}>
                    {stats && !isError ? format(stats[key]) : "—"}
                  </p>
                )}
                {key === "monthlyRevenue" ? <p className="text-xs text-muted-foreground">Paid this month</p> : null}
                {key === "activeCalls" ? <p className="text-xs text-muted-foreground">Ringing or in progress</p> : null}
              </div>
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-5" aria-hidden />
              </span>
            </CardContent>
          </Card>
        ))}
      </section>

      <Tabs defaultValue="users">
        <TabsList>
          <TabsTrigger value="users">Users</TabsTrigger>
          <TabsTrigger value="organizations">Organizations</TabsTrigger>
          <TabsTrigger value="analytics">Analytics</TabsTrigger>
          <TabsTrigger value="settings">Settings</TabsTrigger>
        </TabsList>
        <TabsContent value="users">
          <UsersTab />
        </TabsContent>
        <TabsContent value="organizations">
          <OrganizationsTab />
        </TabsContent>
        <TabsContent value="analytics">
          <AnalyticsTab />
        </TabsContent>
        <TabsContent value="settings">
          <SettingsTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
