export {
  type Script,
  type ScriptedModel,
  type ScriptedReply,
  scriptedModel,
  textReply,
  toolReply,
} from './scripted-model.js';
export { manualClock, type ManualClock } from './manual-clock.js';
