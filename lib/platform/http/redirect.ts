import { NextResponse } from "next/server";

/**
 * A redirect to one of our own paths with a relative `Location` (RFC 9110 §10.2.2): the browser
 * resolves it against the address it used, so behind a proxy or in a container it never points at
 * the server's own `localhost` (which `new URL(path, req.url)` did). Only paths starting with one
 * "/" are accepted — never another origin.
 */
export function redirectToPath(path: string, status: 302 | 303 | 307 = 303): NextResponse {
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) throw new Error(`Not a same-site path: ${path}`);
  return new NextResponse(null, { status, headers: { Location: path } });
}
