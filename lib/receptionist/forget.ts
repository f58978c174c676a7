/** "Forget me", "delete my information": the caller withdraws consent to be remembered. */
const FORGET = /\b(forget (about )?me|forget my (details|info|information|number|name)|(delete|erase|remove) (my|all my) (details|info|information|data|number))\b/i;

export function asksToBeForgotten(text: string): boolean {
  return FORGET.test(text);
}
