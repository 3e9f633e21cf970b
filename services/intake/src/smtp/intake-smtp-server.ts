import type { Deps } from '../deps.js';

export interface IntakeSmtpServer {
  /** Starts listening on INTAKE_SMTP_HOST:INTAKE_SMTP_PORT; resolves with the port (0 in the settings picks a free one). */
  listen(): Promise<number>;
  close(): Promise<void>;
}

/** The SMTP side of the intake (stub: helper A fills this in). */
export function createIntakeSmtpServer(deps: Deps): IntakeSmtpServer {
  void deps;
  return {
    async listen() {
      throw new Error('not built yet');
    },
    async close() {},
  };
}
