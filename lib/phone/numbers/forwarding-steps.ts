/**
 * How to forward a brought-in number to Switchboard from the common US carriers (issue 30). The
 * codes are dialled on the phone that owns the number, with the 10-digit Switchboard number where
 * `{to}` is. Checked against the carriers' and phone companies' own pages:
 * - Verizon: *72 + number forwards all calls, *73 stops (verizonwireless.com/support/features/calling_features/call_forwarding.html);
 *   "No Answer/Busy Transfer" *71 + number, *73 stops (Verizon's No Answer/Busy Transfer FAQs).
 * - AT&T (GSM): *21*number# all calls, #21# stops; *61* no answer, *62* unreachable, *67* busy, and
 *   *004*number# all three at once; #002# stops every forwarding (phonenews.com "AT&T Launches Conditional Call Forwarding").
 * - T-Mobile (GSM): **21*number# all calls, ##21# stops; **004*number# every conditional forwarding,
 *   ##004# stops (T-Mobile support DOC-2706; HowardForums wiki "T-Mobile Conditional Call Forwarding").
 * - A landline (most US phone companies' vertical service codes): *72 all calls / *73 stops, *90 busy /
 *   *91, *92 no answer / *93 (georgia-broadband.com/phone/Forward_Calls.php, champlaintechnology.com/support/call-forwarding).
 */
export type ForwardingCarrier = {
  id: "att" | "verizon" | "tmobile" | "landline";
  name: string;
  /** Forward every call (the number never rings). */
  all: { on: string; off: string };
  /** Forward only when busy or unanswered (the phone rings first): what most owners want. */
  conditional: { on: string[]; off: string; note?: string };
};

export const forwardingCarriers: readonly ForwardingCarrier[] = [
  {
    id: "att",
    name: "AT&T (mobile)",
    all: { on: "*21*{to}#", off: "#21#" },
    conditional: { on: ["*004*{to}#"], off: "#002#", note: "Forwards when busy, unanswered or unreachable; or set them one by one: *67*{to}# busy, *61*{to}# no answer, *62*{to}# unreachable." },
  },
  {
    id: "verizon",
    name: "Verizon (mobile)",
    all: { on: "*72{to}", off: "*73" },
    conditional: { on: ["*71{to}"], off: "*73", note: "Verizon calls this No Answer/Busy Transfer." },
  },
  {
    id: "tmobile",
    name: "T-Mobile",
    all: { on: "**21*{to}#", off: "##21#" },
    conditional: { on: ["**004*{to}#"], off: "##004#", note: "Forwards when busy, unanswered or unreachable." },
  },
  {
    id: "landline",
    name: "A landline (most phone companies)",
    all: { on: "*72{to}", off: "*73" },
    conditional: { on: ["*90{to}", "*92{to}"], off: "*91 and *93", note: "*90 forwards when busy, *92 when unanswered; ask your phone company if the codes differ." },
  },
];

/** A code with the Switchboard number in it: the 10 digits of a +1 number (carriers dial them without +1). */
export function dialCode(template: string, to: string): string {
  const digits = to.replace(/\D/g, "");
  const national = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  return template.replaceAll("{to}", national);
}
