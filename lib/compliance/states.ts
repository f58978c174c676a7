/**
 * Where a party to a call is, for the recording and disclosure rules (docs/compliance.md).
 *
 * ALL_PARTY_STATES is the one table of US states whose law requires every party's consent to record
 * (or intercept) a telephone conversation, each with its statute and an official link. Where courts
 * or commentators disagree (Delaware, Michigan, Nevada), the state is listed: a wrongly strict notice
 * costs one sentence, a wrongly lax one a lawsuit. AI_DISCLOSURE_STATES requires disclosing an AI at
 * the start of the conversation for regulated occupations.
 */

export type StateRule = { state: string; name: string; citation: string; url: string; note?: string };

export const ALL_PARTY_STATES: readonly StateRule[] = [
  { state: "CA", name: "California", citation: "Cal. Penal Code § 632 (CIPA); § 637.2 ($5,000 per violation)", url: "https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=PEN&sectionNum=632" },
  { state: "CT", name: "Connecticut", citation: "Conn. Gen. Stat. § 52-570d (telephone conversations)", url: "https://www.cga.ct.gov/current/pub/chap_925.htm#sec_52-570d", note: "the notice must be part of the recording ((a)(2)): the recording starts before it" },
  { state: "DE", name: "Delaware", citation: "11 Del. C. § 1335(a)(4)", url: "https://delcode.delaware.gov/title11/c005/sc07/index.html", note: "§ 2402 reads as one-party; listed as all-party out of caution" },
  { state: "FL", name: "Florida", citation: "Fla. Stat. § 934.03(1)(a), (2)(d)", url: "http://www.leg.state.fl.us/statutes/index.cfm?App_mode=Display_Statute&URL=0900-0999/0934/Sections/0934.03.html" },
  { state: "IL", name: "Illinois", citation: "720 ILCS 5/14-2(a) (as amended by P.A. 98-1142, eff. Dec. 30, 2014)", url: "https://www.ilga.gov/legislation/ilcs/fulltext.asp?DocName=072000050K14-2", note: "reaches surreptitious recording of a private conversation: the notice is what keeps a recording from being surreptitious" },
  { state: "MD", name: "Maryland", citation: "Md. Code, Cts. & Jud. Proc. § 10-402(a), (c)(3)", url: "https://mgaleg.maryland.gov/mgawebsite/Laws/StatuteText?article=gcj&section=10-402" },
  { state: "MA", name: "Massachusetts", citation: "Mass. Gen. Laws ch. 272, § 99(B)(4), (C)(1)", url: "https://malegislature.gov/Laws/GeneralLaws/PartIV/TitleI/Chapter272/Section99", note: "an interception is a secret recording without every party's prior authority: the notice makes it not secret" },
  { state: "MI", name: "Michigan", citation: "MCL 750.539c", url: "https://www.legislature.mi.gov/Laws/MCL?objectName=mcl-750-539c", note: "courts differ on a participant's own recording; listed as all-party out of caution" },
  { state: "MT", name: "Montana", citation: "Mont. Code Ann. § 45-8-213", url: "https://leg.mt.gov/bills/mca/title_0450/chapter_0080/part_0020/section_0130/0450-0080-0020-0130.html" },
  { state: "NV", name: "Nevada", citation: "NRS 200.620 (telephone; Lane v. Allstate, 114 Nev. 1176 (1998))", url: "https://www.leg.state.nv.us/nrs/nrs-200.html#NRS200Sec620" },
  { state: "NH", name: "New Hampshire", citation: "N.H. Rev. Stat. Ann. § 570-A:2, I", url: "https://www.gencourt.state.nh.us/rsa/html/LVIII/570-A/570-A-2.htm" },
  { state: "PA", name: "Pennsylvania", citation: "18 Pa. C.S. § 5703 (prohibition); § 5704(4) (all parties' prior consent)", url: "https://www.legis.state.pa.us/cfdocs/legis/LI/consCheck.cfm?txtType=HTM&ttl=18&div=0&chpt=57&sctn=3&subsctn=0" },
  { state: "WA", name: "Washington", citation: "RCW 9.73.030(1)(a), (3)", url: "https://app.leg.wa.gov/rcw/default.aspx?cite=9.73.030", note: "an announcement counts as consent only if it is itself recorded ((3)): the recording starts before the notice here" },
];

/**
 * States whose law wants the notice on the recording itself, so a recording starts before the notice
 * there: Connecticut (§ 52-570d(a)(2)) and Washington (RCW 9.73.030(3)).
 */
export const NOTICE_ON_RECORDING_STATES: ReadonlySet<string> = new Set(["CT", "WA"]);

export const AI_DISCLOSURE_STATES: readonly StateRule[] = [
  {
    state: "UT",
    name: "Utah",
    citation: "Utah Code § 13-77-103 (renumbered from the 2024 AI Policy Act by S.B. 226, 2025 ch. 465): a regulated occupation discloses generative AI verbally at the start of a call and in writing before a text conversation, when the interaction is high-risk (health data, medical advice); anyone discloses it when clearly asked",
    url: "https://le.utah.gov/xcode/Title13/Chapter77/13-77-S103.html",
  },
];

const ALL_PARTY = new Set(ALL_PARTY_STATES.map((s) => s.state));
const AI_DISCLOSURE = new Set(AI_DISCLOSURE_STATES.map((s) => s.state));

export function isAllPartyState(state: string | null | undefined): boolean {
  return Boolean(state && ALL_PARTY.has(state.toUpperCase()));
}

export function requiresAiDisclosure(state: string | null | undefined): boolean {
  return Boolean(state && AI_DISCLOSURE.has(state.toUpperCase()));
}

/**
 * Geographic area codes → state. Every code of the all-party and AI-disclosure states (those decide
 * the notice), and the larger codes of the others; an unlisted code gives no state (the notice then
 * follows the business's own state and the owner's setting). NANP non-geographic codes (555, 8XX) are absent.
 */
const AREA_CODES: Record<string, string> = {};
function codes(state: string, list: string) {
  for (const code of list.split(" ")) AREA_CODES[code] = state;
}
codes("CA", "209 213 279 310 323 341 350 369 408 415 424 442 510 530 559 562 619 626 628 650 657 661 669 707 714 738 747 760 805 818 820 831 837 840 858 909 916 925 949 951");
codes("CT", "203 475 860 959");
codes("DE", "302");
codes("FL", "239 305 321 324 352 386 407 448 561 645 656 689 727 728 754 772 786 813 850 863 904 941 954");
codes("IL", "217 224 309 312 331 447 464 618 630 708 730 773 779 815 847 861 872");
codes("MD", "227 240 301 410 443 667");
codes("MA", "339 351 413 508 617 774 781 857 978");
codes("MI", "231 248 269 313 517 586 616 679 734 810 906 947 989");
codes("MT", "406");
codes("NV", "702 725 775");
codes("NH", "603");
codes("PA", "215 223 267 272 412 445 484 570 582 610 717 724 814 835 878");
codes("WA", "206 253 360 425 509 564");
codes("UT", "385 435 801");
codes("NY", "212 315 332 347 363 516 518 585 607 631 646 680 716 718 838 845 914 917 929 934");
codes("TX", "210 214 254 281 325 346 361 409 430 432 469 512 682 713 726 737 806 817 830 832 903 915 936 940 945 956 972 979");
codes("GA", "229 404 470 478 678 706 762 770 912 943");
codes("OH", "216 220 234 283 326 330 380 419 440 513 567 614 740 937");
codes("NJ", "201 551 609 640 732 848 856 862 908 973");
codes("AZ", "480 520 602 623 928");
codes("CO", "303 719 720 970 983");
codes("NC", "252 336 472 704 743 828 910 919 980 984");
codes("VA", "276 434 540 571 703 757 804 826 948");
codes("OR", "458 503 541 971");
codes("MN", "218 320 507 612 651 763 952");
codes("DC", "202 771");

/** "+14155550123" → "CA"; null for an unlisted or non-US number. */
export function stateFromNumber(phone: string | null | undefined): string | null {
  const m = /^\+1(\d{3})\d{7}$/.exec(phone ?? "");
  return m ? (AREA_CODES[m[1]] ?? null) : null;
}

const US_STATES = new Set(
  "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split(" "),
);

/** A two-letter US state code, upper-cased, or null. */
export function normalizeState(value: string | null | undefined): string | null {
  const v = value?.trim().toUpperCase() ?? "";
  return US_STATES.has(v) ? v : null;
}

/** The state of a US street address ("1 Main St, San Diego, CA 92101" → "CA"), or null. */
export function stateFromAddress(address: string | null | undefined): string | null {
  const m = /,\s*([A-Za-z]{2})\s+\d{5}(?:-\d{4})?\s*(?:,\s*(?:USA|US|United States))?\s*$/.exec(address ?? "");
  return m ? normalizeState(m[1]) : null;
}

/** A party's state: the carrier's own field (Twilio's FromState/ToState), else the number's area code. */
export function partyState(carrierState: string | null | undefined, phone: string | null | undefined): string | null {
  return normalizeState(carrierState) ?? stateFromNumber(phone);
}
