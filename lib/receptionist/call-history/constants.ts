/** Values shared by the history route's schema and the screen's filters (client-safe). */
export const callStatuses = ["ringing", "in_progress", "completed", "missed", "voicemail", "failed"] as const;
export const messageStatuses = ["received", "sent", "delivered", "failed"] as const;
export const historyStatuses = [...new Set<string>([...callStatuses, ...messageStatuses])] as [string, ...string[]];
export const historyTypes = ["all", "call", "message", "voicemail"] as const;
export type HistoryType = (typeof historyTypes)[number];

export const statusLabels: Record<string, string> = {
  ringing: "Ringing",
  in_progress: "In progress",
  completed: "Completed",
  missed: "Missed",
  voicemail: "Voicemail",
  failed: "Failed",
  received: "Received",
  sent: "Sent",
  delivered: "Delivered",
};
