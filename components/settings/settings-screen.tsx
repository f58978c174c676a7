"use client";

import { BookingSettingsPanel } from "@/components/appointments/booking-settings";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { AccessTokensCard } from "./access-tokens-card";
import { ApiKeysTab } from "./api-keys-tab";
import { NotificationsTab } from "./notifications-tab";
import { ProfileTab } from "./profile-tab";
import { SecurityTab } from "./security-tab";

/** /settings (core §2): Profile, Security, Notifications and API Keys. */
export function SettingsScreen() {
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="settings">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Settings</h1>
        <p className="text-muted-foreground">Your account, notifications and your organization&apos;s provider keys.</p>
      </div>
      <Tabs defaultValue="profile" className="flex flex-col gap-6">
        <TabsList className="w-full sm:w-auto">
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
      </Tabs>
    </div>
  );
}
