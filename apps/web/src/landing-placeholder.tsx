/**
 * A placeholder until the web app's own issue lands: it says what Sendwell is and links to the
 * sign-in and registration routes that issue builds. Nothing here pretends to work yet.
 */
export function LandingPlaceholder() {
  return (
    <main className="landing">
      <h1>Sendwell</h1>
      <p>
        Sendwell watches the email health of your domains: SPF, DKIM, DMARC, blacklists, the SSL
        certificate and DNS performance.
      </p>
      <nav aria-label="Account">
        <a href="/login">Log in</a>
        <a href="/register">Register</a>
      </nav>
      <p className="note">The application is being built; these pages arrive next.</p>
    </main>
  );
}
