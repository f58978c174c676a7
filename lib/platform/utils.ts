import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names and lets later Tailwind utilities win over earlier conflicting ones. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/**
 * A full page load, not a client-side transition: used after sign-in/out and session expiry so the
 * server sees the new cookie and every cached query starts fresh, and for /api/* navigations, which
 * are route handlers rather than pages.
 */
export function fullPageNavigate(url: string): void {
  window.location.href = url;
}
