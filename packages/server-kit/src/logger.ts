import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

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

/**
 * One logger configuration for every process: JSON, pretty only on a terminal. `destination`
 * (JSON, for tests that read what is logged) replaces stdout.
 */
export function createLogger(service: string, level: LoggerOptions['level'] = 'info', destination?: DestinationStream): Logger {
  const pretty = !destination && process.stdout.isTTY && level !== 'silent';
  const options: LoggerOptions = {
    name: service,
    level,
    redact: { paths: redact, censor: '[redacted]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}
