import type { CommandName } from './arguments.js';

const MAIN = `troupe — a terminal agent that delegates work to sub-agents

Usage:
  troupe [options]                         start a session with the main agent
  troupe run [options] PROMPT              run one prompt headless (for scripts)
  troupe agents list|show NAME|validate [PATHS...]
  troupe tasks list|show ID|cancel ID|resume [ID]|follow-up ID MESSAGE
  troupe mcp list                          MCP servers (.mcp.json, ~/.troupe/mcp.json) and their tools
  troupe demo                              offline demo: no API key needed
  troupe worker --postgres URL             run tasks of a cluster (run/tasks take --postgres too)
  troupe replay ID [--inspect|--stately]   replay a stored task step by step, offline
  troupe trust [FOLDER] | trust revoke [FOLDER] | trust list   project folders you trust
  troupe help [COMMAND]

Session options:
  --model ID            main model (default claude-sonnet-5-5)
  --small-model ID      fast model for agents with model: small (default claude-haiku-5-5)
  --plan-model ID       model for agents with model: plan (default: --model)
  --thinking TOKENS     extended thinking with this budget (at least 1024); the session
                        shows the model's reasoning as it streams
  --approval MODE       ask | auto | deny for write and execute tools
                        (default: ask in a terminal, deny otherwise)
  --store DIR           task store folder (default ~/.troupe/tasks)
  --inspect             watch every actor live in the offline inspector (local web page)
  --stately             watch it in the hosted Stately inspector (needs the internet)
  --trust-project       use what this folder brings (see Project trust) for this command only

Project trust: what a folder brings that can run code or widen permissions (.mcp.json, inline
mcpServers in its agent files, allow rules in .troupe/settings*.json, approval: auto and outside
agentDirs in .troupe/config.json) is ignored until you trust the folder. A session on a terminal
asks once, naming it all; other commands print what they ignored. Trust with \`troupe trust\`,
--trust-project or TROUPE_TRUST_PROJECT=1 (CI). A project's .mcp.json expands only the \${VAR}s
listed in "mcpVariables" of ~/.troupe/settings.json; a secret never goes on a command line.

Global options:
  -h, --help            show help      -v, --version   show the version
  --debug               show stack traces of errors

In a session: /agents, /tasks, /cancel, /clear, /model, /cost, /mcp, /help, /exit; Up recalls
earlier lines; Ctrl-C cancels the current turn, twice exits.
Needs ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL for another endpoint). Config: ~/.troupe/config.json
and .troupe/config.json. Exit codes: 0 ok, 1 error, 2 usage, 3-6 task limits/errors, 130 aborted.
`;

const COMMANDS: Record<Exclude<CommandName, 'interactive' | 'help'>, string> = {
  worker: `Usage: troupe worker --postgres URL [--dead-after 10s] [--approval auto|deny|ask] [--model ID]

Runs a worker of a troupe cluster on Postgres (DBOS workflows): it runs queued tasks of every
session, within the cluster's limits (config limits.maxConcurrent, 2 per session), and takes over
the tasks of workers that died. \`troupe run --postgres URL\` and \`troupe tasks list|show|cancel
--postgres URL\` submit to and read from the cluster. TROUPE_POSTGRES may hold the URL.
Approvals: auto or deny here; ask leaves them to cluster clients (default deny).
--dead-after DURATION: this worker takes another that has been silent this long (dead, frozen or
cut off) for dead and hands its tasks back to the queue (10s, 2500ms or 2500; at least 2s;
default 10s).
`,
  run: `Usage: troupe run [options] PROMPT

Runs one prompt without a session and exits: with the main agent (which may delegate), or with
--agent straight on one sub-agent. The answer goes to stdout, progress to stderr. Without PROMPT,
the prompt is read from stdin when it is not a terminal.

Options:
  -a, --agent NAME      run this agent directly instead of the main agent
  --background          start the task in a detached process, print its id and exit
  --json                print the result as JSON on stdout
  --approval MODE       ask | auto | deny (default: ask in a terminal, deny otherwise)
  --trust-project       use what this folder brings (.mcp.json, its allow rules and approval
                        mode) for this run; without it, an untrusted folder's are ignored and
                        the run says so (see troupe help trust)
  --model ID, --small-model ID, --plan-model ID, --store DIR
  --inspect, --stately  watch it in the offline / hosted Stately inspector; with --postgres the
                        worker's task is followed by replaying its journal as it grows

Exit codes: 0 GOAL, 2 usage error, 3 MAX_TURNS, 4 TIMEOUT, 5 TOKEN_LIMIT, 6 ERROR, 130 ABORTED.
`,
  agents: `Usage:
  troupe agents list              agents from .troupe/agents, .claude/agents (project and ~), built-ins
  troupe agents show NAME         one agent: source, file, tools, model, limits, prompt
  troupe agents validate [PATHS]  check agent files or folders (default: the agent folders);
                                  reports every problem; exit code 1 if a file cannot be used

Options:
  --json                          machine-readable output
`,
  mcp: `Usage:
  troupe mcp list [--json]        MCP servers from .mcp.json (project), ~/.troupe/mcp.json (user)
                                  and agent files' mcpServers: starts each, shows its status and
                                  its tools (mcp__server__tool) with their access class
`,
  tasks: `Usage:
  troupe tasks list [--status S] [--limit N]   persisted tasks, newest first
  troupe tasks show ID                         one task, with its transcript
  troupe tasks cancel ID                       cancel an unfinished task
  troupe tasks resume [ID]                     carry on unfinished tasks (all without ID)
  troupe tasks follow-up ID MESSAGE            continue a finished task's conversation: a new
                                               task of its agent, run here (Ctrl-C cancels)

Options:
  --store DIR           task store folder (default ~/.troupe/tasks)
  --json                machine-readable output (list, show)
  --approval MODE, --model ID, --small-model ID, --plan-model ID   for resume, follow-up
An ID may be abbreviated to any unique prefix.
`,
  replay: `Usage: troupe replay ID [--store DIR] [--inspect] [--stately] [--save FILE]
       troupe replay ID --fork-at STEP [--agent FILE] [--approval MODE] [--model ID]
       troupe replay FILE.jsonl --inspect
       troupe replay --inspect [--store DIR]   the inspector page on the store's tasks

Feeds a stored task's journal back through its state machine, with no model, no tool and no
network, and prints each step: the event, the state it led to, the tokens so far, the tool calls
and results. Ends with "reproduced exactly", or the first difference from the recorded result
(exit code 1). An ID may be abbreviated to any unique prefix. Step N is the state after the
journal's first N entries: the step column, and the inspector's step numbers.

Options:
  --fork-at STEP        start a new task from that step, live (model, tools, approvals as for
                        \`troupe run\`); the original task is not changed
  --agent FILE          with --fork-at: the agent edited from an agent file (its system prompt,
                        and its tools and model when it names them)
  --inspect             open the replay in the offline inspector (a page on 127.0.0.1), which
                        can also replay any other task of the store
  --stately             send it to the hosted Stately inspector (needs the internet)
  --save FILE           write the replay's timeline (JSON Lines) to FILE
  --store DIR           task store folder (default ~/.troupe/tasks)
`,
  trust: `Usage:
  troupe trust [FOLDER]           trust a project folder (default: this one) and show what that
                                  lets it do: run its MCP servers, grant its allow rules, use its
                                  approval mode and outside agent folders
  troupe trust revoke [FOLDER]    stop trusting it
  troupe trust list               the trusted folders

Trust is remembered per folder (its real path) in ~/.troupe/trusted-folders.json; subfolders are
not covered. Until then every command ignores what the folder brings and says so; a session on a
terminal asks once. For one command: --trust-project; in CI: TROUPE_TRUST_PROJECT=1. Your home
folder and ~/.troupe, ~/.claude are yours and always trusted. \${VAR} in a project's MCP config
reads only the variables you list in ~/.troupe/settings.json: { "mcpVariables": ["GITHUB_TOKEN"] }.

Options:
  --json                          machine-readable output
`,
  demo: `Usage: troupe demo [--approval ask|auto|deny]

Runs an offline session over the current directory: real read/glob/grep/ls/bash tools, a scripted
model in place of Claude, seven sub-agents in parallel (five at a time, the rest queued), one
approval, one cancellation, and a table of the persisted tasks. Nothing is written to the current
directory; the task store goes to a temporary folder. In a terminal the approval is asked; otherwise
it is approved automatically.
`,
};

/** Help text for `troupe` or one command. */
export function helpText(command?: CommandName | string): string {
  if (command === undefined || command === 'interactive' || command === 'help') return MAIN;
  return COMMANDS[command as keyof typeof COMMANDS] ?? MAIN;
}
