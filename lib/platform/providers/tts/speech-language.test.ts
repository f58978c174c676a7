/**
 * Which language the offline synthesizer speaks a line in: Spanish replies (long or a single word)
 * go to the Spanish voice, English ones — Spanish names and business names included — stay English.
 */
import { speakableSpanishText } from "./speakable-text";
import { speechLanguage } from "./speech-language";

describe("speechLanguage", () => {
  it.each([
    "Hola, gracias por llamar a la Clínica Dental Harbor. ¿En qué puedo ayudarle hoy?",
    "Su cita está reservada para el martes 8 de diciembre a las 3 de la tarde.",
    "Perfecto, le paso con la doctora.",
    "Adiós, que tenga un buen día.",
    "Gracias.",
    "Sí.",
    "¡Claro!",
    "Un momento, por favor.",
    "Tomé su mensaje y el equipo le devolverá la llamada.",
  ])("hears Spanish in %p", (text) => {
    expect(speechLanguage(text)).toBe("es");
  });

  it.each([
    "Thanks for calling Harbor Dental Studio. How can I help you today?",
    "Thanks for calling Clínica Dental La Sonrisa, how can I help you?",
    "Is Dr. Peña in today?",
    "Thanks for calling La Casa Salon.",
    "You're booked with José on Tuesday, December 8th at 3 PM.",
    "Sure, your number is 12.",
    "Café open Mon–Fri, 8 AM–6 PM.",
    "Please enter a valid email",
    "José",
    "Bye!",
    "OK.",
    "",
    "12:30",
  ])("keeps English (the default) for %p", (text) => {
    expect(speechLanguage(text)).toBe("en");
  });

  it("follows an explicit language over detection; a language other than Spanish gets the default voice", () => {
    expect(speechLanguage("Harbor Dental", "es-MX")).toBe("es");
    expect(speechLanguage("Harbor Dental", "spa")).toBe("es");
    expect(speechLanguage("Hola, gracias por llamar.", "en")).toBe("en");
    expect(speechLanguage("Bonjour, merci de votre appel.", "fr")).toBe("en");
    expect(speechLanguage("Hola, gracias por llamar.", "")).toBe("es");
  });
});

describe("speakableSpanishText", () => {
  it("keeps accents, ñ, ¿ and ¡ and makes the rest plain", () => {
    expect(speakableSpanishText("¿Mañana?\n¡Sí! Abrimos 9–5, “Peña & Hijos”… ")).toBe('¿Mañana? ¡Sí! Abrimos 9 a 5, "Peña y Hijos"...');
    expect(speakableSpanishText(" \n ")).toBe(".");
  });
});
