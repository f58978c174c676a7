/** What a daily recap holds (stored as JSON on `recap.content`, shown by the Recaps page). */
export type { RecapContent, RecapItem } from "@/db/schema/receptionist";
