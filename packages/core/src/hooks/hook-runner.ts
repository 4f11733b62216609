// Everything that asks a host's hooks and reads their answers, loaded on first use (`load-hook-runner.ts`).
export { answerPreToolUse } from '../runtime/effects/pre-tool-use.js';
export { preToolUseDue } from '../runtime/effects/pre-tool-use-due.js';
export { withTexts } from '../runtime/effects/with-texts.js';
export { startHookContext } from './start-hooks.js';
export { stopHookAnswer } from './stop-hook.js';
export { withPostToolUse } from './tool-hooks.js';
