/**
 * The credit gauge: credits used this period against the period's allowance (the plan's included
 * credits). Measured against the balance instead, a fresh purchase reset the gauge to "0% used";
 * measured against the allowance, buying credits leaves the gauge where it was and the balance
 * grows. Over the allowance (drawing on purchased credits) the gauge stays at 100.
 */
export function usagePercent(input: { used: number; allowance: number; unlimited: boolean }): number {
  if (input.unlimited || input.allowance <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((input.used * 100) / input.allowance)));
}
