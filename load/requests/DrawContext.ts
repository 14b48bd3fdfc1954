/** What a run learnt from the live chain before it began, from which each call's params are drawn. */
export interface DrawContext {
  /** Heights that had blocks at the run's start, inclusive (the last `recentBlocks`); null: none known. */
  heights: { from: number; to: number } | null;
  /** Addresses of accounts the harness funded (lower-case hex). */
  accounts: readonly string[];
  /** A number in [0, 1), from the run's seeded generator. */
  random(): number;
}
