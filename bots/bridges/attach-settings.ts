import type { GameId } from '../../shared/rules.js';

/** The outside protocols an engine can speak. */
export type Protocol = 'piskvork' | 'uci' | 'nboard' | 'file';
export const PROTOCOLS: readonly Protocol[] = ['piskvork', 'uci', 'nboard', 'file'];
/** The games each protocol can play. */
export const PLAYS: Record<Protocol, readonly GameId[]> = { piskvork: ['gomoku'], uci: ['minichess'], nboard: ['othello'], file: ['othello', 'gomoku', 'minichess'] };

/** What `boardroom attach` was asked to do: the server, the engine and how it plays. */
export interface AttachArgs {
  readonly server: string;
  readonly token: string;
  readonly game: GameId;
  readonly protocol: Protocol;
  readonly command: string;
  readonly uciVariant?: string;
  readonly uciVariantsFile?: string;
  readonly uciOptions: readonly { name: string; value: string }[];
  readonly games: number;
  readonly play: 'open' | 'challenges' | 'ladder' | 'tournament';
  readonly tournament?: string;
  readonly vs?: string;
  readonly moveMs: number;
  readonly rounds?: number;
  readonly json: boolean;
}
