/** Delays between attempts while the server is unreachable (ms). */
const DELAYS_MS = [100, 200, 400, 800, 1_600, 2_000];

/**
 * Whether `error` says the server could not be reached or dropped the connection (a restart, a
 * network cut, no connection slot free), rather than refusing the statement: a Node socket error
 * (`ECONNREFUSED`, `ECONNRESET`, …), pg's "Connection terminated", or SQLSTATE class 08
 * (connection exception), 53 (insufficient resources) or 57 (operator intervention).
 */
export function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return true;
  if (!/^[0-9A-Z]{5}$/.test(code) || code.startsWith('E')) return true;
  return code.startsWith('08') || code.startsWith('53') || code.startsWith('57');
}

/**
 * Runs `attempt` until it does not fail for want of the server, waiting 100 ms, doubling to 2 s,
 * between tries; gives up (rethrows) once `stopped()`. A statement the server refuses is thrown
 * at once.
 */
export async function untilReachable<T>(
  attempt: () => Promise<T>,
  stopped: () => boolean,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isUnreachable(error) || stopped()) throw error;
      await wait(DELAYS_MS[Math.min(tries, DELAYS_MS.length - 1)]!);
    }
  }
}
