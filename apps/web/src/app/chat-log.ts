import type { Runtime, Session, SessionMessage } from '@troupe/core';
import { type ChatHistory, type ChatLine, saveChat } from './chat-history.js';
import { describeError } from './model-errors.js';

/** The main agent's answer as it streams in: its reasoning and its text so far. */
export interface LiveReply {
  thinking: string;
  text: string;
}

/**
 * The conversation the page shows, kept from the session's own messages (replies and
 * announcements) from the moment the session exists, whichever page is open, and saved after each
 * line: nothing is lost across a reload. A run that fails becomes an error line with its cause,
 * what to do, and the message to send again (`retry`). The main agent's reasoning and text stream
 * into {@link ChatLog.live} while it runs.
 */
export class ChatLog {
  live: LiveReply | undefined;
  private readonly listeners = new Set<() => void>();
  /** What each queued run of the session answers, in order: a user message or an announcement. */
  private readonly asked: string[] = [];
  private readonly stops: (() => void)[] = [];

  constructor(
    runtime: Pick<Runtime, 'on'>,
    private readonly session: Session,
    private readonly chat: ChatHistory,
    /** Where model requests go, for error advice. */
    private readonly baseURL: string,
  ) {
    this.stops.push(session.on('message', (message) => this.onMessage(message)));
    this.stops.push(
      runtime.on('task.progress', (event) => {
        // Only while a run is answering (a late event of an ended run does not bring it back).
        if (!event.taskId.startsWith(`${session.sessionKey}#`) || this.asked.length === 0) return;
        const live = this.live ?? { thinking: '', text: '' };
        this.live = live;
        if (event.kind === 'text') live.text += event.text;
        else if (event.kind === 'thinking') live.thinking += event.text;
        else {
          // A new turn: its text and reasoning start on a line of their own.
          if (live.text && !live.text.endsWith('\n')) live.text += '\n\n';
          if (live.thinking && !live.thinking.endsWith('\n')) live.thinking += '\n';
        }
        this.changed();
      }),
    );
  }

  /** Every line so far, oldest first. */
  get lines(): readonly ChatLine[] {
    return this.chat.lines;
  }

  /** Sends a user message to the main agent; an error (the runtime stopped) becomes an error line. */
  send(text: string): void {
    if (!text.trim()) return;
    this.add({ role: 'user', text });
    this.ask(text);
  }

  /** Sends the message of an error line again; the line loses its retry button. */
  retry(line: ChatLine): void {
    if (line.retry === undefined) return;
    const text = line.retry;
    delete line.retry;
    this.ask(text);
  }

  /** Calls `listener` whenever a line is added or the live reply grows; returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops listening to the session and the runtime. */
  dispose(): void {
    for (const stop of this.stops) stop();
  }

  private ask(text: string): void {
    this.asked.push(text);
    this.live = { thinking: '', text: '' };
    this.changed();
    this.session.send(text).catch((error: Error) => {
      this.asked.splice(this.asked.indexOf(text), 1);
      this.live = undefined;
      this.add({
        role: 'error',
        text: `The message could not be sent: ${error.message}`,
        title: 'Not sent',
        advice: 'Reload the page, then retry.',
        retry: text,
      });
    });
  }

  private onMessage(message: SessionMessage): void {
    if (message.kind === 'announcement') {
      // The runtime queues a main-agent run to answer it: remember what that run answers.
      this.asked.push(message.text);
      this.add({
        role: 'announcement',
        text: message.text.replace('[Background work update] ', '').split('\n')[0]!,
      });
      return;
    }
    const asked = this.asked.shift();
    this.live = undefined;
    const result = message.result;
    if (message.text.trim()) this.add({ role: 'assistant', text: message.text }, false);
    if (result && result.status !== 'completed') {
      const error = result.error ?? {
        code: result.status === 'cancelled' ? 'ABORTED' : result.terminateReason,
        message:
          result.status === 'cancelled'
            ? 'The run was cancelled.'
            : `The run stopped before answering (${result.terminateReason}).`,
      };
      const view = describeError(error, this.baseURL);
      this.add({
        role: 'error',
        text: view.cause,
        title: view.title,
        advice: view.advice,
        ...(asked !== undefined ? { retry: asked } : {}),
      });
      return;
    }
    if (!message.text.trim()) this.add({ role: 'assistant', text: '(No reply.)' });
    else this.save();
  }

  private add(line: ChatLine, save = true): void {
    this.chat.lines.push(line);
    if (save) this.save();
    else this.changed();
  }

  private save(): void {
    this.chat.messages = [...this.session.messages];
    void saveChat(this.chat).catch(() => {
      // The conversation still shows; the next line tries to save again.
    });
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
