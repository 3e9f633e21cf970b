import { z } from 'zod';

/**
 * A missing field reads "Required", the generic schema message of part 1 §5, rather than zod's
 * type-error text. Every consumer imports this module, so the setting holds wherever schemas run.
 */
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : undefined),
});

export * from './common.js';
export * from './errors.js';
export * from './plans.js';
export * from './validation.js';
export * from './jobs.js';
export * from './entities/user.js';
export * from './api/auth.js';
export * from './api/user.js';
