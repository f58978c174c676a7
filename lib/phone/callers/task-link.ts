/** Where a task points in the app: its call or its text (also linked from the Asana task it makes). */
export function taskLink(row: { callId: string | null; messageId: string | null }): string | null {
  if (row.callId) return `/call-history?call=${row.callId}`;
  if (row.messageId) return `/call-history?message=${row.messageId}`;
  return null;
}
