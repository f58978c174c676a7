"use client";

import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useBookingSettings } from "./api";
import { BookingSettingsPanel } from "./booking-settings";
import { CalendarTab } from "./calendar-tab";
import { ServicesTab } from "./services-tab";
import { StaffTab } from "./staff-tab";

/** /appointments: the appointment book (day and week), services, staff and rooms, booking rules. */
export function AppointmentsScreen() {
  const { data: settings, isLoading } = useBookingSettings();
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 lg:px-8" data-testid="appointments">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Appointments</h1>
        <p className="text-muted-foreground">What your assistant and your team have booked, and the rules it books by.</p>
      </div>
      <Tabs defaultValue="calendar" className="flex flex-col gap-6">
        <TabsList className="w-full sm:w-auto">
          <TabsTrigger value="calendar">Calendar</TabsTrigger>
          <TabsTrigger value="services" data-testid="appointments-tab-services">
            Services
          </TabsTrigger>
          <TabsTrigger value="staff" data-testid="appointments-tab-staff">
            Staff &amp; rooms
          </TabsTrigger>
          <TabsTrigger value="settings" data-testid="appointments-tab-settings">
            Settings
          </TabsTrigger>
        </TabsList>
        <TabsContent value="calendar">{isLoading || !settings ? <Skeleton className="h-64 w-full" /> : <CalendarTab timezone={settings.timezone} />}</TabsContent>
        <TabsContent value="services">
          <ServicesTab />
        </TabsContent>
        <TabsContent value="staff">
          <StaffTab />
        </TabsContent>
        <TabsContent value="settings">
          <BookingSettingsPanel />
        </TabsContent>
      </Tabs>
    </div>
  );
}
