// How many images the proxy fetches at once, overall and for one client address: its URLs need no
// credentials, so without a cap anyone could hold every socket and buffer of the server.

export const DEFAULT_MAX_CONCURRENT_FETCHES = 32;
/** More than a browser opens to one host over HTTP/1.1 (6), so one reader's images all load. */
export const DEFAULT_MAX_CONCURRENT_FETCHES_PER_ADDRESS = 8;

/** Why a fetch got no slot. */
export type NoSlot = 'overall' | 'address';

export class FetchSlots {
  #total = 0;
  readonly #byAddress = new Map<string, number>();

  constructor(
    readonly overall: number,
    readonly perAddress: number,
  ) {}

  /** A slot for a fetch asked for by `address`: the function that gives it back (once), or why there is none. */
  take(address: string): (() => void) | NoSlot {
    const mine = this.#byAddress.get(address) ?? 0;
    if (mine >= this.perAddress) return 'address';
    if (this.#total >= this.overall) return 'overall';
    this.#total += 1;
    this.#byAddress.set(address, mine + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#total -= 1;
      const left = this.#byAddress.get(address)! - 1;
      if (left === 0) this.#byAddress.delete(address);
      else this.#byAddress.set(address, left);
    };
  }

  /** Fetches under way (diagnostics and tests). */
  get inUse(): number {
    return this.#total;
  }
}
