// The offline demo's scripted review: five background tasks, each scripted turn by turn.

/** One step of a scripted sub-agent: tool calls, or its answer. */
export interface DemoStep {
  tools?: { name: string; input: Record<string, unknown> }[];
  answer?: string;
  /** Pause before this step's answer, in ms (scaled by the pace). */
  wait?: number;
}

/** One of the demo's background tasks, scripted turn by turn from the tool results so far. */
export interface DemoTask {
  agent: string;
  description: string;
  prompt: string;
  turn(turn: number, results: string[]): DemoStep;
}

/** The demo's tasks, in the order the main agent starts them. */
export const DEMO_TASKS: DemoTask[] = [
  {
    agent: 'explore',
    description: 'Find the auth code',
    prompt: 'Thoroughness: quick. Find where logins are handled.',
    turn: (turn, results) =>
      turn === 0
        ? { tools: [{ name: 'grep', input: { pattern: 'login' } }] }
        : turn === 1
          ? { tools: [{ name: 'read', input: { file_path: 'src/auth.js' } }] }
          : {
              answer: `Logins are handled in src/auth.js (${results[0]?.split('\n').length ?? 0} lines of grep output).`,
            },
  },
  {
    agent: 'explore',
    description: 'Count the TODOs',
    prompt: 'Thoroughness: quick. Count the TODO comments.',
    turn: (turn, results) =>
      turn === 0
        ? { tools: [{ name: 'grep', input: { pattern: 'TODO', output_mode: 'count' } }] }
        : { answer: `TODOs: ${/Total: (\d+)/.exec(results[0] ?? '')?.[1] ?? 'none'} in the source.` },
  },
  {
    agent: 'general-purpose',
    description: 'Write the review notes',
    prompt: 'Write NOTES.md with the review notes.',
    turn: (turn, results) =>
      turn === 0
        ? {
            tools: [
              { name: 'write', input: { file_path: 'NOTES.md', content: '# Review\n\n- hash passwords\n' } },
            ],
          }
        : {
            answer:
              results[0]?.startsWith('Created') || results[0]?.startsWith('Overwrote')
                ? 'Wrote NOTES.md.'
                : `NOTES.md was not written: ${results[0]}`,
          },
  },
  {
    agent: 'general-purpose',
    description: 'Add a changelog',
    prompt: 'Create CHANGELOG.md.',
    turn: (turn, results) =>
      turn === 0
        ? { tools: [{ name: 'write', input: { file_path: 'CHANGELOG.md', content: '# Changelog\n' } }] }
        : {
            answer:
              results[0]?.startsWith('Created') || results[0]?.startsWith('Overwrote')
                ? 'Wrote CHANGELOG.md.'
                : `CHANGELOG.md was not written: ${results[0]}`,
          },
  },
  {
    agent: 'explore',
    description: 'Survey every file',
    prompt: 'Thoroughness: very thorough. Read every file.',
    turn: (turn) =>
      turn < 3
        ? { tools: [{ name: 'glob', input: { pattern: '**/*' } }], wait: 2_500 }
        : { answer: 'Surveyed 6 files in 3 passes.', wait: 2_500 },
  },
];
