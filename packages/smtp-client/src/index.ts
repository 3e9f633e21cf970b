/** The one SMTP client of the scanner's checks and the domains service's email verification (README.md). */
export { MAX_REPLY_LINE_CHARS, MAX_REPLY_LINES, printable, ReplyReader, type ReadResult, type SmtpReply } from './reply-reader.js';
export { MAX_UNREAD_REPLIES, SmtpSession, SmtpStepError } from './session.js';
export { dialSmtp, pickMailHostAddress, type AddressLookup, type DialOptions, type MailHostAddress, type RefusedAddress } from './dial.js';
export { normaliseHostName, planMxHosts, type MxHostPlan, type MxRecord } from './mx-hosts.js';
export { starttlsContext } from './starttls-context.js';
