// Types for the `glicko2` package (mmai/glicko2js), which ships none: the part Boardroom uses.
declare module 'glicko2' {
  export interface Glicko2Player {
    getRating(): number;
    getRd(): number;
    getVol(): number;
  }
  export class Glicko2 {
    constructor(settings?: { tau?: number; rating?: number; rd?: number; vol?: number });
    makePlayer(rating?: number, rd?: number, vol?: number): Glicko2Player;
    /** Each match: [player, opponent, score of the player: 1, 0.5 or 0]. One call is one rating period. */
    updateRatings(matches: [Glicko2Player, Glicko2Player, number][]): void;
  }
}
