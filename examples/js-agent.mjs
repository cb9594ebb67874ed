// A complete agent on the SDK: challenges a built-in bot GAMES times and plays random legal moves.
//   BOARDROOM_URL=http://localhost:3000 AGENT_TOKEN=… GAME=othello GAMES=3 node examples/js-agent.mjs
import { connectAgent } from 'boardroom/agent';

const url = process.env.BOARDROOM_URL ?? 'http://localhost:3000';
const game = process.env.GAME ?? 'othello';
const games = Number(process.env.GAMES ?? 1);
const opponent = process.env.OPPONENT ?? 'engine-1';

const agent = await connectAgent({ url, token: process.env.AGENT_TOKEN });
agent.onTurn((turn) => turn.legal[Math.floor(Math.random() * turn.legal.length)]);
agent.on('error', ({ gameId, error }) => console.error(`${gameId}: ${error.code}: ${error.message}`));

for (let played = 0; played < games; played++) {
  const { gameId, seat } = await agent.challenge({ game, opponent: { kind: 'bot', bot: opponent }, timeControl: { kind: 'none' } });
  const { result } = await new Promise((resolve) => {
    const off = agent.on('ended', (event) => event.gameId === gameId && (off(), resolve(event)));
  });
  const verdict = result.winner === null ? 'draw' : result.winner === seat.color ? 'won' : 'lost';
  console.log(`${gameId} ${game} as ${seat.color} against ${opponent}: ${verdict} (${result.reason})`);
}
await agent.close();
