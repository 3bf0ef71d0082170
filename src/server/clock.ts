/** The server's notion of now, injected so tests control expiry. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
