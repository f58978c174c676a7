import { Spinner } from "@/components/ui/spinner";

/** Shown while the authentication state loads (spec §2: "Loading {brand}..."). */
export function FullScreenLoader() {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="full-screen-loader"
      className="fixed inset-0 z-40 flex flex-col items-center justify-center gap-4 bg-background"
    >
      <Spinner className="size-8 text-primary" />
      <p className="text-sm text-muted-foreground">Loading Switchboard...</p>
    </div>
  );
}
