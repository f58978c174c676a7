/** "Forget me", "delete my information": the caller withdraws consent to be remembered. */
const FORGET = /\b(forget (about )?me|forget my (details|info|information|number|name)|(delete|erase|remove|wipe) (my|all my|all of my) (details|info|information|data|number|records?|recordings?|calls?|messages|texts|history))\b/i;

export function asksToBeForgotten(text: string): boolean {
  return FORGET.test(text);
}

/** A text asking the team to call or write back ("can someone call me", "please get back to me"). */
const CALLBACK = /\b(call me( back)?|call back|ring me|get back to me|contact me|reach me|speak (to|with) (someone|a person|a human|the owner|the team)|talk (to|with) (someone|a person|a human|the owner|the team))\b/i;

export function asksForCallback(text: string): boolean {
  return CALLBACK.test(text);
}
