/**
 * Expected errors carry a user-facing message and a status; the route wrapper turns them into
 * JSON `{message, errors?}`. Anything else is logged with a request id and answered with a plain 500.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) => new HttpError(400, message, errors);
export const unauthorized = (message = "Unauthorized") => new HttpError(401, message);
export const paymentRequired = (message: string) => new HttpError(402, message);
export const forbidden = (message = "Forbidden") => new HttpError(403, message);
export const notFound = (what = "Resource") => new HttpError(404, `${what} not found`);
export const conflict = (message: string, errors?: Record<string, string>) => new HttpError(409, message, errors);
export const payloadTooLarge = (message = "Request body is larger than 1 MB") => new HttpError(413, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, undefined, { "Retry-After": String(retryAfterSeconds) });
