/** How a transport ended: the run's events say the rest (see run-state.ts). */
export type TransportOutcome =
  | { kind: 'ended' }
  /** The wait timeout or a cancel fired; a cancel was sent to the gateway. */
  | { kind: 'stopped' }
  | { kind: 'auth'; message: string }
  | { kind: 'protocol'; message: string }
  | { kind: 'unreachable'; message: string }
  | { kind: 'disconnected'; message: string }
  | { kind: 'http_status'; status: number; message: string };
