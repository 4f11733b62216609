// A page that attaches the hosted Stately inspector to a runtime in one line (inspectInBrowser),
// from a click as a real page would (browsers block the inspector's pop-up otherwise).
import { createMemoryStore, createRuntime } from '@troupe/core';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { inspectInBrowser } from '@troupe/inspect/stately';

const SECRET = 'not-a-real-secret-0123456789';

document.querySelector('#run').addEventListener('click', async () => {
  const runtime = createRuntime({
    model: scriptedModel([textReply(`looked; the key is ${SECRET}`)]),
    agents: [{ name: 'explore', description: 'Reads.', systemPrompt: 'You explore.', tools: [] }],
    store: createMemoryStore(),
    inspect: inspectInBrowser({ secrets: [SECRET] }),
  });
  const result = await runtime.spawn({ agent: 'explore', prompt: 'look around', sessionKey: 's1' }).result;
  document.body.dataset.done = result.status;
});
