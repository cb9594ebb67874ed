export type GameScore = 'win' | 'draw' | 'loss';

/**
 * Lichess's arena scoring: 2 a win, 1 a draw, 0 a loss; after two wins in a row the player is on
 * fire and each game is worth double (4 a win, 2 a draw) until one is not won.
 */
export function arenaScore(games: readonly GameScore[]): { points: number; streak: number; perGame: number[] } {
  let streak = 0;
  const perGame: number[] = [];
  for (const game of games) {
    const onFire = streak >= 2;
    const base = game === 'win' ? 2 : game === 'draw' ? 1 : 0;
    perGame.push(onFire ? base * 2 : base);
    streak = game === 'win' ? streak + 1 : 0;
  }
  return { points: perGame.reduce((a, b) => a + b, 0), streak, perGame };
}
