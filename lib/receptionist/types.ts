/** What a daily recap holds (stored as JSON on `recap.content`, shown by the Recaps page). */
export type RecapItem = { label: string; count: number; link: string; lines: { text: string; link: string }[] };
export type RecapContent = {
  date: string;
  timezone: string;
  from: string;
  to: string;
  answered: RecapItem;
  missed: RecapItem;
  spamBlocked: RecapItem;
  newTasks: RecapItem;
  knowledgeGaps: RecapItem;
  bookings: RecapItem;
};
