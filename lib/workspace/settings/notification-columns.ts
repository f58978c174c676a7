import "server-only";
import { notificationPreferences } from "@/db/schema";

/** The notification switches as selected columns (Settings → Notifications and the notifier read them alike). */
export const preferenceColumns = {
  emailNotifications: notificationPreferences.emailNotifications,
  callAlerts: notificationPreferences.callAlerts,
  systemUpdates: notificationPreferences.systemUpdates,
  messageAlerts: notificationPreferences.messageAlerts,
  voicemailAlerts: notificationPreferences.voicemailAlerts,
  missedCallAlerts: notificationPreferences.missedCallAlerts,
  urgentTaskAlerts: notificationPreferences.urgentTaskAlerts,
  alertEmails: notificationPreferences.alertEmails,
};
