import type { Metadata } from "next";
import { LegalPage } from "@/components/consoles/legal/legal-page";

export const metadata: Metadata = { title: "Terms of Service" };

export default function TermsPage() {
  return (
    <LegalPage title="Terms of Service" updated="November 2026">
      <section>
        <p>
          These terms govern your use of Switchboard, an AI phone desk for businesses. By creating an account
          you agree to them on behalf of yourself and the organization you represent.
        </p>
      </section>
      <section>
        <h2>Your account</h2>
        <p>
          Keep your password and API keys safe; you are responsible for what happens under your account. Tell us
          promptly at <a href="mailto:support@switchboard.dev">support@switchboard.dev</a> if you think someone
          else has access to it.
        </p>
      </section>
      <section>
        <h2>Calls, recordings and consent</h2>
        <p>
          Switchboard processes call audio, transcripts and messages for you. You are responsible for telling
          callers that calls are handled by an AI assistant and may be transcribed, and for getting any consent
          the law in your callers&apos; location requires.
        </p>
      </section>
      <section>
        <h2>Acceptable use</h2>
        <ul>
          <li>No unsolicited marketing calls or texts, robocalls or spoofed caller IDs.</li>
          <li>No use of Switchboard for emergency services or anything unlawful.</li>
          <li>No attempts to break, overload or probe the service or other customers&apos; data.</li>
        </ul>
      </section>
      <section>
        <h2>Plans, credits and billing</h2>
        <p>
          Paid plans renew until you cancel. Usage such as call minutes and messages is charged in credits at the
          rates shown in Billing. Unused credits are not refunded unless the law requires it.
        </p>
      </section>
      <section>
        <h2>Availability and liability</h2>
        <p>
          We work to keep Switchboard available, but AI answers can be wrong and phone networks can fail. Check
          important bookings and messages yourself. To the extent the law allows, our liability is limited to the
          fees you paid in the twelve months before the claim.
        </p>
      </section>
      <section>
        <h2>Ending the service</h2>
        <p>
          You can close your account at any time. We may suspend accounts that break these terms. Our{" "}
          <a href="/privacy">Privacy Policy</a> explains what happens to your data.
        </p>
      </section>
      <section>
        <h2>Contact</h2>
        <p>
          <a href="mailto:support@switchboard.dev">support@switchboard.dev</a>
        </p>
      </section>
    </LegalPage>
  );
}
