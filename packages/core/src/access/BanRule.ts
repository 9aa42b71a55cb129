/**
 * Once a subject has been rejected in a window, `strikes` further requests before its Retry-After has passed
 * ban it for `durationSeconds`.
 */
export interface BanRule {
  strikes: number;
  durationSeconds: number;
}

export const DEFAULT_BAN_RULE: BanRule = { strikes: 10, durationSeconds: 15 * 60 };
