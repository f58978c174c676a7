/** What the assistant says at each step of a call on webhooks (the relay gateway and tests read them too). */
export const LINES = {
  notInService: "Sorry, the number you have called is not in service. Goodbye.",
  forwardingTest: "This is the Switchboard forwarding test. The call arrived, so forwarding works. Goodbye.",
  greeting: (biz: string, name: string) => `Thanks for calling ${biz}. This is ${name}. How can I help you today?`,
  stillThere: "Are you still there? How can I help you?",
  silentGoodbye: (biz: string) => `I haven't heard anything, so I'll let you go. Thanks for calling ${biz}. Goodbye!`,
  goodbye: (biz: string) => `Thanks for calling ${biz}. Have a great day. Goodbye!`,
  connecting: (biz: string) => `Of course. Let me connect you with someone at ${biz}. One moment, please.`,
  ringFirstUnanswered: (biz: string, name: string) =>
    `Sorry, nobody at ${biz} could pick up right now. This is ${name}, their assistant. I can take a message: what would you like me to pass on, and what's the best number to reach you?`,
  transferUnanswered: (biz: string) =>
    `I'm sorry, nobody at ${biz} could pick up right now. I can take a message: what would you like me to pass on, and what's the best number to reach you?`,
  messageTaken: (biz: string) =>
    `Thank you, I've passed your message on to the team at ${biz}, and someone will get back to you. Is there anything else I can help you with?`,
  voicemailPrompt: (biz: string) => `Of course. Please leave your message for ${biz} after the tone, and press the pound key or hang up when you're done.`,
  noAssistant: (biz: string) => `Thanks for calling ${biz}. Nobody can take your call right now. Please leave a message after the tone, and we'll get back to you.`,
  recorded: "Thank you. Your message has been recorded, and the team will get back to you. Goodbye!",
  trouble: "I'm sorry, I'm having trouble answering right now. Please leave a message after the tone, and the team will get back to you.",
  unavailable: (biz: string) => `I'm sorry, I can't help with that right now. Please leave a message for ${biz} after the tone, and the team will get back to you.`,
  lost: "Sorry, we lost track of this call. Please call again. Goodbye.",
  /** The monthly cap was reached during the call (set to voicemail only): no more assistant replies, a message instead. */
  capReached: (biz: string) =>
    `I'm sorry, I can't keep helping on this call right now. I can take a message for the team at ${biz}: what would you like me to pass on, and what's the best number to reach you?`,
  capGoodbye: (biz: string) => `Thank you. The team at ${biz} will get back to you. Goodbye!`,
};

export const CALL_LINES = LINES;

/**
 * The lines a Spanish-speaking caller hears at the same steps (the conversation's language so far,
 * `languageOf(transcript)`): after a transfer nobody answered, and when the caller goes quiet.
 */
export const LINES_ES = {
  stillThere: "¿Sigue ahí? ¿En qué le puedo ayudar?",
  silentGoodbye: (biz: string) => `No le escucho, así que voy a colgar. Gracias por llamar a ${biz}. ¡Adiós!`,
  transferUnanswered: (biz: string) =>
    `Lo siento, nadie de ${biz} pudo contestar en este momento. Puedo tomarle un mensaje: ¿qué quiere que les diga, y a qué número le pueden llamar?`,
};

/** The line for this step in the conversation's language. */
export function lineIn<K extends keyof typeof LINES_ES>(lang: "en" | "es" | undefined, key: K): (typeof LINES)[K] {
  return (lang === "es" ? LINES_ES[key] : LINES[key]) as (typeof LINES)[K];
}

