import type { Runtime, Session, TaskStore } from '@troupe/core';
import type { ChatHistory } from './chat-history.js';
import type { ModelSettings } from './settings.js';
import type { TaskViews } from './task-views.js';

/** What every page gets: the runtime, the chat session and the board's task views. */
export interface AppContext {
  runtime: Runtime;
  store: TaskStore;
  session: Session;
  chat: ChatHistory;
  views: TaskViews;
  settings: ModelSettings;
}
