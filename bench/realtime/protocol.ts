/** Messages between the bench:realtime orchestrator and its children (IPC). */

export interface SeedRequest {
  type: 'seed';
  pairs: number;
}
export interface Seeded {
  type: 'seeded';
  tokens: string[];
  /** Pair i: client 2i sends to client 2i+1 in conversations[i]. */
  conversations: string[];
}
export interface Listening {
  type: 'listening';
  url: string;
}

export interface ClientSpec {
  kind: 'echo' | 'giftlink';
  /**
   * Per client: the server it connects to (index into urls), its credential (token or room) and
   * the loopback address it connects from (a proxy sticky by address spreads them by it).
   */
  urls: string[];
  clients: { url: number; credential: string; localAddress?: string }[];
  /** Pair i: clients 2i → 2i+1; Giftlink conversation id, or the recipient's room for echo. */
  targets: string[];
  rate: number;
  seconds: number;
  window: number;
}

export interface PhaseResult {
  sent: number;
  delivered: number;
  lost: number;
  errors: number;
  seconds: number;
  messagesPerSecond: number;
  p50: number;
  p99: number;
  max: number;
}

/** Sent when the saturation phase begins and when its last message was answered (CPU time is read between). */
export interface ClientsPhase {
  type: 'phase';
  phase: 'saturating' | 'saturated';
}

export interface ClientsResult {
  type: 'result';
  connectSeconds: number;
  fixed: PhaseResult;
  saturation: PhaseResult;
}

/** To the orchestrator (a no-op outside a child). */
export function send(message: unknown): void {
  process.send?.(message);
}
