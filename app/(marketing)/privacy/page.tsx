import type { Metadata } from "next";
import { LegalPage } from "@/components/consoles/legal/legal-page";

export const metadata: Metadata = { title: "Privacy Policy" };

export default function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy" updated="November 2026">
      <section>
        <p>
          Switchboard answers and handles phone calls and messages for businesses. This policy explains what
          data we process when you use Switchboard, and when your customers call or text a Switchboard number.
        </p>
      </section>
      <section>
        <h2>What we process</h2>
        <ul>
          <li>Account data: your name, e-mail address, username, organization and role.</li>
          <li>Call audio: the audio of calls to and from your Switchboard numbers, while the call is handled.</li>
          <li>Transcripts and summaries: the text of those calls and the summaries and recaps made from them.</li>
          <li>Messages: text messages and voicemails sent to your numbers, and the replies your assistants send.</li>
          <li>Call details: caller number, time, duration and how the call was routed.</li>
          <li>Provider keys you save in Settings, which we store encrypted.</li>
        </ul>
      </section>
      <section>
        <h2>Why we process it</h2>
        <p>
          To provide the service you configure: answering calls, taking messages, booking appointments,
          producing transcripts, summaries and daily recaps, and sending data to the integrations you connect.
          We do not sell personal data, and we do not use your calls to advertise to anyone.
        </p>
      </section>
      <section>
        <h2>Who else handles it</h2>
        <p>
          To place and answer calls and to turn speech into text and text into speech, Switchboard passes the
          necessary data to the telephony, speech and language-model providers configured for your organization.
          They process it only to deliver that part of the service.
        </p>
      </section>
      <section>
        <h2>How long we keep it</h2>
        <p>
          We keep call transcripts, summaries, messages and call details while your account is active, and you
          can delete them at any time. When you close your account we delete them within 30 days, except records
          the law requires us to keep, such as invoices.
        </p>
      </section>
      <section>
        <h2>Your rights</h2>
        <p>
          You can ask for a copy of your data, have it corrected or deleted, or object to how we process it. If
          you are a caller to a business that uses Switchboard, contact that business first: it decides how your
          call is handled.
        </p>
      </section>
      <section>
        <h2>Contact</h2>
        <p>
          Questions or requests: <a href="mailto:privacy@switchboard.dev">privacy@switchboard.dev</a>.
        </p>
      </section>
    </LegalPage>
  );
}
