/** What the e2e global setup hands every browser test through vitest's `inject()`. */
declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    mailboxUrl: string;
    /** The run's database, for tests that set up state no API offers yet (e.g. a paid plan while billing is unbuilt). */
    databaseUrl: string;
    /** The Stripe stand-in billing runs on; the browser reaches it as https://api.stripe.com (browser.ts). */
    stripeUrl: string;
    /** A secret key the stand-in takes, for a test that plays Stripe's dashboard (a test clock, a card). */
    stripeSecretKey: string;
    /** The HTTPS receiver alert deliveries go to (a Teams or webhook URL may point at it). */
    receiverUrl: string;
    /** The intake's SMTP port on loopback, where test messages to `test-<token>@STACK_INTAKE_DOMAIN` are delivered. */
    intakeSmtpPort: number;
  }
}
export {};
