import type { Selectable, Users } from '@sendwell/db';

/**
 * The columns of the caller's users row a request carries: what services decide on (who, the plan,
 * the administrator test), never secrets such as the password hash or a verification token, which
 * would otherwise sit in every process's session cache. A service needing more reads the row itself.
 */
export const authUserColumns = ['id', 'email', 'emailVerified', 'planType'] as const;
export type AuthUser = Pick<Selectable<Users>, (typeof authUserColumns)[number]>;

/** What a verified request knows about its caller. The plan is read from the database, never the token. */
export interface AuthContext {
  sessionId: string;
  user: AuthUser;
}

/** The JWT's claims: the user and the session it belongs to, so logout can revoke it. */
export interface TokenClaims {
  sub: string;
  sid: string;
}
