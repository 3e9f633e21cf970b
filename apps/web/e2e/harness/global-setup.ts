import type { TestProject } from 'vitest/node';
import { buildWebIfStale, startStack } from './stack';
import type {} from './context';

/** One stack for the whole browser run; test files share it and make their own users. */
export default async function setup(project: TestProject) {
  buildWebIfStale();
  const stack = await startStack();
  project.provide('baseUrl', stack.baseUrl);
  project.provide('mailboxUrl', stack.mailboxUrl);
  project.provide('databaseUrl', stack.database.url);
  project.provide('stripeUrl', stack.stripe.url);
  project.provide('stripeSecretKey', stack.stripeKeys.secretKey);
  project.provide('receiverUrl', stack.receiver.url);
  project.provide('intakeSmtpPort', stack.intakeSmtpPort);
  return () => stack.stop();
}
