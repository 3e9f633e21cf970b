/** An error answered in Stripe's shape: `{ error: { type, code, message, param?, decline_code? } }`. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; message: string; param?: string; decline_code?: string } & Record<
      string,
      unknown
    >,
  ) {
    super(body.message);
  }
}

export const missing = (id: string, param = 'id'): StripeApiError =>
  new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such object: '${id}'`,
    param,
  });

export const invalid = (message: string, param?: string): StripeApiError =>
  new StripeApiError(400, { type: 'invalid_request_error', code: 'parameter_missing', message, param });
