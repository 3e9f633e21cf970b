import { useSyncExternalStore } from 'react';

const neverChanges = () => () => {};

/**
 * False while React renders on the server or hydrates prerendered HTML, true once the page is live.
 * A prerendered form is disabled until then: a submission before its handlers are attached would be
 * the browser's own (the login form's fields in a GET query), and text typed into a field would be
 * replaced by the form's state at hydration.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
