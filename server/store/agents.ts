import type { AgentIdentity } from './store.js';

/**
 * The registered agents: each a name (one owner in any letter case) and the SHA-256 hash of its
 * token. Memory and Redis, beside the games in the same store, on the store's contract suite.
 */
export interface AgentStore {
  /** Registers an agent; false (and nothing written) when its name is already taken, in any letter case. */
  putAgent(tokenHash: string, agent: AgentIdentity): Promise<boolean>;
  getAgent(tokenHash: string): Promise<AgentIdentity | undefined>;
  /** By name, in any letter case: the identity keeps the name it was registered with. */
  agentNamed(name: string): Promise<AgentIdentity | undefined>;
  /** Gives the agent a new token hash; the old token stops working. False when there is no such agent. */
  replaceAgentToken(name: string, tokenHash: string): Promise<boolean>;
  /** Forgets the agent and its token. False when there is no such agent. */
  deleteAgent(name: string): Promise<boolean>;
}
