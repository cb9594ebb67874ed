import { againAfterCrash, EngineProblem, type EngineBridge, type EngineCommand, type EngineTurn } from './engine.js';
import { LineProcess } from './line-process.js';

/** How long a new engine may take over each answer of its opening exchange. */
const START_MS = 5000;

/**
 * What the line-protocol bridges (piskvork, UCI, NBoard) share: one engine process per game,
 * started on demand, asked once more when it crashed mid-turn, and dropped after a turn it did
 * not answer, so that a late answer is never read as the next turn's.
 */
export abstract class LineEngineBridge implements EngineBridge {
  protected engine: LineProcess | undefined;
  private starting: Promise<LineProcess> | undefined;

  constructor(
    protected readonly spec: EngineCommand,
    /** The line that asks the engine to quit. */
    private readonly goodbye: string,
  ) {}

  async check(game: Pick<EngineTurn, 'game' | 'options'>): Promise<void> {
    await this.startWith((engine) => this.greet(engine, game, new AbortController().signal));
    await this.close();
  }

  async prepare(game: Pick<EngineTurn, 'game' | 'options'>): Promise<void> {
    await this.startWith((engine) => this.greet(engine, game, new AbortController().signal)).catch(() => undefined);
  }

  think(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    return againAfterCrash(turn, signal, this.spec, () => this.ask(turn, signal));
  }

  async close(): Promise<void> {
    await this.engine?.stop(this.goodbye);
    this.engine = undefined;
    this.forget();
  }

  /** One turn: the engine's move in our notation, or a `lost(…)` with the reason there is none. */
  protected abstract ask(turn: EngineTurn, signal: AbortSignal): Promise<string>;

  /** The protocol's opening exchange with a new process; throws an EngineProblem when it fails. */
  protected abstract greet(engine: LineProcess, game: Pick<EngineTurn, 'game' | 'options'>, signal: AbortSignal): Promise<void>;

  /** The running process, or a new one greeted. */
  protected started(game: Pick<EngineTurn, 'game' | 'options'>, signal: AbortSignal): Promise<LineProcess> {
    return this.startWith((engine) => this.greet(engine, game, signal));
  }

  /** What the engine was told is no longer what it knows (a new process, a turn it lost). */
  protected forget(): void {}

  /** Sends `ask` and waits for the line `reply` over the start-up's time; an EngineProblem('start') says why not. */
  protected async handshake(engine: LineProcess, ask: string, reply: string): Promise<void> {
    engine.send(ask);
    const answer = await engine.next((line) => (line.trim() === reply ? true : undefined), Date.now() + START_MS);
    if (answer === true) return;
    const why = answer === 'exited' ? 'exited (is the command right?)' : `gave no ${reply} within ${START_MS / 1000} s`;
    throw new EngineProblem('start', `the engine was sent ${ask} and ${why}`);
  }

  /** The first line `accept` keeps; an exit, a silence or the end of the turn is lost. */
  protected async answer<T>(engine: LineProcess, accept: (line: string) => T | undefined, until: number, signal: AbortSignal): Promise<T> {
    const answer = await engine.next(accept, until, signal);
    if (answer === 'exited') return this.lost('crashed', 'the engine exited; it is started again and told the game');
    if (answer === 'timeout' || answer === 'aborted') return this.lost('silent', 'the engine gave no move in time');
    return answer;
  }

  /**
   * A new process, once `greet` has had the answers it waits for; stopped if it did not get them.
   * A start under way (the warm-up at the game's start) is shared, never doubled.
   */
  private startWith(greet: (engine: LineProcess) => Promise<void>): Promise<LineProcess> {
    if (this.engine && !this.engine.exited) return Promise.resolve(this.engine);
    this.starting ??= (async () => {
      const engine = new LineProcess(this.spec.command, this.spec.log);
      try {
        await greet(engine);
      } catch (error) {
        await engine.stop();
        throw error;
      }
      this.engine = engine;
      this.forget();
      return engine;
    })().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** No move this turn; an engine that crashed or went silent is dropped and started again next turn. */
  protected lost(kind: EngineProblem['kind'], message: string): never {
    this.forget();
    if (kind === 'crashed' || kind === 'silent') {
      void this.engine?.stop(this.goodbye);
      this.engine = undefined;
    }
    throw new EngineProblem(kind, message);
  }
}
