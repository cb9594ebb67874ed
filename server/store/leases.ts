/**
 * Each server process's lease, renewed every second: a process whose lease ran out is dead, and
 * what it held (seats, seeks, ladder entries) is taken back by the live ones.
 */
export interface LeaseStore {
  /** Marks a server process alive until `until` (epoch ms). */
  renewLease(instance: string, until: number): Promise<void>;
  /** Every server process's lease: its instance id and the epoch ms the lease runs out. */
  leases(): Promise<Map<string, number>>;
  /** Forgets a lease that ran out at `until`, once its seats are freed; one renewed since is kept. */
  dropLease(instance: string, until: number): Promise<void>;
}
