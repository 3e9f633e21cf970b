/** The reputation breakdown's weights, without zod. */

/** The breakdown weights of part 2 §9: 40 + 35 + 25 = 100; the blacklist part is out of 10. */
export const REPUTATION_WEIGHTS = { emailAuthentication: 40, securityDeliverability: 35, configurationHealth: 25 } as const;

export const BLACKLIST_SCORE_MAX = 10;
