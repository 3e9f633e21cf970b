import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** Secrets never reach the log, whatever object is logged. */
const redact = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.confirmPassword',
  '*.token',
  '*.secret',
  '*.apiKey',
  '*.stripeSecretKey',
];

/** One logger configuration for every process: JSON, pretty only on a terminal. */
export function createLogger(service: string, level: LoggerOptions['level'] = 'info'): Logger {
  const pretty = process.stdout.isTTY && level !== 'silent';
  return pino({
    name: service,
    level,
    redact: { paths: redact, censor: '[redacted]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  });
}
