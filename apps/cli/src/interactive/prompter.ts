/** A question waiting for the next input line. */
interface Question {
  key: string | undefined;
  lines: string[];
  prompt: string;
  resolve: (answer: string | undefined) => void;
}

/** What the prompter needs from the terminal. */
export interface PrompterHost {
  /** Shows the question's text above the prompt. */
  show(lines: string[]): void;
  /** Sets the prompt label (the question's, or the normal one when `undefined`). */
  setPrompt(label: string | undefined): void;
  /** The question on screen was withdrawn before it was answered. */
  withdrawn?(lines: readonly string[]): void;
}

/**
 * Serialises questions asked through one input (approvals, the agent wizard): one is shown at a
 * time, and the next input line answers it. A question can be withdrawn by key (an approval whose
 * task ended); it then resolves `undefined`.
 */
export class Prompter {
  private readonly queue: Question[] = [];
  private current: Question | undefined;

  constructor(private readonly host: PrompterHost) {}

  /** True while a question waits for its answer. */
  get busy(): boolean {
    return this.current !== undefined;
  }

  /** The text of the question waiting for its answer (empty when none is waiting). */
  get currentLines(): readonly string[] {
    return this.current?.lines ?? [];
  }

  /** Asks a question; resolves with the answer line, or `undefined` when withdrawn. */
  ask(question: { lines?: string[]; prompt: string; key?: string }): Promise<string | undefined> {
    return new Promise((resolve) => {
      this.queue.push({ key: question.key, lines: question.lines ?? [], prompt: question.prompt, resolve });
      if (!this.current) this.next();
    });
  }

  /** Gives an input line to the current question. Returns false when no question was waiting. */
  answer(line: string): boolean {
    const question = this.current;
    if (!question) return false;
    this.current = undefined;
    question.resolve(line);
    this.next();
    return true;
  }

  /** Withdraws every question whose key matches. */
  withdraw(match: (key: string) => boolean): void {
    for (let index = this.queue.length - 1; index >= 0; index--) {
      const question = this.queue[index]!;
      if (question.key !== undefined && match(question.key)) {
        this.queue.splice(index, 1);
        question.resolve(undefined);
      }
    }
    const current = this.current;
    if (current?.key !== undefined && match(current.key)) {
      this.current = undefined;
      this.host.withdrawn?.(current.lines);
      current.resolve(undefined);
      this.next();
    }
  }

  /** Withdraws everything (Ctrl-C, exit). */
  withdrawAll(): void {
    this.withdraw(() => true);
    const current = this.current;
    this.current = undefined;
    if (current) this.host.withdrawn?.(current.lines);
    current?.resolve(undefined);
    for (const question of this.queue.splice(0)) question.resolve(undefined);
    this.host.setPrompt(undefined);
  }

  private next(): void {
    const question = this.queue.shift();
    this.current = question;
    if (!question) {
      this.host.setPrompt(undefined);
      return;
    }
    if (question.lines.length) this.host.show(question.lines);
    this.host.setPrompt(question.prompt);
  }
}
