import type { AlertSeverity, AlertType, CheckType } from '@sendwell/contracts';

/** An alert about to be raised, whoever decided it (a scan, the daily reputation, mail flow, sender requirements). */
export interface NewAlert {
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  details: Record<string, unknown>;
  /** Set for a condition: open until the condition is found gone. Null for an event. */
  conditionKey: string | null;
}

/** A condition alert still open on a domain. */
export interface OpenAlert {
  id: number;
  conditionKey: string;
}

/** What one judgement of a domain raises and which open alerts it resolves. */
export interface AlertDecision<A extends NewAlert = NewAlert> {
  raise: A[];
  /** Ids of open alerts whose condition is gone. */
  resolve: number[];
}

/** The owner and row an alert hangs off. */
export interface AlertedDomain {
  domainId: number;
  userId: number;
}

/** A scan's alert, linked to the check it is about. */
export interface ScanAlert extends NewAlert {
  checkType: CheckType | null;
}
