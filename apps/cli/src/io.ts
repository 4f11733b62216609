import type { CommandLine } from './arguments.js';

/** A stream the CLI writes to; `isTTY` and `columns` are set on terminals. */
export interface OutputStream {
  write(text: string): boolean;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

/** A stream the CLI reads from; `isTTY` is set on terminals. */
export type InputStream = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };

/** Everything the CLI takes from its process, injectable for tests. */
export interface CliIo {
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
  env: Readonly<Record<string, string | undefined>>;
  /** The project directory (the Node tools' workspace root). */
  cwd: string;
  /** The user's home (for ~/.troupe and ~/.claude). */
  home: string;
  /** Subscribes to a process signal; returns the unsubscribe function. */
  onSignal(signal: 'SIGINT' | 'SIGTERM', listener: () => void): () => void;
  /** Path of the script to start detached `troupe` processes with (`run --background`). */
  script: string;
}

/** A command's input: the process and the parsed command line. */
export interface CliContext extends CliIo {
  line: CommandLine;
}

/** True when both stdin and stdout are terminals: the CLI may ask questions and redraw lines. */
export function isInteractive(io: Pick<CliIo, 'stdin' | 'stdout'>): boolean {
  return io.stdin.isTTY === true && io.stdout.isTTY === true;
}
