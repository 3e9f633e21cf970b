/** Mail flow's plan message apart from its schemas (api/mail-flow.ts re-exports it): the domain page shows it without zod. */
export const MAIL_FLOW_PLAN_MESSAGE = 'Mail flow reports are available on paid plans. Please upgrade to receive DMARC and TLS reports.';
