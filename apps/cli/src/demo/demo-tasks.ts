import { firstNumber, globFacts, grepCountFacts, listSome, lsFacts, readText } from './tool-facts.js';

/** A tool call the scripted agent makes. */
interface DemoToolCall {
  name: string;
  input: Record<string, unknown>;
}

/** What a scripted sub-agent does in one turn: call tools, answer, or wait until cancelled. */
type DemoTurn = { tools: DemoToolCall[]; text?: string } | { answer: string } | { hang: true };

/** A tool call the agent made earlier and what it returned. */
export interface ToolOutcome {
  name: string;
  input: Record<string, unknown>;
  text: string;
  isError: boolean;
}

/** One of the demo's seven tasks: who runs it, what it is asked, and how its agent behaves. */
export interface DemoTask {
  agent: string;
  description: string;
  prompt: string;
  /** The agent's turn `turn` (0-based), given every tool outcome so far. */
  turn(turn: number, outcomes: readonly ToolOutcome[]): DemoTurn;
}

const SOURCE_GLOB = '**/*.{ts,tsx,js,jsx,mjs,cjs,py,go,rs,java,rb}';

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function last(outcomes: readonly ToolOutcome[], name: string): ToolOutcome | undefined {
  return [...outcomes].reverse().find((outcome) => outcome.name === name);
}

function projectKind(files: readonly string[]): string {
  if (files.includes('package.json'))
    return files.some((file) => file.startsWith('tsconfig')) ? 'TypeScript/Node' : 'Node';
  if (files.includes('Cargo.toml')) return 'Rust';
  if (files.includes('go.mod')) return 'Go';
  if (files.includes('pyproject.toml') || files.includes('setup.py')) return 'Python';
  return 'general';
}

const layout: DemoTask = {
  agent: 'explore',
  description: 'Map the project layout',
  prompt: 'Thoroughness: quick. List the top level of the workspace and say what kind of project it is.',
  turn(turn, outcomes) {
    if (turn === 0) return { tools: [{ name: 'ls', input: { path: '.' } }] };
    const listing = last(outcomes, 'ls');
    if (!listing || listing.isError) return { answer: 'I could not list the workspace.' };
    const { directories, files } = lsFacts(listing.text);
    return {
      answer: `The top level holds ${count(directories.length, 'folder')} (${listSome(directories, 5)}) and ${count(files.length, 'file')} (${listSome(files, 5)}). It looks like a ${projectKind(files)} project.`,
    };
  },
};

const sources: DemoTask = {
  agent: 'explore',
  description: 'Find the source files',
  prompt:
    'Thoroughness: medium. Find the source files (TypeScript, JavaScript, Python, Go, Rust, Java, Ruby) and the Markdown docs; report how many there are and where.',
  turn(turn, outcomes) {
    if (turn === 0) {
      return {
        tools: [
          { name: 'glob', input: { pattern: SOURCE_GLOB } },
          { name: 'glob', input: { pattern: '**/*.md' } },
        ],
      };
    }
    const [code, docs] = outcomes
      .filter((outcome) => outcome.name === 'glob')
      .map((outcome) => globFacts(outcome.text));
    const top = new Map<string, number>();
    for (const path of code?.paths ?? []) {
      const dir = path.includes('/') ? path.slice(0, path.indexOf('/')) : '.';
      top.set(dir, (top.get(dir) ?? 0) + 1);
    }
    const busiest = [...top.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3);
    const where = busiest.length
      ? ` Most of the listed ones are under ${busiest.map(([dir, n]) => `${dir} (${n})`).join(', ')}.`
      : '';
    return {
      answer: `Found ${count(code?.total ?? 0, 'source file')} and ${count(docs?.total ?? 0, 'Markdown file')}.${where}`,
    };
  },
};

const notes: DemoTask = {
  agent: 'explore',
  description: 'Find TODO and FIXME notes',
  prompt: 'Thoroughness: quick. Count the TODO and FIXME notes in the code and say where most of them are.',
  turn(turn, outcomes) {
    if (turn === 0)
      return { tools: [{ name: 'grep', input: { pattern: 'TODO|FIXME', output_mode: 'count' } }] };
    const found = grepCountFacts(last(outcomes, 'grep')?.text ?? '');
    if (found.lines === 0) return { answer: 'There are no TODO or FIXME notes in the workspace.' };
    return {
      answer: `There are ${count(found.lines, 'line')} with TODO or FIXME in ${count(found.files, 'file')}${found.top ? `; the most are in ${found.top.path} (${found.top.count})` : ''}.`,
    };
  },
};

const entryPoints: DemoTask = {
  agent: 'codebase-investigator',
  description: 'Find the entry points',
  prompt: "Find the project's entry points: its package manifests, their scripts and executables.",
  turn(turn, outcomes) {
    if (turn === 0) {
      return {
        tools: [{ name: 'glob', input: { pattern: '**/{package.json,pyproject.toml,Cargo.toml,go.mod}' } }],
      };
    }
    const manifests = globFacts(last(outcomes, 'glob')?.text ?? '')
      .paths.slice()
      .sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
    if (turn === 1 && manifests[0]) return { tools: [{ name: 'read', input: { file_path: manifests[0] } }] };
    if (!manifests[0]) {
      return {
        answer: JSON.stringify({
          summary:
            'No package manifest (package.json, pyproject.toml, Cargo.toml, go.mod) was found, so there is no declared entry point.',
          relevantLocations: [],
          openQuestions: ['Which file starts the program? Look for a main module by hand.'],
        }),
      };
    }
    const root = manifests[0];
    let scripts: string[] = [];
    let name = root;
    let bin: string[] = [];
    try {
      const manifest = JSON.parse(readText(last(outcomes, 'read')?.text ?? '')) as Record<string, unknown>;
      name = typeof manifest.name === 'string' ? manifest.name : root;
      scripts = Object.keys((manifest.scripts as Record<string, unknown> | undefined) ?? {});
      const bins = manifest.bin;
      bin =
        typeof bins === 'string' ? [bins] : Object.keys((bins as Record<string, unknown> | undefined) ?? {});
    } catch {
      // Not JSON (pyproject.toml, Cargo.toml, go.mod): report the file without its scripts.
    }
    const others = manifests.slice(1, 5);
    return {
      answer: JSON.stringify({
        summary: `${name} is declared by ${root}${scripts.length ? ` with ${scripts.length} scripts (${listSome(scripts, 4)})` : ''}${bin.length ? ` and executables ${bin.join(', ')}` : ''}. ${manifests.length} manifest${manifests.length === 1 ? '' : 's'} in all.`,
        relevantLocations: [
          {
            filePath: root,
            reasoning: 'The top-level manifest: how the project is built, tested and started.',
            keySymbols: scripts.slice(0, 6),
          },
          ...others.map((path) => ({
            filePath: path,
            reasoning: 'A nested package with its own manifest.',
            keySymbols: [],
          })),
        ],
      }),
    };
  },
};

const readme: DemoTask = {
  agent: 'code-reviewer',
  description: 'Review the README',
  prompt: 'Review the top-level README for a newcomer: does it say how to install and run the project?',
  turn(turn, outcomes) {
    if (turn === 0) return { tools: [{ name: 'glob', input: { pattern: '{README,readme,Readme}*' } }] };
    const found = globFacts(last(outcomes, 'glob')?.text ?? '').paths;
    if (turn === 1 && found[0]) return { tools: [{ name: 'read', input: { file_path: found[0] } }] };
    if (!found[0])
      return {
        answer:
          'There is no README at the top level; a newcomer has nowhere to start. Add one that says what the project is and how to run it.',
      };
    const text = readText(last(outcomes, 'read')?.text ?? '');
    const lines = text.split('\n');
    const headings = lines.filter((line) => /^#{1,6} /.test(line)).length;
    const blocks = Math.floor(lines.filter((line) => line.trimStart().startsWith('```')).length / 2);
    const install = /install|npm i|pnpm add|pip install|cargo build|go get/i.test(text);
    const run = /usage|run |getting started|quick start|npx |pnpm /i.test(text);
    return {
      answer: `${found[0]} has ${lines.length} lines, ${headings} headings and ${blocks} code blocks. Install steps: ${install ? 'yes' : 'missing'}; how to run it: ${run ? 'yes' : 'missing'}.${install && run ? ' A newcomer can get started from it.' : ' Add the missing part near the top.'}`,
    };
  },
};

const linesOfCode: DemoTask = {
  agent: 'general-purpose',
  description: 'Count lines of code',
  prompt:
    'Count the lines of source code in the workspace with one shell command (skip node_modules, .git and dist).',
  turn(turn, outcomes) {
    if (turn === 0) {
      return {
        tools: [
          {
            name: 'bash',
            input: {
              command:
                "find . -type f \\( -name '*.ts' -o -name '*.tsx' -o -name '*.js' -o -name '*.py' -o -name '*.go' -o -name '*.rs' \\) -not -path '*/node_modules/*' -not -path '*/.git/*' -not -path '*/dist/*' -exec cat {} + | wc -l",
              description: 'Count lines in source files',
            },
          },
        ],
      };
    }
    const outcome = last(outcomes, 'bash');
    if (!outcome || outcome.isError)
      return { answer: 'I was not allowed to run the command, so I could not count the lines.' };
    const count = firstNumber(outcome.text);
    return {
      answer:
        count === undefined
          ? 'The command ran but printed no count.'
          : `There are ${count.toLocaleString('en-US')} lines of source code (TypeScript, JavaScript, Python, Go, Rust), not counting node_modules, .git and dist.`,
    };
  },
};

/** The task the demo cancels once it has made its first tool call. */
export const CANCELLED_TASK: DemoTask = {
  agent: 'explore',
  description: 'Very thorough search for tests',
  prompt: 'Thoroughness: very thorough. Find every test file and explain what each one covers.',
  turn(turn) {
    if (turn === 0) return { tools: [{ name: 'glob', input: { pattern: '**/*.{test,spec}.*' } }] };
    return { hang: true };
  },
};

/** The seven tasks, in the order the main agent starts them (the last two wait in the queue). */
export const DEMO_TASKS: readonly DemoTask[] = [
  layout,
  sources,
  notes,
  entryPoints,
  readme,
  linesOfCode,
  CANCELLED_TASK,
];

/** The task the general-purpose agent runs: its bash call needs approval. */
const _APPROVAL_TASK = linesOfCode;
