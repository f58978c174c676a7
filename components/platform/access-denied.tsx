import { ShieldAlert } from "lucide-react";

/** Shown instead of an admin screen to a signed-in user without the role (spec core §6). */
export function AccessDenied({ level = "admin" }: { level?: "admin" | "master_admin" }) {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 items-center px-4 py-16" data-testid="access-denied">
      <div className="flex w-full flex-col items-center gap-4 rounded-xl border border-destructive/30 bg-destructive/5 p-8 text-center">
        <ShieldAlert className="size-10 text-destructive" aria-hidden />
        <p role="alert" className="text-lg font-semibold">
          {level === "master_admin"
            ? "Access Denied - Master admin privileges required to access this area"
            : "Access Denied - Admin privileges required to access this area"}
        </p>
      </div>
    </div>
  );
}
