/** Local storage keys of part 1 §3 and part 2 §9; nothing else in the app spells them. */
export const storageKeys = {
  token: 'auth_token',
  user: 'auth_user',
  dateFormat: 'userDateFormat',
  theme: 'theme',
  timezone: 'userTimezone',
  currencyOverride: 'currencyOverride',
  freePromoDismissed: 'freePromoDismissed',
  sidebarCollapsed: 'sidebarCollapsed',
  /** The plan chosen at registration, kept until the mailed verification link signs the user in. */
  pendingPlan: 'pendingPlan',
} as const;
