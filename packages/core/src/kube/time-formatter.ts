import { formatTime } from './object.js';

/**
 * `formatTime` remembering its last second: a simulated API server stamps thousands of writes
 * (managedFields times, events) within one simulated second.
 */
export class TimeFormatter {
  #second = Number.NaN;
  #text = '';

  format(ms: number): string {
    const second = Math.floor(ms / 1000);
    if (second !== this.#second) {
      this.#second = second;
      this.#text = formatTime(ms);
    }
    return this.#text;
  }
}
