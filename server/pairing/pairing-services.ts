import type { Bots } from '../games/ports.js';
import type { GameService } from '../games/service.js';
import type { PlatformStore } from '../store/platform.js';
import type { LeaseStore } from '../store/leases.js';
import type { GameStore } from '../store/store.js';

/** What quick pairing and the ladder both stand on to start games between whom they pair. */
export interface PairingServices {
  readonly platform: PlatformStore;
  readonly store: GameStore;
  readonly leases: LeaseStore;
  readonly service: GameService;
  /** This server process, as the leases and seats name it. */
  readonly instance: string;
  /** The roster bots of each game. */
  readonly bots: Bots;
}
