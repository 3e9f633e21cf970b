/** One record of a domain's SPF tree (the root, or a record an include or redirect reaches) with its lookup counts. */
export interface SpfTreeNode {
  domain: string;
  via: 'root' | 'include' | 'redirect';
  /** The term that led here, e.g. "include:_spf.example.net"; null for the root. */
  term: string | null;
  record: string | null;
  /** DNS-querying terms of this record itself (include, a, mx, ptr, exists, redirect). */
  lookups: number;
  /** This record's lookups plus everything below it. */
  totalLookups: number;
  voidLookups: number;
  /** Why this record could not be (fully) evaluated; null when fine. */
  error: string | null;
  errorCode: string | null;
  children: SpfTreeNode[];
}
