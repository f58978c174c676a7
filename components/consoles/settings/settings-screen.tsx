"use client";

import * as React from "react";
import { BookingSettingsPanel } from "@/components/scheduling/appointments/booking-settings";
import Link from "next/link";
import { ArrowRight, Building2 } from "lucide-react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { AccessTokensCard } from "./access-tokens-card";
import { CallsTab } from "./calls-tab";
import { ComplianceTab } from "./compliance-tab";
import { ApiKeysTab } from "./api-keys-tab";
import { NotificationsTab } from "./notifications-tab";
import { ProfileTab } from "./profile-tab";
import { SecurityTab } from "./security-tab";

/** /settings (core §2): Profile, Security, Notifications and API Keys, plus Calendar (bookings); the Business page is one link away. */
const TAB_VALUES = ["profile", "security", "notifications", "api-keys", "calendar", "calls"] as const;

export function SettingsScreen() {
  // `?tab=notifications` opens that tab (the notification inbox links to it).
  // The screen renders only in the browser, after the auth gate: the address is there to read.
  const [tab, setTab] = React.useState<string>(() => {
    const asked = typeof window === "undefined" ? null : new URLSearchParams(window.location.search).get("tab");
    return asked && (TAB_VALUES as readonly string[]).includes(asked) ? asked : "profile";
  });
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="settings">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Settings</h1>
        <p className="text-muted-foreground">Your account, notifications and your organization&apos;s provider keys.</p>
      </div>
      <Link
        href="/settings/business"
        className="group flex items-start gap-4 rounded-xl border border-border bg-card p-5 transition-colors outline-none hover:border-primary/50 hover:bg-accent/40 focus-visible:ring-2 focus-visible:ring-ring"
        data-testid="settings-business-link"
      >
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Building2 className="size-5" aria-hidden />
        </span>
        <span className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="flex items-center gap-1.5 font-medium">
            Business
            <ArrowRight className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5 group-hover:text-primary" aria-hidden />
          </span>
          <span className="text-sm text-muted-foreground">
            Hours, holidays, services and prices, policies and FAQs: what your assistant tells callers, and the questions it could not answer.
          </span>
        </span>
      </Link>
      <Tabs value={tab} onValueChange={setTab} className="flex flex-col gap-6">
        {/* The tabs wrap onto a second line on a phone rather than hide off-screen. */}
        <TabsList className="h-auto w-full max-w-full flex-wrap justify-start sm:w-auto">
          <TabsTrigger value="profile" data-testid="settings-tab-profile">
            Profile
          </TabsTrigger>
          <TabsTrigger value="security" data-testid="settings-tab-security">
            Security
          </TabsTrigger>
          <TabsTrigger value="notifications" data-testid="settings-tab-notifications">
            Notifications
          </TabsTrigger>
          <TabsTrigger value="api-keys" data-testid="settings-tab-api-keys">
            API Keys
          </TabsTrigger>
          <TabsTrigger value="calendar" data-testid="settings-tab-calendar">
            Calendar
          </TabsTrigger>
          <TabsTrigger value="calls" data-testid="settings-tab-calls">
            Calls
          </TabsTrigger>
          <TabsTrigger value="compliance" data-testid="settings-tab-compliance">
            Compliance
          </TabsTrigger>
        </TabsList>
        <TabsContent value="profile">
          <ProfileTab />
        </TabsContent>
        <TabsContent value="security">
          <SecurityTab />
        </TabsContent>
        <TabsContent value="notifications">
          <NotificationsTab />
        </TabsContent>
        <TabsContent value="api-keys" className="flex flex-col gap-6">
          <ApiKeysTab />
          <AccessTokensCard />
        </TabsContent>
        <TabsContent value="calendar">
          <BookingSettingsPanel />
        </TabsContent>
        <TabsContent value="calls">
          <CallsTab />
        </TabsContent>
        <TabsContent value="compliance">
          <ComplianceTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
