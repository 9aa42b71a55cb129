/** How many pets the 2 %-transitions scenarios change, each there and back. */
const CHANGED_PETS = 1_000;

/**
 * Status changes, as a shelter records adoptions under way and given up: pets seeded `available` or `pending` (not
 * `sold`, which is final) move to the other of the two, then back, so that taking the list in turn again changes
 * them again; the same sequence on every run. A change that finds the pet already there (two connections out of
 * order) is answered 200 too, so every one is a success on every server.
 */
export function transitions(petCount: number): { paths: string[]; bodies: string[] } {
  // The seed gives pet i the status of i % 3: 0 available, 1 pending, 2 sold.
  const changeable = Array.from({ length: petCount }, (_, i) => i + 1).filter((id) => id % 3 !== 2);
  const pets = Array.from({ length: Math.min(CHANGED_PETS, changeable.length) }, (_, i) => changeable[(i * 7919) % changeable.length]!);
  const seeded = (id: number) => (id % 3 === 0 ? 'available' : 'pending');
  const other = (id: number) => (id % 3 === 0 ? 'pending' : 'available');
  const there = pets.map((id) => ({ path: `/v1/pets/${id}`, body: JSON.stringify({ status: other(id) }) }));
  const back = pets.map((id) => ({ path: `/v1/pets/${id}`, body: JSON.stringify({ status: seeded(id) }) }));
  const all = [...there, ...back];
  return { paths: all.map((change) => change.path), bodies: all.map((change) => change.body) };
}
