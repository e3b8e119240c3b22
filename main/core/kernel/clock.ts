/** Injected so tests can move time (budget windows, token expiry) without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
