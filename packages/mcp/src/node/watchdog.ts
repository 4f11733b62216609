import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { SERVER_MARKER_VARIABLE } from './process-tree.js';

// Waits for its stdin to close (the host is gone, however it died), then stops the server's
// process group and every process carrying the server's marker: SIGTERM, then SIGKILL.
const SCRIPT = `
read -r _
marked() {
  for f in /proc/[0-9]*/environ; do
    if grep -qzx "${SERVER_MARKER_VARIABLE}=$2" "$f" 2>/dev/null; then p=\${f#/proc/}; echo "\${p%/environ}"; fi
  done
}
kill -s TERM -- -"$1" $(marked "$@") 2>/dev/null
sleep 2
kill -s KILL -- -"$1" $(marked "$@") 2>/dev/null
exit 0
`;

/**
 * Starts a watchdog for a stdio server (Linux and other systems with `/bin/sh`; elsewhere none):
 * a small shell process, in a process group of its own, that stops the server's group and every
 * process carrying its `marker` once the host is gone, even when the host was SIGKILLed and ran
 * no code. It holds the read end of a pipe only the host writes to; the host never writes, so
 * the pipe closes exactly when the host dies. Kill it (SIGKILL) once the server is stopped.
 */
export function startWatchdog(group: number, marker: string): ChildProcess | undefined {
  if (process.platform === 'win32' || !existsSync('/bin/sh')) return undefined;
  try {
    const watchdog = spawn('/bin/sh', ['-c', SCRIPT, 'troupe-mcp-watchdog', String(group), marker], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    watchdog.on('error', () => {}); // no shell: the host's own stopping still works
    // Neither the watchdog nor its pipe keeps the host's event loop alive.
    watchdog.unref();
    (watchdog.stdin as Socket | null)?.unref?.();
    watchdog.stdin?.on('error', () => {});
    return watchdog;
  } catch {
    return undefined;
  }
}
