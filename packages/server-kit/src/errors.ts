import { ErrorCode, errorStatus, type ApiError } from '@sendwell/contracts';

type Extras = Pick<ApiError, 'details' | 'requiresUpgrade' | 'currencyLocked' | 'retryAfterSeconds'>;

/**
 * The one error services throw. `message` is the user-facing text (the spec's exact wording);
 * the kit's error handler turns it into an `ApiError` answer with the status of its code.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extras: Extras = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export const badRequest = (message: string, extras?: Extras) => new AppError(ErrorCode.ValidationFailed, message, extras);
export const unauthorized = (message: string) => new AppError(ErrorCode.Unauthorized, message);
export const forbidden = (message: string, extras?: Extras) => new AppError(ErrorCode.Forbidden, message, extras);
export const notFound = (message: string) => new AppError(ErrorCode.NotFound, message);
export const conflict = (message: string, extras?: Extras) => new AppError(ErrorCode.Conflict, message, extras);
export const planLimit = (message: string, extras?: Extras) =>
  new AppError(ErrorCode.PlanLimit, message, { requiresUpgrade: true, ...extras });
export const paymentFailed = (message: string) => new AppError(ErrorCode.PaymentFailed, message);
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError(ErrorCode.RateLimited, message, { retryAfterSeconds });
export const payloadTooLarge = (message: string) => new AppError(ErrorCode.PayloadTooLarge, message);
export const upstreamUnavailable = (message: string, cause?: unknown) =>
  new AppError(ErrorCode.UpstreamUnavailable, message, {}, { cause });

export const SERVICE_BUSY = 'The service is busy. Please try again in a moment.';
export const serviceBusy = (cause?: unknown) => new AppError(ErrorCode.UpstreamUnavailable, SERVICE_BUSY, { retryAfterSeconds: 1 }, { cause });

/** SQLSTATEs of a server that dropped or refused the connection: class 08 and 57P01–57P03 (shutdown, restart). */
const CONNECTION_LOST_SQLSTATE = /^(?:08...|57P0[123])$/;
/** What pg and Node say when the socket itself went away under a query. */
const CONNECTION_LOST_MESSAGES = ['Connection terminated unexpectedly', 'Connection terminated', 'Client has encountered a connection error and is not queryable'];

/**
 * The database could not answer for now, which is load or an operator's action rather than a fault,
 * so the client is told to come back (503 with Retry-After) instead of getting a 500: pg-pool gave
 * up waiting for a free connection, or the connection was terminated or refused (a Postgres restart,
 * a failover, `pg_terminate_backend`).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.message === 'timeout exceeded when trying to connect') return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && ('severity' in error ? CONNECTION_LOST_SQLSTATE.test(code) : code === 'ECONNREFUSED' || code === 'ECONNRESET')) return true;
  return CONNECTION_LOST_MESSAGES.includes(error.message);
}

/** The ErrorCode for a status that Fastify itself produced (bad JSON, body too large, ...). */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401: return ErrorCode.Unauthorized;
    case 403: return ErrorCode.Forbidden;
    case 404: return ErrorCode.NotFound;
    case 409: return ErrorCode.Conflict;
    case 413: return ErrorCode.PayloadTooLarge;
    case 429: return ErrorCode.RateLimited;
    case 502:
    case 503:
    case 504: return ErrorCode.UpstreamUnavailable;
    default: return status >= 500 ? ErrorCode.Internal : ErrorCode.ValidationFailed;
  }
}
