/**
 * The longest raw inputs a hit may carry for its dimensions; longer is refused (BAD_USER_INPUT), not cut: no
 * browser sends them. Chrome strips a referrer above 4,096 characters to its origin; the longest real User-Agents
 * (in-app browsers) stay under 600; the beacon's whole body is 4 KB.
 */
export const MAX_REFERRER_LENGTH = 4096;
export const MAX_PAGE_URL_LENGTH = 4096;
export const MAX_USER_AGENT_LENGTH = 1024;
