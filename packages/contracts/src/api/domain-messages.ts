/** Messages of the domain calls, without zod. */

export const domainRemovedMessage = (name: string) =>
  `${name} has been removed from monitoring. Data will be retained for 90 days.`;

export const domainRestoredMessage = (name: string) => `${name} has been restored to your active domains`;
