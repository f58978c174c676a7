import { ClaimedStats } from "./claimed-stats";
import { ClosingCta } from "./closing-cta";
import { FeatureGrid } from "./feature-grid";
import { Hero } from "./hero";
import { HowItWorks } from "./how-it-works";

/** The signed-out home (spec core §1). */
export function LandingPage() {
  return (
    <div data-testid="landing">
      <Hero />
      <ClaimedStats />
      <HowItWorks />
      <FeatureGrid />
      <ClosingCta />
    </div>
  );
}
