/**
 * The voice test's five quick phrases, fitted to the business: its services, its questions and
 * whether it books appointments, instead of one dental office's. Pure, used by the browser.
 */
export type QuickPhraseSource = {
  businessName?: string | null;
  services?: { name: string; isActive?: boolean }[];
  faqs?: { question: string }[];
};

export function quickPhrasesFor(source: QuickPhraseSource): string[] {
  const services = (source.services ?? []).filter((s) => s.isActive !== false && s.name.trim());
  const first = services[0]?.name.trim();
  const second = services[1]?.name.trim();
  const faq = source.faqs?.find((f) => f.question.trim())?.question.trim();
  return [
    first ? `Hello, I'd like to book ${withArticle(first)}` : "Hello, are you open today?",
    "What are your opening hours?",
    second ? `How much does ${withArticle(second)} cost?` : first ? `How much does ${withArticle(first)} cost?` : "What do you offer?",
    "Can I speak to a person?",
    faq ?? (source.businessName ? `Where is ${source.businessName} located?` : "Where are you located?"),
  ];
}

function withArticle(name: string): string {
  const lower = name.charAt(0).toLowerCase() + name.slice(1);
  // Names that are already plural or proper ("Haircuts", "Botox") read fine without an article.
  if (/s$/i.test(name) || /^[A-Z]{2,}/.test(name)) return lower;
  return `${/^[aeiou]/i.test(name) ? "an" : "a"} ${lower}`;
}
