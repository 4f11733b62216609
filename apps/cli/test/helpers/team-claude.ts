import {
  type FakeHandler,
  type FakeReply,
  lastUserText,
  type RecordedRequest,
  systemOf,
  textStep,
  toolNamesOf,
  toolResultsOf,
} from '../../../../test/fake-anthropic/index.js';

/** The tool calls of a request's conversation so far: name and input, in order. */
function callsIn(request: RecordedRequest): { name: string; input: Record<string, unknown> }[] {
  const messages: { role?: string; content?: unknown }[] = Array.isArray(request.body?.messages)
    ? request.body.messages
    : [];
  return messages.flatMap((message) =>
    message.role === 'assistant' && Array.isArray(message.content)
      ? (message.content as { type?: string; name?: string; input?: Record<string, unknown> }[])
          .filter((block) => block.type === 'tool_use')
          .map((block) => ({ name: String(block.name), input: block.input ?? {} }))
      : [],
  );
}

/** Every text a request's conversation holds (what a member has been told so far). */
function conversationText(request: RecordedRequest): string {
  return JSON.stringify(request.body?.messages ?? []);
}

/** The team member a request is for (its first message introduces it), if any. */
function memberOf(request: RecordedRequest): string | undefined {
  return /You are \\"([a-z0-9-]+)\\"/.exec(conversationText(request))?.[1];
}

const calls = (...uses: [string, Record<string, unknown>][]): FakeReply => ({
  content: uses.map(([name, input]) => ({ type: 'tool_use' as const, name, input })),
});

/**
 * A fake Claude whose main agent starts a team (`TeamCreate`) when asked for one: the lead
 * (`team-lead`) adds a task, gives it to alice and asks her by message; alice (explore) claims it,
 * greps, completes it and answers the lead; the lead concludes "Login is in src/auth.js." The main
 * agent then replies `Summary: <the team's answer's first line>`.
 */
export function teamScenario(): FakeHandler {
  return (request) => {
    const member = memberOf(request);
    const done = (name: string, match: (input: Record<string, unknown>) => boolean = () => true) =>
      callsIn(request).some((call) => call.name === name && match(call.input));
    if (member === 'team-lead') {
      if (!done('TaskCreate'))
        return calls(['TaskCreate', { subject: 'Find the login code', description: 'Where is login?' }]);
      if (!done('SendMessage'))
        return calls(
          ['TaskUpdate', { taskId: '1', owner: 'alice' }],
          [
            'SendMessage',
            { to: 'alice', message: 'Please find the login code (task #1).', summary: 'find login (#1)' },
          ],
        );
      if (conversationText(request).includes('login is in src/auth.js'))
        return textStep('Login is in src/auth.js.');
      return textStep('Waiting for alice.');
    }
    if (member === 'alice') {
      if (!done('TaskUpdate')) return calls(['TaskUpdate', { taskId: '1', status: 'in_progress' }]);
      if (!done('grep')) return calls(['grep', { pattern: 'login', output_mode: 'files_with_matches' }]);
      if (!done('SendMessage'))
        return calls(
          ['TaskUpdate', { taskId: '1', status: 'completed' }],
          [
            'SendMessage',
            { to: 'team-lead', message: 'login is in src/auth.js', summary: 'found it in src/auth.js' },
          ],
        );
      return textStep('Done.');
    }
    if (toolNamesOf(request).includes('TeamCreate') && systemOf(request).includes('main agent')) {
      const results = toolResultsOf(request);
      if (results.length) return textStep(`Summary: ${results[0]!.content.split('\n')[0]}`);
      if (/team/i.test(lastUserText(request)))
        return calls([
          'TeamCreate',
          {
            team_name: 'auth-review',
            prompt: 'Find where login is handled, with alice.',
            teammates: [{ name: 'alice', subagent_type: 'explore' }],
          },
        ]);
      return textStep('Hello from the fake Claude.');
    }
    return textStep('Nothing to do.');
  };
}
