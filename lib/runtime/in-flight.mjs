// @ts-check

// The responses a server has in flight, for its drain and the heap policy (lib/runtime/front.mjs).
// Not a Set: under steady load a Set of short-lived entries grows and shrinks its table over and
// over, and each table it drops still points at the responses it held. V8's young-generation
// collector cannot tell that such a table is dead, so those responses, and all they reach,
// survived into the old generation: a third of what an idle poll promoted (docs/performance.md,
// step 25). Here slots in an array that only grows are reused through a free list of numbers,
// and a slot holds nothing once its response has left.

/** @template T */
export class InFlight {
  /** @type {(T | null)[]} */
  #slots = [];
  /** @type {number[]} */
  #free = [];
  #size = 0;

  get size() {
    return this.#size;
  }

  /**
   * @param {T} item
   * @returns {number}  its slot, for delete()
   */
  add(item) {
    const slot = this.#free.pop() ?? this.#slots.length;
    this.#slots[slot] = item;
    this.#size++;
    return slot;
  }

  /** @param {number} slot  as add() returned it; once */
  delete(slot) {
    this.#slots[slot] = null;
    this.#free.push(slot);
    this.#size--;
  }

  *[Symbol.iterator]() {
    for (const item of this.#slots) if (item !== null) yield item;
  }
}
