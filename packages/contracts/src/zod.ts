import { z } from 'zod';

/**
 * A missing field reads "Required", the generic schema message of part 1 §5, rather than zod's
 * type-error text. Every module of the contracts that builds schemas takes `z` from here, so the
 * setting holds wherever schemas run, and a web bundle that takes no schema carries no zod.
 */
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : undefined),
});

export { z };
